import Foundation
import SQLiteSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import TestSupport
import Testing

@Suite("Outbox: ids the caller chose, scheduled shares, taking back, live senders")
struct OutboxSchedulingTests {
    /// A fresh outbox on a test clock, sending to a mock provider.
    static func outbox() async throws -> (Outbox, MockShareProvider, ShareTarget, TestClock, String) {
        let path = OutboxTests.path()
        let provider = MockShareProvider(id: "chat")
        let (center, target) = await OutboxTests.center(provider)
        let clock = TestClock()
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
        return (outbox, provider, target, clock, path)
    }

    @Test("queuing the same id twice queues once; a share waits for its time, then goes out once")
    func scheduled() async throws {
        let (outbox, provider, target, clock, path) = try await Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let id = UUID()
        let at = clock.now.addingTimeInterval(600)
        try await outbox.enqueue(ShareContent(text: "tonight"), to: target, id: id, notBefore: at)
        try await outbox.enqueue(ShareContent(text: "tonight, again"), to: target, id: id, notBefore: at)
        var entries = try await outbox.entries()
        #expect(entries.count == 1 && entries[0].notBefore == at)
        #expect(try await outbox.nextDue() == at)
        _ = await outbox.process()
        #expect(provider.recordedShares.isEmpty, "not before its time")
        clock.advance(by: .seconds(600))
        entries = await outbox.process()
        #expect(entries.map(\.state) == [.posted] && provider.recordedShares.map(\.content.text) == ["tonight"])
        #expect(try await outbox.nextDue() == nil)
    }

    @Test("a queued share can be taken back, and its id is never queued again; one posted or being sent cannot")
    func withdraw() async throws {
        let path = OutboxTests.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        let (center, target) = await OutboxTests.center(provider)
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        let later = try await outbox.enqueue(ShareContent(text: "later"), to: target, id: UUID(), notBefore: Date().addingTimeInterval(3_600))
        #expect(try await outbox.withdraw(later))
        #expect(try await outbox.withdraw(later), "taken back already: still never sent")
        #expect(try await outbox.wasWithdrawn(later))
        try await outbox.enqueue(ShareContent(text: "later"), to: target, id: later, notBefore: nil)
        #expect(try await outbox.entries().isEmpty, "a withdrawn id is not queued again")
        let never = UUID()
        #expect(try await outbox.withdraw(never), "not here: withdrawn before it is queued")
        try await outbox.enqueue(ShareContent(text: "never"), to: target, id: never, notBefore: nil)
        #expect(try await outbox.entries().isEmpty)
        let now = try await outbox.enqueue(ShareContent(text: "now"), to: target)
        _ = await outbox.process()
        #expect(try await outbox.withdraw(now) == false, "posted")
        #expect(try await outbox.entries().map(\.state) == [.posted])
    }

    @Test("another process opening the outbox leaves a share in flight alone; a dead sender's share becomes outcome unknown")
    func liveSenders() async throws {
        let path = OutboxTests.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        provider.enqueue(.whenReleased(.success(.posted(ShareReceipt(postID: "77")))))
        let (center, target) = await OutboxTests.center(provider)
        let sender = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        try await sender.enqueue(ShareContent(text: "in flight"), to: target)
        let sending = Task { await sender.process() }
        await provider.waitForShares(count: 1)
        // A second outbox on the same file, as another process would open it, while the first is sending.
        let second = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        #expect(try await second.entries().map(\.state) == [.sending], "the sender is alive: its share is in flight, not lost")
        provider.release()
        #expect(await sending.value.map(\.state) == [.posted])
        // A sender that died: its claim names a lock nobody holds.
        let database = try SQLiteDatabase(path: path)
        try database.prepare("UPDATE entries SET state = 'sending', claimed_by = ?").bind(.text(UUID().uuidString)).run()
        let third = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        #expect(try await third.entries().map(\.state) == [.outcomeUnknown])
        _ = (second, third)
    }

    @Test("sendWhenDue sends a scheduled share at its time and sleeps no longer than it must")
    func sendWhenDue() async throws {
        let (outbox, provider, target, clock, path) = try await Self.outbox()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await outbox.enqueue(ShareContent(text: "at nine"), to: target, id: UUID(), notBefore: clock.now.addingTimeInterval(2.5))
        let running = Task { await outbox.sendWhenDue(checkingEvery: .seconds(1)) }
        await provider.waitForShares(count: 1)
        running.cancel()
        await running.value
        #expect(provider.recordedShares.map(\.content.text) == ["at nine"])
        #expect(clock.sleeps.allSatisfy { $0 <= .seconds(1) }, "\(clock.sleeps)")
    }

    @Test("a reply needs a destination that answers posts, and such a destination needs the post")
    func replies() {
        let replying = ShareConstraints(text: .init(maxLength: 140), images: nil, replies: .required)
        let plain = ShareConstraints(text: .init(maxLength: 140), images: nil)
        var reply = ShareContent(text: "说得好")
        #expect(replying.violations(of: reply) == [.fieldRequired(field: "inReplyTo")])
        reply.inReplyTo = "4900000000000010"
        #expect(replying.violations(of: reply).isEmpty)
        #expect(plain.violations(of: reply) == [.fieldInvalid(field: "inReplyTo", reason: "this destination answers no post")])
        reply.inReplyTo = ""
        #expect(replying.violations(of: reply).count == 1)
    }
}
