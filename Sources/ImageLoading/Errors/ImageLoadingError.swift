import Foundation
public import ImageCodecs
public import ServiceKit

/// Why an image could not be loaded, typed by what happened. URLs appear
/// without their query (a signed CDN link's signature stays out of logs).
///
/// ```swift
/// do throws(ImageLoadingError) {
///     cell.image = try await loader.image(for: request).bitmap
/// } catch .network, .offline {
///     cell.showRetry()
/// } catch {
///     cell.showBroken("\(error)")
/// }
/// ```
public enum ImageLoadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not an `https`, `http` or `file` URL.
    case unsupportedURL(String)
    /// The server answered with this status (not a 2xx, not a 304 to our question).
    case http(status: Int, url: String)
    /// The server could not be reached, and nothing usable is cached.
    case network(TransportError, url: String)
    /// The server could not be reached, and the cached copy may not be
    /// served stale (`must-revalidate`, `no-cache`).
    case offline(url: String)
    /// The bytes are not an image PhotoDeck reads, or break ImageCodecs'
    /// limits (the bytes were sniffed; `Content-Type` is not trusted).
    case decode(ImageCodecError, url: String)
    /// A `file` URL that cannot be read.
    case file(String)
    /// The disk cache failed.
    case cache(UnderlyingError)
    /// The request was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .unsupportedURL(let url): "\(url) is not an http, https or file URL"
        case .http(let status, let url): "\(url) answered HTTP \(status)"
        case .network(let error, let url): "cannot load \(url): \(error)"
        case .offline(let url): "cannot reach \(url), and its cached copy must not be used without asking the server"
        case .decode(let error, let url): "\(url) is not a usable image: \(error)"
        case .file(let reason): "cannot read the file: \(reason)"
        case .cache(let cause): "the image cache failed: \(cause)"
        case .cancelled: "cancelled"
        }
    }

    /// `url` as errors show it: scheme, host, port and path, no query or fragment.
    static func shown(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        components?.user = nil
        components?.password = nil
        return components?.string ?? url.path
    }
}
