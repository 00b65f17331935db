import Foundation
public import ServiceKit
import SystemSupport

/// A ``ServiceKit/NetworkMonitor`` that reports whatever path it is set to, and
/// announces each change to every ``pathUpdates()`` stream at once.
///
/// ```swift
/// let network = FakeNetworkMonitor(.unreachable)
/// let sender = Task { await outbox.sendWhenReachable() }
/// network.set(.wifi)            // the outbox sends now
/// ```
public final class FakeNetworkMonitor: NetworkMonitor {
    private struct State {
        var path: NetworkPath
        var listeners: [UUID: AsyncStream<NetworkPath>.Continuation] = [:]
    }
    private let state: Lock<State>

    /// Creates a monitor reporting `path`.
    public init(_ path: NetworkPath = .wifi) { state = Lock(State(path: path)) }

    /// Changes the reported path and tells every listener.
    public func set(_ newPath: NetworkPath) {
        let listeners = state.withLock { state -> [AsyncStream<NetworkPath>.Continuation] in
            guard state.path != newPath else { return [] }
            state.path = newPath
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(newPath) }
    }

    /// How many streams are listening (so a test can wait until one is).
    public var listenerCount: Int { state.withLock { $0.listeners.count } }

    public func currentPath() async -> NetworkPath { state.withLock { $0.path } }

    public func pathUpdates() -> AsyncStream<NetworkPath> {
        let (stream, continuation) = AsyncStream<NetworkPath>.makeStream()
        let id = UUID()
        state.withLock { state in
            continuation.yield(state.path)
            state.listeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
        return stream
    }
}
