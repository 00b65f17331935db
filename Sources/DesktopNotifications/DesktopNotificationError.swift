/// Why a desktop notification was not shown.
public enum DesktopNotificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no session bus, or no notification server on it.
    case unavailable(String)
    /// The server did not take it (no answer in time, a refusal).
    case failed(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "desktop notifications are unavailable: \(reason)"
        case .failed(let reason): "the desktop notification failed: \(reason)"
        }
    }
}
