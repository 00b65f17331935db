public import ShareKit
import Synchronization

/// A ``NetworkMonitor`` that reports whatever path it is set to.
public final class FakeNetworkMonitor: NetworkMonitor {
    private let path: Mutex<NetworkPath>

    /// Creates a monitor reporting `path`.
    public init(_ path: NetworkPath = .wifi) { self.path = Mutex(path) }

    /// Changes the reported path.
    public func set(_ newPath: NetworkPath) { path.withLock { $0 = newPath } }

    public func currentPath() async -> NetworkPath { path.withLock { $0 } }
}
