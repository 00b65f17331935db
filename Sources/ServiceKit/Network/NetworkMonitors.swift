/// The network monitors PhotoDeck offers without a test double.
///
/// ```swift
/// let monitor = NetworkMonitors.system
/// for await path in monitor.pathUpdates() where path != .unreachable { await outbox.process() }
/// ```
public enum NetworkMonitors {
    /// This system's monitor: ``LinuxNetworkMonitor`` on Linux; elsewhere a
    /// ``FixedNetworkMonitor`` that reports the network reachable (wired), so
    /// sends are attempted and their failures decide.
    public static var system: any NetworkMonitor {
        #if os(Linux) && !PHOTODECK_NO_LINUX_APIS
            LinuxNetworkMonitor()
        #else
            FixedNetworkMonitor(path: .wired)
        #endif
    }
}

/// A monitor whose path never changes: for systems PhotoDeck cannot watch,
/// and for code that decides the path itself.
public struct FixedNetworkMonitor: NetworkMonitor {
    /// The path it always reports.
    public let path: NetworkPath

    /// A monitor that always reports `path`.
    public init(path: NetworkPath) { self.path = path }

    public func currentPath() async -> NetworkPath { path }

    /// The path once; the stream then stays open (nothing will change)
    /// until the iterating task is cancelled.
    public func pathUpdates() -> AsyncStream<NetworkPath> {
        AsyncStream { continuation in continuation.yield(path) }
    }
}
