import FakeWeibo
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// weibo-client's drafts, sent now and on schedule, against the fake.
@Suite("weibo-client drafts and scheduled posts", .serialized)
struct WeiboClientDraftsTests {
    typealias Run = WeiboClientCommandTests.Run

    static func draftID(_ result: ExampleProcess.Result) throws -> String {
        try #require(result.standardOutput.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    @Test("drafts new, edit, list, send, delete; a comment draft; --json")
    func drafts() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let target = run.fake.addPosts(1, by: "1750000003", text: "原帖")[0]
        let post = try Self.draftID(try await run(["drafts", "new", "草稿一"]))
        let reply = try Self.draftID(try await run(["drafts", "new", "回复", "--comment-on", target]))
        #expect(try await run(["drafts", "edit", String(post.prefix(8)), "草稿一，改过"]).status == 0)
        var result = try await run(["drafts", "--json"])
        let listed = try #require(try WeiboClientCommandTests.json(result.standardOutput) as? [[String: Any]])
        #expect(Set(listed.compactMap { $0["id"] as? String }) == [post, reply])
        #expect(listed.first { $0["id"] as? String == reply }?["target"] as? String == "comment on \(target)")
        result = try await run(["drafts", "send", post])
        #expect(result.status == 0 && result.standardOutput.hasPrefix("posted "), "\(result.standardOutput) \(result.standardError)")
        #expect(run.fake.posts.contains { $0.text.hasPrefix("草稿一，改过") })
        result = try await run(["drafts", "send", reply])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(run.fake.comments.map(\.text) == ["回复"])
        #expect(try await run(["drafts"]).standardOutput.contains("no drafts"))
        let doomed = try Self.draftID(try await run(["drafts", "new", "不要了"]))
        #expect(try await run(["drafts", "delete", doomed]).status == 0)
        #expect(try await run(["drafts", "send", doomed]).status != 0)
        #expect(try await run(["drafts", "schedule", "abc", "tomorrow"]).status != 0)
    }

    @Test("a scheduled post goes out at its time, once, with two processes watching; drafts shows it with its time until then")
    func scheduledByTwoProcesses() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let id = try Self.draftID(try await run(["drafts", "new", "定时的微博"]))
        // Two watchers, as two terminals would run them.
        var watchers: [Process] = []
        // SIGKILL at the end, not waited for here: waiting blocks a thread, and Foundation reaps the child.
        defer { for watcher in watchers { kill(watcher.processIdentifier, SIGKILL) } }
        for _ in 0..<2 {
            let watcher = Process()
            watcher.executableURL = ExampleProcess.executable("weibo-client")
            watcher.arguments = ["--api-base", run.fake.base.absoluteString, "--store", run.store, "watch", "--no-notify"]
            watcher.environment = ExampleProcess.sanitizerEnvironment.merging(WeiboClientCommandTests.environment) { $1 }
            watcher.standardOutput = FileHandle.nullDevice
            watcher.standardError = FileHandle.nullDevice
            try watcher.run()
            watchers.append(watcher)
        }
        try await waitUntil("both watchers to read the mentions", timeout: .seconds(60)) {
            run.fake.requests(to: "/2/statuses/mentions.json").count >= 2
        }
        // Listed while queued: a day ahead, so a loaded machine cannot reach the time before the listing.
        let tomorrow = Date().addingTimeInterval(86_400).formatted(Date.ISO8601FormatStyle())
        #expect(try await run(["drafts", "schedule", id, tomorrow]).status == 0)
        let listed = try await run(["drafts"]).standardOutput
        #expect(listed.contains("queued") && listed.contains("at "), "\(listed)")
        #expect(try await run(["drafts", "unschedule", id]).status == 0)
        let due = Date().addingTimeInterval(5)
        let formatted = due.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let scheduled = try await run(["drafts", "schedule", id, formatted])
        let queuedAt = Date()
        #expect(scheduled.status == 0, "\(formatted): \(scheduled.standardError)")
        try await waitUntil("the scheduled post", timeout: .seconds(60)) { run.fake.posts.contains { $0.text.hasPrefix("定时的微博") } }
        // When Weibo received it, against its time (or, on a machine so loaded that queuing it took longer, when it was queued).
        let received = try #require(run.fake.posts.first { $0.text.hasPrefix("定时的微博") }?.receivedAt)
        #expect(received >= due, "posted \(due.timeIntervalSince(received)) s early")
        let late = received.timeIntervalSince(max(due, queuedAt))
        print("scheduled post received \(String(format: "%.3f", late)) s after its time")
        #expect(late < 1, "posted \(late) s after its time")
        // Both watchers reconcile: the draft goes, and nothing is posted twice.
        try await waitUntil("the draft to leave the store", timeout: .seconds(60)) {
            try await run(["drafts"]).standardOutput.contains("no drafts")
        }
        #expect(run.fake.requests(to: "/2/statuses/share.json").count == 1)
    }
}
