package import ServiceKit
import SystemSupport

/// An app's answer to a hand-off (WeChat's `BaseResp`, QQ's `QQBaseResp`):
/// the transaction it names, if any, and a few words for the log.
package protocol HandOffAnswer: Sendable {
    /// The hand-off's transaction, when the answer names it (Android's SDKs do).
    var transaction: String? { get }
    /// What the answer said, for the log ("errCode -2").
    var logSummary: String { get }
    /// What the answer means for the share.
    func outcome(provider: ProviderID) throws(ShareError) -> ShareOutcome
}

/// The hand-offs an app (WeChat, QQ) has not answered yet, oldest first,
/// and the one subscription to its answers that ties each answer to its
/// hand-off. Shared by the providers that hand content to another app.
///
/// The app answers a hand-off at most once, when the user comes back, and
/// on iOS the answer carries no transaction. An
/// answer for an earlier hand-off that already timed out can therefore
/// arrive while a later one waits. Every answer is judged once, in order:
/// - an answer naming a transaction settles that hand-off, or is a stray
///   when that hand-off already stopped waiting (or is unknown);
/// - an answer without one settles the only unanswered hand-off; with
///   several unanswered (one timed out, another waiting; or two waiting)
///   it cannot be told whose it is, so every waiting share ends "outcome
///   unknown" (never a cancellation or failure that may be another
///   share's), and all of them are forgotten.
package final class HandOffLedger<Answer: HandOffAnswer>: Sendable {
    /// How a wait for the app's answer ended.
    package enum Wait: Sendable {
        /// The app's answer to this hand-off.
        case answered(Answer)
        /// An answer that may be this hand-off's or an earlier one's.
        case ambiguous(Answer)
        /// No answer in time.
        case none
    }

    private enum Status {
        case waiting(CheckedContinuation<Wait, Never>?)
        case stoppedWaiting
        case settled(Wait)
    }

    private struct Entry {
        let transaction: String
        var status: Status
        var isUnanswered: Bool {
            if case .settled = status { return false }
            return true
        }
    }

    private struct State {
        var entries: [Entry] = []
        var listener: Task<Void, Never>?
    }

    private let state = Lock(State())
    private let log: any ServiceLogHandler
    private let appName: String

    /// A ledger for the app `appName` ("wechat", "qq": the log's prefix).
    package init(appName: String, log: any ServiceLogHandler) {
        self.appName = appName
        self.log = log
    }

    deinit {
        state.withLock { $0.listener?.cancel() }
    }

    /// Hands content over and waits for the app's answer: subscribes (once)
    /// with `subscribe`, records the hand-off, runs `send` (which throws
    /// when the app did not take it: the hand-off is forgotten), and turns
    /// the answer, an answer that cannot be tied to it, or silence after
    /// `timeout`, into the outcome. `app` names the app in the reasons ("WeChat").
    package func handOff(
        transaction: String, to app: String, provider: ProviderID, subscribe: () -> AsyncStream<Answer>, timeout: Duration,
        clock: any ServiceClock, send: () async throws(ShareError) -> Void
    ) async throws(ShareError) -> ShareOutcome {
        // Listening and recorded before the hand-off: an answer cannot come before its hand-off is known.
        listen(to: subscribe)
        handedOff(transaction)
        do {
            try await send()
        } catch {
            forget(transaction)
            throw error
        }
        switch await wait(for: transaction, timeout: timeout, clock: clock) {
        case .answered(let answer): return try answer.outcome(provider: provider)
        case .ambiguous(let answer):
            return .outcomeUnknown(
                reason: "\(app) answered (\(answer.logSummary)), but an earlier hand-off was still unanswered, so the answer cannot be tied to this share")
        case .none:
            return .outcomeUnknown(reason: "handed to \(app), which did not answer within \(timeout) (the user may not have come back)")
        }
    }

    /// Subscribes to the app's answers once, for every later hand-off
    /// (before the first hand-off, so no answer is missed).
    package func listen(to subscribe: () -> AsyncStream<Answer>) {
        state.withLock { state in
            guard state.listener == nil else { return }
            let answers = subscribe()
            state.listener = Task { [weak self] in
                for await answer in answers {
                    guard let self else { return }
                    self.deliver(answer)
                }
            }
        }
    }

    /// Records a hand-off the app took.
    package func handedOff(_ transaction: String) {
        state.withLock { $0.entries.append(Entry(transaction: transaction, status: .waiting(nil))) }
    }

    /// Forgets a hand-off the app did not take.
    package func forget(_ transaction: String) {
        state.withLock { $0.entries.removeAll { $0.transaction == transaction } }
    }

    /// The app's answer to `transaction`, or `.none` after `timeout`.
    package func wait(for transaction: String, timeout: Duration, clock: any ServiceClock) async -> Wait {
        await withTaskGroup(of: Wait.self) { group in
            group.addTask { await self.result(for: transaction) }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return .none
            }
            let first = await group.next() ?? .none
            stopWaiting(transaction)
            group.cancelAll()
            return first
        }
    }

    private func result(for transaction: String) async -> Wait {
        await withCheckedContinuation { (continuation: CheckedContinuation<Wait, Never>) in
            let ready: Wait? = state.withLock { state in
                guard let index = state.entries.firstIndex(where: { $0.transaction == transaction }) else { return Wait.none }
                switch state.entries[index].status {
                case .settled(let wait):
                    state.entries.remove(at: index)
                    return wait
                case .waiting:
                    state.entries[index].status = .waiting(continuation)
                    return nil
                case .stoppedWaiting:
                    return Wait.none
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The share waiting for `transaction` stopped waiting: its answer, if
    /// it ever comes, is a stray (or makes a later answer ambiguous).
    private func stopWaiting(_ transaction: String) {
        let waiter: CheckedContinuation<Wait, Never>? = state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.transaction == transaction }) else { return nil }
            switch state.entries[index].status {
            case .waiting(let waiter):
                state.entries[index].status = .stoppedWaiting
                return waiter
            case .settled:
                state.entries.remove(at: index)
                return nil
            case .stoppedWaiting:
                return nil
            }
        }
        waiter?.resume(returning: .none)
    }

    /// Judges one answer (see the type's rule) and wakes whom it concerns.
    private func deliver(_ answer: Answer) {
        var wake: [(CheckedContinuation<Wait, Never>, Wait)] = []
        let stray: Bool = state.withLock { state in
            func settle(_ index: Int, _ wait: Wait) -> Bool {
                switch state.entries[index].status {
                case .waiting(let waiter?):
                    wake.append((waiter, wait))
                    state.entries.remove(at: index)
                    return true
                case .waiting(nil):
                    state.entries[index].status = .settled(wait)
                    return true
                default:
                    state.entries.remove(at: index)
                    return false
                }
            }
            if let named = answer.transaction {
                guard let index = state.entries.firstIndex(where: { $0.transaction == named && $0.isUnanswered }) else { return true }
                return !settle(index, .answered(answer))
            }
            let unanswered = state.entries.indices.filter { state.entries[$0].isUnanswered }
            if unanswered.count == 1 { return !settle(unanswered[0], .answered(answer)) }
            guard !unanswered.isEmpty else { return true }
            var anyWaiting = false
            for index in unanswered.reversed() { anyWaiting = settle(index, .ambiguous(answer)) || anyWaiting }
            return !anyWaiting
        }
        if stray {
            log.log(ServiceLogRecord(.warning, "\(appName): dropped an answer (\(answer.logSummary)) that belongs to a hand-off no longer waiting"))
        }
        for (waiter, wait) in wake { waiter.resume(returning: wait) }
    }
}
