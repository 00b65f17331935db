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
            let name = item.name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
            if secretQueryNames.contains(item.name.lowercased()) { return "\(name)=<redacted>" }
            let value = item.value?.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
            return item.value == nil ? name : "\(name)=\(value)"
        }
        return base + "?" + query.joined(separator: "&")
    }
}

/// An ``HTTPTransport`` that logs every request and its answer to a
/// ``ShareLogHandler``: method, redacted URL, body size, status and time.
/// Bodies and headers are never logged (they carry tokens and photos).
public struct LoggingTransport: HTTPTransport {
    /// The transport that sends.
    public let base: any HTTPTransport
    /// Where lines go.
    public let handler: any ShareLogHandler

    /// Wraps `base`.
    public init(_ base: any HTTPTransport, handler: any ShareLogHandler) {
        self.base = base
        self.handler = handler
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let started = ContinuousClock.now
        handler.log(ShareLogRecord(.debug, "→ \(request.method) \(request.redactedURL) (\(Self.bytes(request.body.count)))"))
        do {
            let response = try await base.send(request)
            let level: ShareLogRecord.Level = (200..<400).contains(response.status) ? .debug : .warning
            handler.log(
                ShareLogRecord(level, "← \(response.status) \(request.redactedURL) (\(Self.bytes(response.body.count)), \(Self.elapsed(since: started)))"))
            return response
        } catch {
            handler.log(ShareLogRecord(.warning, "✗ \(request.method) \(request.redactedURL): \(error) (\(Self.elapsed(since: started)))"))
            throw error
        }
    }

    private static func bytes(_ count: Int) -> String {
        count < 10_240 ? "\(count) B" : "\(count / 1024) KB"
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        let duration = ContinuousClock.now - start
        return "\(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000) ms"
    }
}

extension HTTPTransport {
    /// This transport, logging each request and answer to `handler`.
    public func logging(to handler: any ShareLogHandler) -> LoggingTransport { LoggingTransport(self, handler: handler) }
}
