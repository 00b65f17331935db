import Foundation
import SystemSupport

/// Fans an app's answers out to whoever is waiting: what a bridge to
/// another app (WeChat's, QQ's) returns from its `responses()`, fed from
/// the vendor SDK's callback (`onResp`).
///
/// ```swift
/// let relay = AnswerRelay<String>()
/// let answers = relay.stream()   // a provider's subscription
/// relay.deliver("0")             // from the SDK's callback
/// ```
public final class AnswerRelay<Answer: Sendable>: Sendable {
    private let listeners = Lock<[UUID: AsyncStream<Answer>.Continuation]>([:])

    /// Creates a relay.
    public init() {}

    /// A stream of every answer delivered from now on; it ends when its
    /// reader stops reading.
    public func stream() -> AsyncStream<Answer> {
        let (stream, continuation) = AsyncStream<Answer>.makeStream()
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    /// Passes WeChat's answer to every stream.
    public func deliver(_ answer: Answer) {
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield(answer) }
    }
}
