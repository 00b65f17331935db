/// One line of ShareKit's log. Messages never hold tokens, webhook keys or
/// secrets: URLs are logged through ``HTTPRequest/redactedURL``.
public struct ShareLogRecord: Hashable, Sendable, CustomStringConvertible {
    /// How much the line matters.
    public enum Level: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// Each request and answer.
        case debug
        /// Steps of a share.
        case info
        /// Something failed and was handled (a retry, an unknown outcome).
        case warning
        /// A share failed.
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

/// Where ShareKit's log lines go: the plug-in point for an app's logger
/// (bridge it to swift-log or os_log in a few lines). Implementations must
/// be thread-safe; ShareKitHTTPTesting's `InMemoryShareLog` records lines for tests.
///
/// ```swift
/// struct PrintLog: ShareLogHandler {
///     func log(_ record: ShareLogRecord) { print(record) }
/// }
/// let transport = URLSessionTransport().logging(to: PrintLog())
/// ```
public protocol ShareLogHandler: Sendable {
    /// Receives one line.
    func log(_ record: ShareLogRecord)
}

/// A ``ShareLogHandler`` that drops everything: the default.
public struct SilentShareLog: ShareLogHandler {
    /// Creates the handler.
    public init() {}
    public func log(_ record: ShareLogRecord) {}
}
