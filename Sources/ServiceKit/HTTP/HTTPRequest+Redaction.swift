public import Foundation

extension HTTPRequest {
    /// Query parameters whose values are secrets (tokens, keys, OAuth codes).
    public static let secretQueryNames: Set<String> = [
        "access_token", "key", "secret", "appsecret", "client_secret", "code", "refresh_token", "token", "ticket", "signature",
    ]

    /// The URL with every secret query value (``secretQueryNames``) replaced
    /// by `<redacted>`, and any user info removed: safe for logs and errors.
    public var redactedURL: String { Self.redact(url) }

    /// `url` with its secret query values (``secretQueryNames``) replaced by
    /// `<redacted>`, and any user info removed.
    public static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unparseable URL>" }
        components.user = nil
        components.password = nil
        let items = components.queryItems
        components.percentEncodedQuery = nil
        guard let base = components.string else { return "<unparseable URL>" }
        guard let items, !items.isEmpty else { return base }
        let query = items.map { item in
            let name = URLEncodedForm.encode(item.name)
            if secretQueryNames.contains(item.name.lowercased()) { return "\(name)=<redacted>" }
            let value = item.value.map(URLEncodedForm.encode) ?? ""
            return item.value == nil ? name : "\(name)=\(value)"
        }
        return base + "?" + query.joined(separator: "&")
    }
}
