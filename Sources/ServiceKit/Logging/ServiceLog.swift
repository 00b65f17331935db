/// One line of a service client's log (ShareKit's, WeiboKit's). Messages
/// never hold tokens, webhook keys or secrets: URLs are logged through ``HTTPRequest/redactedURL``.
public struct ServiceLogRecord: Hashable, Sendable, CustomStringConvertible {
    /// How much the line matters.
    public enum Level: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// Each request and answer.
        case debug
        /// Steps of a piece of work (a share, a sign-in).
        case info
        /// Something failed and was handled (a retry, an unknown outcome).
        case warning
        /// A piece of work failed.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// The level.
    public let level: Level
    /// What happened.
    public let message: String

    /// Creates a record.
    public init(_ level: Level, _ message: String) {
        self.level = level
        self.message = message
    }

    public var description: String { "[\(level)] \(message)" }
}

/// Where the clients' log lines go: the plug-in point for an app's logger
/// (bridge it to swift-log or os_log in a few lines). Implementations must
/// be thread-safe; ServiceKitTesting's `InMemoryServiceLog` records lines for tests.
///
/// ```swift
/// struct PrintLog: ServiceLogHandler {
///     func log(_ record: ServiceLogRecord) { print(record) }
/// }
/// let transport = CurlTransport().logging(to: PrintLog())
/// ```
public protocol ServiceLogHandler: Sendable {
    /// Receives one line.
    func log(_ record: ServiceLogRecord)
}

/// A ``ServiceLogHandler`` that drops everything: the default.
public struct SilentServiceLog: ServiceLogHandler {
    /// Creates the handler.
    public init() {}
    public func log(_ record: ServiceLogRecord) {}
}
