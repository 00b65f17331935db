import Foundation
import SystemSupport

/// The continuations behind an actor's change streams: each subscriber gets
/// its own stream, a cancelled stream is dropped at once (no hop back to the
/// actor), and every stream finishes when the owner is released.
final class ChangeObservers<Element: Sendable>: Sendable {
    private let continuations = Lock<[UUID: AsyncStream<Element>.Continuation]>([:])

    /// A new stream that keeps the newest `limit` unread changes.
    func stream(bufferingNewest limit: Int) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let id = UUID()
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers `element` to every stream.
    func yield(_ element: Element) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(element) }
    }

    /// Ends every stream; later streams end at once.
    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }

    deinit { finish() }
}
