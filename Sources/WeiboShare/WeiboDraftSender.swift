public import Foundation
public import ServiceKit
public import ShareKit
public import WeiboKit

/// Sends WeiboKit's drafts through ShareKit's ``ShareKit/Outbox``: at most
/// once, a scheduled draft at its time, and a draft leaves its store only
/// when the outbox says it was posted.
///
/// Sending saves the outbox id in the draft first
/// (``WeiboKit/WeiboDraftStore/beginSending(_:)``), then queues the share
/// under that id, so a crash in between queues it again under the same id
/// and never twice. ``reconcile()`` carries what the outbox did back to
/// the drafts: posted drafts go, refused ones return to editing with the
/// reason, lost answers are marked "outcome unknown" and kept. Any number
/// of processes may run ``run(checkingEvery:)`` on the same files: the
/// outbox claims each share before sending it.
///
/// ```swift
/// let sender = WeiboDraftSender(drafts: drafts, outbox: outbox)
/// try await sender.schedule(draft.id, at: tonight)
/// let running = Task { await sender.run() }   // sends it at its time
/// ```
public struct WeiboDraftSender: Sendable {
    /// The drafts.
    public let drafts: WeiboDraftStore
    /// The outbox that sends them (its center has a ``WeiboProvider``).
    public let outbox: Outbox
    /// Paces ``run(checkingEvery:)`` (tests pass one that records instead).
    public let clock: any ServiceClock

    /// Creates a sender.
    public init(drafts: WeiboDraftStore, outbox: Outbox, clock: any ServiceClock = SystemClock()) {
        self.drafts = drafts
        self.outbox = outbox
        self.clock = clock
    }

    /// Where a draft stands after ``send(_:)``.
    public enum SendState: Hashable, Sendable {
        /// Posted (the draft is gone); Weibo's id of the post, comment or repost.
        case posted(String?)
        /// Waiting in the outbox: until its scheduled time, a rate window,
        /// or the network; `reason` says which, `until` when it is due.
        case waiting(until: Date?, reason: String?)
        /// No answer came: it may have been posted (the draft is kept, marked).
        case outcomeUnknown(String)
        /// The outbox refused it (the draft is back to editing, with the reason).
        case returned(String)
    }

    /// The share a draft becomes.
    public static func share(of draft: WeiboDraft, pictures: [[UInt8]]) -> (ShareContent, ShareTarget) {
        let destination: ShareDestination
        switch draft.target {
        case .post: destination = .timeline
        case .comment: destination = .comment
        case .repost: destination = .repost
        }
        let content = ShareContent(text: draft.text, images: pictures.map { .encoded($0) }, textOverflow: .refuse, inReplyTo: draft.target.postID)
        return (content, ShareTarget(provider: WeiboProvider.id, destination: destination, displayName: "Weibo"))
    }

    /// Hands the draft to the outbox (at its scheduled time, if it has
    /// one) and has the outbox send what is due; returns where the draft stands.
    public func send(_ id: UUID) async throws -> SendState {
        try await queue(id)
        await outbox.process()
        return try await reconcile(id)
    }

    /// Sets the draft's time and hands it to the outbox, which sends it then
    /// (when a process runs ``run(checkingEvery:)`` or the outbox's own
    /// ``ShareKit/Outbox/sendWhenDue(checkingEvery:)``).
    public func schedule(_ id: UUID, at time: Date) async throws {
        _ = try await takeBack(id)
        try await drafts.setSchedule(time, of: id)
        try await queue(id)
    }

    /// Takes a queued draft back from the outbox to edit it: `true` when
    /// it is back to editing (or was never queued), `false` when it is
    /// being sent right now or was sent.
    public func takeBack(_ id: UUID) async throws -> Bool {
        let draft = try await drafts.draft(id)
        guard draft.state == .queued else { return true }
        if let outboxID = draft.outboxID {
            // Withdrawn for good: a watcher that read the draft before this cannot queue it again.
            guard try await outbox.withdraw(outboxID) else {
                _ = try await reconcile(id)
                return (try? await drafts.draft(id))?.state == .editing
            }
        }
        let settled = try await drafts.returnToEditing(id, reason: nil, sentUnder: draft.outboxID)
        return settled.state == .editing
    }

    /// Carries what the outbox did to every queued draft back to the
    /// drafts (a draft queued before a crash but not in the outbox is
    /// queued again, under its saved id).
    public func reconcile() async throws {
        for draft in try await drafts.queuedDrafts() { _ = try await reconcile(draft.id) }
    }

    /// Sends every queued draft when it is due and reconciles, until the
    /// calling task is cancelled. `checkingEvery` bounds how late a draft
    /// another process queued goes out.
    public func run(checkingEvery: Duration = .seconds(1)) async {
        let outbox = self.outbox
        let sending = Task { await outbox.sendWhenDue(checkingEvery: checkingEvery) }
        defer { sending.cancel() }
        while !Task.isCancelled {
            try? await reconcile()
            do {
                try await clock.sleep(for: checkingEvery)
            } catch {
                return
            }
        }
    }

    private func queue(_ id: UUID) async throws {
        try await enqueue(try await drafts.beginSending(id))
    }

    /// Hands a draft marked queued to the outbox, under the id it saved.
    private func enqueue(_ draft: WeiboDraft) async throws {
        guard let outboxID = draft.outboxID else { return }
        let pictures = try await draft.pictures.asyncMap { try await drafts.bytes(of: $0) }
        let (content, target) = Self.share(of: draft, pictures: pictures)
        try await outbox.enqueue(content, to: target, account: draft.account, id: outboxID, notBefore: draft.scheduledAt)
    }

    private func reconcile(_ id: UUID) async throws -> SendState {
        let draft = try await drafts.draft(id)
        switch draft.state {
        case .editing: return .returned(draft.lastError ?? "taken back")
        case .outcomeUnknown: return .outcomeUnknown(draft.lastError ?? "no answer came")
        case .queued: break
        }
        guard let outboxID = draft.outboxID else { return .returned("not queued") }
        guard let entry = try await outbox.entries().first(where: { $0.id == outboxID }) else {
            if try await outbox.wasWithdrawn(outboxID) {
                // Taken back by another process, which settles it too.
                let settled = try await drafts.returnToEditing(id, reason: nil, sentUnder: outboxID)
                return settled.state == .editing ? .returned("taken back") : .waiting(until: settled.scheduledAt, reason: nil)
            }
            // Queued here but not in the outbox: a crash between the two. Queue it again under the same id
            // (never revived if it was taken back since: the outbox refuses a withdrawn id).
            try await enqueue(draft)
            return .waiting(until: draft.scheduledAt, reason: nil)
        }
        switch entry.state {
        case .posted:
            try await drafts.markPosted(id, sentUnder: outboxID)
            try? await outbox.remove(outboxID)
            return .posted(entry.postID)
        case .outcomeUnknown:
            let reason = entry.lastError ?? "no answer came"
            try await drafts.markOutcomeUnknown(id, reason: reason, sentUnder: outboxID)
            try? await outbox.remove(outboxID)
            return .outcomeUnknown(reason)
        case .failed:
            let reason = entry.lastError ?? "refused"
            try await drafts.returnToEditing(id, reason: reason, sentUnder: outboxID)
            try? await outbox.remove(outboxID)
            return .returned(reason)
        case .queued, .sending:
            return .waiting(until: entry.notBefore, reason: entry.lastError)
        }
    }
}

extension Array {
    /// `transform` applied to each element in order.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        results.reserveCapacity(count)
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
