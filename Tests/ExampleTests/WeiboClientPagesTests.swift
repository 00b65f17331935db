import FakeWeibo
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// weibo-client's post page, person's page, gaps and network, end to end.
@Suite("weibo-client: a post's page, a person's page, filling gaps, no network")
struct WeiboClientPagesTests {
    typealias Run = WeiboClientCommandTests.Run

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("show: the post with its comments and reposts; reposts alone; both in text and JSON")
    func postPage() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let post = run.fake.addPosts(1, by: "1750000002", text: "原文")[0]
        #expect(try await run(["comment", post, "好看"]).status == 0)
        let repost = try #require(run.fake.addRepost(of: post, by: "1750000003", text: "转发 \u{1B}]52;c;x\u{07}"))
        var result = try await run(["show", post])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("@Alice") && result.standardOutput.contains("comments (1):") && result.standardOutput.contains("好看"))
        #expect(result.standardOutput.contains("reposts (1):") && result.standardOutput.contains(repost))
        #expect(!result.standardOutput.contains("\u{1B}") && result.standardOutput.contains("\\u{1B}]52"), "a repost's text is made terminal-safe")
        result = try await run(["show", post, "--json"])
        let page = try #require(try Self.json(result.standardOutput) as? [String: Any])
        #expect(Set(page.keys) == ["post", "comments", "commentsCount", "reposts", "repostsCount"])
        #expect((page["post"] as? [String: Any])?["id"] as? String == post)
        #expect((page["reposts"] as? [[String: Any]])?.map { $0["id"] as? String } == [repost])
        result = try await run(["reposts", post, "--json"])
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.first?["id"] as? String == repost)
        result = try await run(["show", "12345"])
        #expect(result.status == 1 && result.standardError.hasPrefix("error: not found"))
    }

    @Test("user: posts (cached, with their own gaps), topics, follows and fans by cursor, follow and unfollow by @name")
    func personPage() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        for index in 0..<8 {
            let uid = String(1_760_000_000 + index)
            run.fake.addUser(uid: uid, screenName: "朋友\(index)", authorizedApp: index != 2)
            run.fake.addFollow("1750000001", follows: uid)
        }
        run.fake.addFollow("1760000001", follows: "1750000001")
        run.fake.addTopic("读书", count: 12, for: "1750000001")
        let mine = run.fake.addPosts(6, by: "1750000001", text: "我的")

        var result = try await run(["user", "@小明", "--posts", "--count", "4", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(mine.suffix(4).reversed()))
        result = try await run(["user", "1750000001", "--posts", "--older", "--json"])
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(mine.prefix(2).reversed()))
        result = try await run(["user", "1750000003", "--posts"])
        #expect(result.status == 1 && result.standardError.contains("not permitted") && result.standardError.contains("21335"))

        result = try await run(["user", "1750000001", "--topics"])
        #expect(result.standardOutput.contains("#读书#  12 posts"))
        result = try await run(["user", "1750000001", "--follows"])
        #expect(result.standardOutput.contains("4 shown of 8; more: --cursor 5"), "five looked at, one of them hidden from the app")
        result = try await run(["user", "1750000001", "--follows", "--cursor", "5", "--json"])
        let next = try #require(try Self.json(result.standardOutput) as? [String: Any])
        #expect((next["users"] as? [[String: Any]])?.count == 3 && next["nextCursor"] as? Int == 0 && next["totalCount"] as? Int == 8)
        result = try await run(["user", "@小明", "--fans"])
        #expect(result.standardOutput.contains("朋友1") && result.standardOutput.contains("the end"))

        #expect(try await run(["follow", "@新浪新闻"]).status == 0)
        #expect(run.fake.following(of: "1750000001").contains("1750000003"))
        result = try await run(["unfollow", "@新浪新闻"])
        #expect(result.status == 0 && result.standardOutput.contains("no longer following 新浪新闻 (1750000003)"))
        result = try await run(["user", "1750000001", "--topics", "--fans"])
        #expect(result.status == 1 && result.standardError.contains("one of"))
    }

    @Test("the gap row says how to fill it, and --fill loads exactly what was missing until the gap closes")
    func fillGaps() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let before = run.fake.addPosts(5)
        #expect(try await run(["timeline", "--count", "5"]).status == 0)
        var missed: [String] = []
        for round in 0..<12 {
            run.fake.addPosts(1, by: "1750000004", text: "hidden \(round)")
            missed += run.fake.addPosts(1, text: "missed \(round)")
        }
        var result = try await run(["timeline", "--count", "5", "--top", "--json"])
        let rows = try #require(try Self.json(result.standardOutput) as? [[String: Any]])
        let gap = try #require(rows.compactMap { $0["gap"] as? [String: String] }.first, "a short page must leave a gap")
        #expect(gap["olderThan"] == before.last)
        result = try await run(["timeline", "--count", "5", "--top"])
        let fill = try #require(gap["newerThan"])
        #expect(result.standardOutput.contains("⋯ more posts here: weibo-client timeline --fill \(fill)"))
        var filled: [String] = []
        var next: String? = fill
        var rounds = 0
        while let above = next, rounds < 10 {
            result = try await run(["timeline", "--count", "5", "--fill", above, "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            let loaded = try #require(try Self.json(result.standardOutput) as? [[String: Any]])
            filled += loaded.compactMap { $0["id"] as? String }
            next = loaded.compactMap { $0["gap"] as? [String: String] }.first?["newerThan"]
            rounds += 1
        }
        #expect(next == nil, "the gap closed")
        let expected = Array(missed.dropLast(3).reversed())
        #expect(filled == expected, "every missing post, newest first, none twice")
        result = try await run(["timeline", "--fill", fill])
        #expect(result.status == 1 && result.standardError.contains("no gap below post \(fill)"))
    }

    @Test("with no route to Weibo the timeline answers from the cache at once, without a request, and says how old it is")
    func noRoute() async throws {
        try #require(geteuid() == 0, "a network namespace needs root")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "util-linux's unshare is needed")
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        run.fake.addPosts(4)
        #expect(try await run(["timeline"]).status == 0)
        let sent = run.fake.requests.count
        // A new network namespace: even the loopback is down, so 127.0.0.1 has no route.
        let client = ExampleProcess.executable("weibo-client").path
        let result = try await ExampleProcess.run(
            "/usr/bin/unshare",
            ["--net", client, "--api-base", run.fake.base.absoluteString, "--store", run.store, "timeline", "--count", "2"],
            environment: WeiboClientCommandTests.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("offline: cannot reach Weibo: no route to 127.0.0.1; showing 4 cached posts from"))
        #expect(result.standardOutput.components(separatedBy: "post ").count == 3, "two posts shown")
        #expect(run.fake.requests.count == sent, "nothing was sent")
    }

    @Test("the sign-in prompt reaches a program driving the client through a pipe before the client waits for the code")
    func promptThroughAPipe() async throws {
        let run = try Run()
        let process = Process()
        process.executableURL = ExampleProcess.executable("weibo-client")
        process.arguments = ["--api-base", run.fake.base.absoluteString, "--store", run.store, "login"]
        process.environment = ExampleProcess.sanitizerEnvironment.merging(WeiboClientCommandTests.environment) { _, own in own }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        let seen = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = (try? bytes(availableFrom: handle)) ?? []
            seen.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        // Standard input stays open: the client is waiting, and the URL must already be out.
        try await waitUntil("the authorize URL") { seen.withLock { $0.contains("/oauth2/authorize?") } }
        try input.fileHandleForWriting.write(contentsOf: Data((run.fake.issueCode(for: "1750000001") + "\n").utf8))
        try input.fileHandleForWriting.close()
        try await offPool { process.waitUntilExit() }
        output.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 0)
        try await waitUntil("the sign-in line") { seen.withLock { $0.contains("signed in as 小明") } }
    }

    @Test("the posting limit holds across runs: the store's request log already holds 30 posts this hour, so the 31st is refused before sending")
    func postingLimitAcrossRuns() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let now = Date().timeIntervalSince1970
        let times = (0..<30).map { now - 600 + Double($0) }
        let log = ["weibo/timeline@1750000001": ["times": times]]
        try JSONSerialization.data(withJSONObject: log).write(to: URL(fileURLWithPath: run.store + "/requests.json"))
        let result = try await run(["post", "one more"])
        // The oldest of the 30 was 10 minutes ago: about 50 minutes to wait.
        let wait = result.standardError.split(separator: " ").dropFirst(6).first.flatMap { Int($0) }
        #expect(result.status == 1 && result.standardError.hasPrefix("error: rate limited; try again in "), "\(result.standardError)")
        #expect((2_900...3_000).contains(wait ?? 0), "\(result.standardError)")
        #expect(run.fake.requests(to: "/2/statuses/share.json").isEmpty)
    }
}
