public import Foundation

/// Which HTTP redirects a request follows. Foundation would follow any
/// redirect with the request's headers and, for a 307 or 308, its body:
/// an `Authorization` header, a token or a client secret would go to
/// whatever host a server names, even over plain http. The transport asks
/// this policy instead, for every redirect.
///
/// Whatever the policy, a redirect from https to http is refused, and so is
/// one to anything but http or https.
public enum RedirectPolicy: Hashable, Sendable {
    /// Follow none: a redirect is ``TransportError/redirectRefused(from:to:)``.
    case refuse
    /// Follow redirects to the same origin (scheme, host and port) only: a
    /// request keeps its credentials where they were meant to go. The
    /// default for every request.
    case sameOrigin
    /// Follow redirects to any origin, for public downloads (a photo on a
    /// CDN). When the origin changes, `Authorization`, `Cookie` and
    /// `Proxy-Authorization` are dropped, and a request with a body is
    /// refused rather than re-sent elsewhere.
    case anyOriginWithoutCredentials

    /// The header fields that carry credentials.
    public static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// What the transport does with one redirect.
    public enum Decision: Hashable, Sendable {
        /// Send the redirected request as it is.
        case follow
        /// Send it without its ``RedirectPolicy/credentialHeaders``.
        case followWithoutCredentials
        /// Send nothing; the exchange ends with this error.
        case refuse(TransportError)
    }

    /// What to do with a redirect from `current` (the URL just answered, in
    /// a chain that began at `original`) to `next`, for a `method` request
    /// that has a body or not (a 307 or 308 would send it again).
    public func decide(original: URL, current: URL, next: URL?, method: String, hasBody: Bool) -> Decision {
        guard let next, let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .refuse(.redirectRefused(from: Self.origin(of: current), to: next.map(Self.origin(of:)) ?? "a non-HTTP address"))
        }
        let refusal = Decision.refuse(.redirectRefused(from: Self.origin(of: current), to: Self.origin(of: next)))
        if current.scheme?.lowercased() == "https" && scheme == "http" { return refusal }
        let sameOrigin = Self.origin(of: next) == Self.origin(of: original)
        switch self {
        case .refuse:
            return refusal
        case .sameOrigin:
            return sameOrigin ? .follow : refusal
        case .anyOriginWithoutCredentials:
            if sameOrigin { return .follow }
            let method = method.uppercased()
            guard method == "GET" || method == "HEAD", !hasBody else { return refusal }
            return .followWithoutCredentials
        }
    }

    /// `scheme://host:port` of `url`, with the scheme's default port when none is given.
    public static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
