/// How the device reaches the network.
public enum NetworkPath: String, Hashable, Sendable {
    /// No usable interface.
    case unreachable
    /// Wi-Fi.
    case wifi
    /// A mobile data connection.
    case cellular
    /// Ethernet or another wired link.
    case wired
}

/// Reports the network path and its changes. ``LinuxNetworkMonitor``
/// follows the kernel's routing (rtnetlink); ServiceKitTesting's
/// `FakeNetworkMonitor` is set by tests.
///
/// ```swift
/// for await path in monitor.pathUpdates() where path != .unreachable {
///     await outbox.process()
/// }
/// ```
public protocol NetworkMonitor: Sendable {
    /// The path now.
    func currentPath() async -> NetworkPath
    /// The path now, then each change, until the iterating task is
    /// cancelled. The default asks ``currentPath()`` every two seconds.
    func pathUpdates() -> AsyncStream<NetworkPath>
}

extension NetworkMonitor {
    public func pathUpdates() -> AsyncStream<NetworkPath> {
        AsyncStream { continuation in
            let task = Task {
                var last: NetworkPath?
                while !Task.isCancelled {
                    let path = await currentPath()
                    if path != last { continuation.yield(path) }
                    last = path
                    try? await Task.sleep(for: .seconds(2))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
