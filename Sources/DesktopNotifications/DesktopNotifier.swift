import Execution

#if canImport(CDBusShim)
    import CDBusShim
#endif

/// Shows desktop notifications through `org.freedesktop.Notifications` on
/// the session bus (D-Bus, with libdbus), as GNOME, KDE, dunst and other
/// notification servers take them. Each call opens a private connection,
/// sends one `Notify` and closes it, on the execution floor's threads
/// (a D-Bus call blocks until the server answers, at most ``replyTimeout``).
///
/// ```swift
/// let notifier = DesktopNotifier()
/// if await notifier.isAvailable() {
///     _ = try await notifier.post(DesktopNotification(summary: "@Alice mentioned you", body: text))
/// }
/// ```
public struct DesktopNotifier: Sendable {
    /// How long a call waits for the server's answer.
    public let replyTimeout: Duration

    /// Creates a notifier for the session bus `DBUS_SESSION_BUS_ADDRESS` names.
    public init(replyTimeout: Duration = .seconds(5)) {
        self.replyTimeout = max(replyTimeout, .milliseconds(1))
    }

    /// Whether a notification server is on the session bus now.
    public func isAvailable() async -> Bool {
        #if canImport(CDBusShim)
            return await BlockingWork.run { () -> Bool in
                var message = [CChar](repeating: 0, count: 512)
                return pd_notifications_available(&message, message.count) == 1
            }
        #else
            return false
        #endif
    }

    /// Shows `notification`; returns the server's id for it.
    @discardableResult
    public func post(_ notification: DesktopNotification) async throws(DesktopNotificationError) -> UInt32 {
        #if canImport(CDBusShim)
            let timeout = Int32(min(replyTimeout / .milliseconds(1), Double(Int32.max)))
            let result = await BlockingWork.run { () -> Result<UInt32, DesktopNotificationError> in
                var message = [CChar](repeating: 0, count: 512)
                var id: UInt32 = 0
                let status = pd_notify(
                    notification.appName, notification.summary, notification.body, notification.icon, notification.expireTimeout,
                    notification.urgency.rawValue, timeout, &id, &message, message.count)
                guard status == 0 else {
                    let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return .failure(reason.contains("connect") ? .unavailable(reason) : .failed(reason))
                }
                return .success(id)
            }
            return try result.get()
        #else
            throw .unavailable("this platform has no D-Bus session bus")
        #endif
    }
}
