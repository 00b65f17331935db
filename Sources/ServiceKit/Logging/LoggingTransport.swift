import Foundation
import SystemSupport

/// An ``HTTPTransport`` that logs every request and its answer to a
/// ``ServiceLogHandler``: method, redacted URL, body size, status and time.
/// Bodies and headers are never logged (they carry tokens and photos).
public struct LoggingTransport: HTTPTransport {
    /// The transport that sends.
    public let base: any HTTPTransport
    /// Where lines go.
    public let handler: any ServiceLogHandler

    /// Wraps `base`.
    public init(_ base: any HTTPTransport, handler: any ServiceLogHandler) {
        self.base = base
        self.handler = handler
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let started = ContinuousClock.now
        handler.log(ServiceLogRecord(.debug, "→ \(request.method) \(request.redactedURL) (\(Self.bytes(request.body.count)))"))
        do {
            let response = try await base.send(request)
            let level: ServiceLogRecord.Level = (200..<400).contains(response.status) ? .debug : .warning
            handler.log(
                ServiceLogRecord(level, "← \(response.status) \(request.redactedURL) (\(Self.bytes(response.body.count)), \(Self.elapsed(since: started)))"))
            return response
        } catch {
            handler.log(ServiceLogRecord(.warning, "✗ \(request.method) \(request.redactedURL): \(error) (\(Self.elapsed(since: started)))"))
            throw error
        }
    }

    private static func bytes(_ count: Int) -> String {
        count < 10_240 ? "\(count) B" : "\(count / 1024) KB"
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        "\((ContinuousClock.now - start).wholeMilliseconds) ms"
    }
}

extension HTTPTransport {
    /// This transport, logging each request and answer to `handler`.
    public func logging(to handler: any ServiceLogHandler) -> LoggingTransport { LoggingTransport(self, handler: handler) }
}
