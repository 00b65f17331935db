import FakeWeibo
import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareMedia
import TestSupport
import Testing
import WeiboKit
import WeiboShare

/// Drafts sent through the outbox to the fake Weibo.
@Suite("Weibo drafts through the outbox")
struct WeiboDraftTests {
    static let me = "1750000001"

    /// A fake, a signed-in account, a center with the Weibo provider, and fresh draft and outbox files.
    struct Rig {
        let fake: FakeWeiboServer
        let folder: String
        let center: ShareCenter
        let drafts: WeiboDraftStore
        let outbox: Outbox
        let sender: WeiboDraftSender

        init() async throws {
            fake = try FakeWeiboServer()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("drafts-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let http = ServiceClient(transport: CurlTransport(), requestTimeout: .seconds(10))
            let authorizer = WeiboAuthorizer(
                appKey: FakeWeiboServer.appKey, appSecret: FakeWeiboServer.appSecret, redirectURI: URL(string: FakeWeiboServer.redirectURI)!,
                apiBase: fake.base, client: http)
            let credentials = InMemoryCredentialStore()
            await credentials.save(try await authorizer.credential(forCode: fake.issueCode(for: WeiboDraftTests.me)))
            center = ShareCenter(credentials: credentials, adapter: .media)
            await center.register(
                WeiboProvider(
                    configuration: .init(appKey: FakeWeiboServer.appKey, safeDomainLink: URL(string: "https://photodeck.example/s")!, apiBase: fake.base),
                    client: http))
            drafts = try await WeiboDraftStore.open(path: folder + "/drafts.sqlite")
            outbox = try await Outbox.open(path: folder + "/outbox.sqlite", center: center, network: FakeNetworkMonitor(.wifi))
            sender = WeiboDraftSender(drafts: drafts, outbox: outbox)
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    @Test("a post, a comment and a repost, each sent once; a posted draft leaves the store and the outbox")
    func sends() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let target = rig.fake.addPosts(1, by: "1750000003", text: "原帖")[0]
        let post = try await rig.drafts.create(account: Self.me, text: "晚霞")
        try await rig.drafts.addPicture(try noiseJPEG(width: 64, height: 48, seed: 3), to: post.id)
        let comment = try await rig.drafts.create(account: Self.me, text: "说得好", target: .comment(on: target))
        let repost = try await rig.drafts.create(account: Self.me, text: "", target: .repost(of: target))
        guard case .posted(let postID?) = try await rig.sender.send(post.id) else {
            Issue.record("the post was not posted")
            return
        }
        #expect(rig.fake.posts.first { String($0.id) == postID }?.text == "晚霞 https://photodeck.example/s")
        #expect(rig.fake.posts.first { String($0.id) == postID }?.pictures.count == 1)
        let commented = try await rig.sender.send(comment.id)
        guard case .posted = commented else {
            Issue.record("the comment was not posted: \(commented)")
            return
        }
        #expect(rig.fake.comments.map(\.text) == ["说得好"] && rig.fake.comments.first.map { String($0.postID) } == target)
        let reposted = try await rig.sender.send(repost.id)
        guard case .posted = reposted else {
            Issue.record("the repost was not posted: \(reposted)")
            return
        }
        #expect(rig.fake.posts.contains { $0.repostOf.map(String.init) == target && $0.uid == Self.me })
        #expect(try await rig.drafts.drafts(account: Self.me).isEmpty)
        #expect(try await rig.outbox.entries().isEmpty)
        try await rig.sender.reconcile()
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 1 && rig.fake.requests(to: "/2/comments/create.json").count == 1)
    }

    @Test("a lost answer: the draft is kept, marked outcome unknown, and never sent again by itself")
    func outcomeUnknown() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let draft = try await rig.drafts.create(account: Self.me, text: "也许发出去了")
        rig.fake.loseNextAnswer(to: "/2/statuses/share.json")
        guard case .outcomeUnknown = try await rig.sender.send(draft.id) else {
            Issue.record("not outcome unknown")
            return
        }
        #expect(try await rig.drafts.draft(draft.id).state == .outcomeUnknown)
        try await rig.sender.reconcile()
        _ = await rig.outbox.process()
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 1)
        #expect(rig.fake.posts.count == 1, "the fake did post it: the answer was lost after")
    }

    @Test("a draft Weibo's API cannot take (two pictures, a comment too long) returns to editing with the reason, and nothing is sent")
    func refused() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let draft = try await rig.drafts.create(account: Self.me, text: "两张图")
        for seed in 1...2 { try await rig.drafts.addPicture(try noiseJPEG(width: 32, height: 32, seed: UInt64(seed)), to: draft.id) }
        let result = try await rig.sender.send(draft.id)
        guard case .returned(let reason) = result else {
            Issue.record("not returned: \(result)")
            return
        }
        #expect(reason.contains("image") || reason.contains("picture"), "\(reason)")
        let back = try await rig.drafts.draft(draft.id)
        #expect(back.state == .editing && back.lastError == reason && back.outboxID == nil)
        let target = rig.fake.addPosts(1, by: "1750000003")[0]
        let long = try await rig.drafts.create(account: Self.me, text: String(repeating: "长", count: 141), target: .comment(on: target))
        guard case .returned = try await rig.sender.send(long.id) else {
            Issue.record("a 141-character comment was not refused")
            return
        }
        #expect(rig.fake.requests(to: "/2/statuses/share.json").isEmpty && rig.fake.requests(to: "/2/comments/create.json").isEmpty)
        #expect(try await rig.outbox.entries().isEmpty)
    }

    @Test("a full rate window: the draft waits in the outbox and says why, then goes out when the window has room")
    func rateWindow() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        await rig.center.setRateLimits([RateLimit(1, per: .seconds(3_600), scope: .account)], for: WeiboProvider.id)
        let first = try await rig.drafts.create(account: Self.me, text: "第一条")
        let second = try await rig.drafts.create(account: Self.me, text: "第二条")
        guard case .posted = try await rig.sender.send(first.id) else {
            Issue.record("the first was not posted")
            return
        }
        guard case .waiting(let until?, let reason?) = try await rig.sender.send(second.id) else {
            Issue.record("the second did not wait")
            return
        }
        #expect(until > Date().addingTimeInterval(3_000) && reason.contains("rate"), "\(reason)")
        #expect(try await rig.drafts.draft(second.id).state == .queued)
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 1)
    }

    @Test("editing a scheduled draft takes it back from the outbox first; a draft queued before a crash is queued again under its id")
    func takeBack() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let draft = try await rig.drafts.create(account: Self.me, text: "明天发")
        try await rig.sender.schedule(draft.id, at: Date().addingTimeInterval(86_400))
        await #expect(throws: WeiboError.self) { try await rig.drafts.setText("改了", of: draft.id) }
        #expect(try await rig.sender.takeBack(draft.id))
        try await rig.drafts.setText("改了", of: draft.id)
        #expect(try await rig.outbox.entries().isEmpty)
        // Queued in the drafts, but the process died before the outbox heard of it.
        let queued = try await rig.drafts.beginSending(draft.id)
        #expect(try await rig.outbox.entries().isEmpty)
        try await rig.sender.reconcile()
        let entries = try await rig.outbox.entries()
        #expect(entries.map(\.id) == [queued.outboxID])
        try await rig.sender.reconcile()
        #expect(try await rig.outbox.entries().count == 1, "queued again under the same id: once")
    }

    @Test("a watcher reconciling between another process's withdraw and its return to editing does not queue the draft again")
    func takeBackRacingAWatcher() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let watcher = WeiboDraftSender(drafts: rig.drafts, outbox: rig.outbox)
        let draft = try await rig.drafts.create(account: Self.me, text: "明天发")
        try await rig.sender.schedule(draft.id, at: Date().addingTimeInterval(86_400))
        var stale = try await rig.drafts.draft(draft.id)
        let outboxID = try #require(stale.outboxID)
        // `drafts unschedule` in one process: the outbox lets go first…
        #expect(try await rig.outbox.withdraw(outboxID))
        // …a watcher in another reconciles before the draft is marked editing: it must not queue it again…
        try await watcher.reconcile()
        #expect(try await rig.outbox.entries().isEmpty, "revived: it would be sent tomorrow and again when scheduled anew")
        // …then the first process finishes, and the schedule is cleared.
        #expect(try await rig.drafts.returnToEditing(draft.id, reason: nil, sentUnder: outboxID).state == .editing)
        try await rig.drafts.setSchedule(nil, of: draft.id)
        // A watcher that read the queued draft before all this queues it under the old id: a no-op.
        stale.scheduledAt = nil
        let (content, target) = WeiboDraftSender.share(of: stale, pictures: [])
        try await rig.outbox.enqueue(content, to: target, account: Self.me, id: outboxID, notBefore: nil)
        #expect(try await rig.outbox.entries().isEmpty)
        #expect(try await rig.outbox.wasWithdrawn(outboxID))
        await rig.outbox.process()
        #expect(rig.fake.requests(to: "/2/statuses/share.json").isEmpty, "nothing sent")
        let now = try await rig.drafts.draft(draft.id)
        #expect(now.state == .editing && now.scheduledAt == nil && now.outboxID == nil)
        // Scheduled again, it goes under a new id, once.
        guard case .posted = try await rig.sender.send(draft.id) else {
            Issue.record("not posted")
            return
        }
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 1)
    }

    @Test("draft store: text as typed, pictures kept by digest, at most nine, bad ids refused, a changed picture file detected")
    func store() async throws {
        let rig = try await Rig()
        defer { rig.remove() }
        let drafts = rig.drafts
        let draft = try await drafts.create(account: Self.me)
        for prefix in ["今", "今天", "今天的晚霞"] { try await drafts.setText(prefix, of: draft.id) }
        #expect(try await drafts.draft(draft.id).text == "今天的晚霞")
        let jpeg = try noiseJPEG(width: 32, height: 32, seed: 1)
        for _ in 0..<9 { try await drafts.addPicture(jpeg, to: draft.id) }
        await #expect(throws: WeiboError.self) { try await drafts.addPicture(jpeg, to: draft.id) }
        await #expect(throws: WeiboError.self) { try await drafts.addPicture([], to: draft.id) }
        await #expect(throws: WeiboError.self) { try await drafts.setTarget(.comment(on: "12ab"), of: draft.id) }
        let picture = try #require(try await drafts.draft(draft.id).pictures.first)
        #expect(try await drafts.bytes(of: picture) == jpeg)
        let file = rig.folder + "/drafts.sqlite.pictures/\(picture.sha256).picture"
        try Data(jpeg.reversed()).write(to: URL(fileURLWithPath: file))
        await #expect(throws: WeiboError.self) { try await drafts.bytes(of: picture) }
        try await drafts.removePicture(at: 0, from: draft.id)
        #expect(try await drafts.draft(draft.id).pictures.count == 8)
        try await drafts.delete(draft.id)
        #expect(try await drafts.drafts(account: Self.me).isEmpty)
    }
}
