import FakeWeibo
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// weibo-client's mentions, comment lists, favourites, unread counts,
/// filters and reading position, against the fake.
@Suite("weibo-client: what is addressed to me")
struct WeiboClientForMeTests {
    typealias Run = WeiboClientCommandTests.Run

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try WeiboClientCommandTests.json(text) as? [[String: Any]])
    }

    @Test("mentions, comments --to-me/--by-me/--mentions, favourites, fav and unfav, unread; --json for each")
    func lists() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let mentions = run.fake.addPosts(3, by: "1750000002", text: "嗨 @小明")
        let mine = run.fake.addPosts(1, by: "1750000001", text: "我的微博")[0]
        let toMe = try #require(run.fake.addComment(on: mine, by: "1750000002", text: "好看\u{1B}[31m"))
        let mentioning = try #require(run.fake.addComment(on: mentions[0], by: "1750000003", text: "@小明 你看"))
        var result = try await run(["unread", "--json", "--remind-base", run.fake.remindBase.absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
        let counts = try #require(try WeiboClientCommandTests.json(result.standardOutput) as? [String: Int])
        #expect(counts["mentionPosts"] == 3 && counts["comments"] == 1 && counts["mentionComments"] == 1)
        result = try await run(["mentions", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == mentions.reversed())
        result = try await run(["comments", "--to-me"])
        #expect(result.status == 0 && result.standardOutput.contains("\(toMe)  @Alice: 好看"))
        #expect(!result.standardOutput.contains("\u{1B}"), "a comment's escape sequence is not printed")
        #expect(result.standardOutput.contains("on \(mine) @小明: 我的微博"))
        result = try await run(["comments", "--mentions", "--json"])
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == [mentioning])
        result = try await run(["comments", "--by-me", "--json"])
        #expect(try Self.json(result.standardOutput).isEmpty)
        // Read: the counts reset.
        result = try await run(["unread", "--remind-base", run.fake.remindBase.absoluteString])
        #expect(result.standardOutput.contains("mentions 0 · comments 0"))
        // Favourites.
        #expect(try await run(["fav", mentions[1]]).standardOutput.contains("kept \(mentions[1])"))
        #expect(try await run(["fav", mine]).status == 0)
        result = try await run(["fav", mine])
        #expect(result.status == 1 && result.standardError.contains("20704"))
        result = try await run(["favourites", "--json"])
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == [mine, mentions[1]])
        #expect(try await run(["unfav", mine]).standardOutput.contains("dropped \(mine)"))
        result = try await run(["favourites", "--json"])
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == [mentions[1]])
        // Offline, from the cache.
        run.fake.stop()
        result = try await run(["mentions", "--offline", "--json"])
        #expect(result.status == 0 && result.standardError.contains("showing 3 cached posts"))
        #expect(try await run(["comments", "--to-me", "--offline"]).standardOutput.contains(toMe))
        // Arguments that do not go together.
        #expect(try await run(["comments", "1", "--to-me"]).status != 0)
        #expect(try await run(["mentions", "--whole-word"]).status != 0)
        #expect(try await run(["favourites", "--fill", "1"]).status != 0)
    }

    @Test(
        "a planted filters.json (100,000 muted words, one of 10 MB): timeline --count 100 filters in one pass a post, the words past the caps named once"
    )
    func plantedFilters() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let posts = run.fake.addPosts(100, by: "1750000002", text: "平常的一天")
        let hit = run.fake.addPosts(1, by: "1750000002", text: "关于 word99999 的消息")[0]
        var words: [[String: Any]] = (0..<100_000).map { ["text": "word\($0)", "wholeWord": $0 % 2 == 0] }
        words.append(["text": String(repeating: "剧", count: 10 << 20 / 3), "wholeWord": false])
        let filters: [String: Any] = ["mutedWords": words, "mutedUsers": [String](), "mutedReposters": [String](), "mutesAllReposts": false]
        let file = try JSONSerialization.data(withJSONObject: ["accounts": ["1750000001": filters]])
        try FileManager.default.createDirectory(atPath: run.store, withIntermediateDirectories: true)
        let path = run.store + "/filters.json"
        try file.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        // Before: 99.7 s (each word folded again for every post and searched alone); the watchdog stops far short of that.
        let result = try await run(["timeline", "--count", "100", "--json"], watchdog: .seconds(45))
        #expect(!result.timedOut && result.status == 0, "\(result.standardError)")
        let rows = try Self.json(result.standardOutput)
        #expect(rows.compactMap { $0["filtered"] as? [String: String] }.map { $0["id"] } == [hit])
        #expect(rows.compactMap { $0["id"] as? String }.count == 99, "the other posts show: \(posts.count) added, the page holds 100")
        #expect(result.standardError.components(separatedBy: "muted words in").count == 2, "the note once: \(result.standardError)")
        #expect(result.standardError.contains("note: 1 muted words"))
    }

    @Test("mute and unmute: words (Chinese and whole words), people, reposts; filtered posts leave a line, in every list")
    func filters() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let spoiler = run.fake.addPosts(1, by: "1750000002", text: "今天剧透了结局")[0]
        let cat = run.fake.addPosts(1, by: "1750000002", text: "concatenate strings")[0]
        let plain = run.fake.addPosts(1, by: "1750000003", text: "新闻")[0]
        let repost = try #require(run.fake.addRepost(of: plain, by: "1750000002"))
        let mention = run.fake.addPosts(1, by: "1750000003", text: "@小明 剧透预警")[0]
        #expect(try await run(["mute", "剧透"]).standardOutput.contains("word 剧透"))
        #expect(try await run(["mute", "cat", "--whole-word"]).standardOutput.contains("word cat (whole word)"))
        #expect(try await run(["mute", "--reposts", "1750000002"]).standardOutput.contains("reposts by 1750000002"))
        var result = try await run(["timeline", "--json"])
        let rows = try Self.json(result.standardOutput)
        let filtered = rows.compactMap { $0["filtered"] as? [String: String] }
        #expect(Set(filtered.map { $0["id"] ?? "" }) == [spoiler, repost, mention], "the mention is in the home timeline too")
        #expect(filtered.first { $0["id"] == spoiler }?["reason"] == "filtered: word “剧透”")
        #expect(rows.compactMap { $0["id"] as? String }.contains(cat), "whole word: not inside concatenate")
        result = try await run(["timeline", "--top"])
        #expect(result.standardOutput.contains("⊘ \(spoiler)  filtered: word “剧透”"))
        #expect(!result.standardOutput.contains("今天剧透了结局"))
        result = try await run(["mentions", "--json"])
        #expect(try Self.json(result.standardOutput).compactMap { $0["filtered"] as? [String: String] }.map { $0["id"] } == [mention])
        #expect(try await run(["mute", "--user", "@新浪新闻"]).standardOutput.contains("user 1750000003"))
        result = try await run(["mute", "--json"])
        let listed = try #require(try WeiboClientCommandTests.json(result.standardOutput) as? [String: Any])
        #expect((listed["users"] as? [String]) == ["1750000003"] && (listed["reposters"] as? [String]) == ["1750000002"])
        #expect(try await run(["unmute", "剧透"]).status == 0)
        #expect(try await run(["unmute", "--user", "1750000003"]).status == 0)
        #expect(try await run(["unmute", "--reposts", "1750000002"]).status == 0)
        result = try await run(["timeline", "--top", "--json"])
        #expect(try Self.json(result.standardOutput).allSatisfy { $0["filtered"] == nil })
        #expect(try await run(["unmute"]).status != 0)
    }

    @Test("the timeline starts where reading stopped, under an \"N newer posts\" line; --top from the newest; read saves a position")
    func readingPosition() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let first = run.fake.addPosts(5)
        var result = try await run(["timeline", "--count", "3", "--json"])
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == first.suffix(3).reversed())
        let newer = run.fake.addPosts(4)
        result = try await run(["timeline", "--count", "5"])
        #expect(result.standardOutput.hasPrefix("4 newer posts above (weibo-client timeline --top)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(first[4]) && !result.standardOutput.contains(newer[3]))
        result = try await run(["timeline", "--count", "3", "--top", "--json"])
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == newer.suffix(3).reversed())
        #expect(try await run(["read", first[3], "--offset", "12"]).standardOutput.contains("from post \(first[3])"))
        result = try await run(["timeline", "--count", "2", "--json"])
        #expect(result.standardError.contains("5 newer posts above"), "\(result.standardError)")
        #expect(try Self.json(result.standardOutput).map { $0["id"] as? String } == [first[3], first[2]])
        #expect(try await run(["read", "12ab"]).status != 0)
    }
}

/// `weibo-client watch` as a long-running process, killed and started again.
@Suite("weibo-client watch, killed and restarted", .serialized)
struct WeiboClientWatchTests {
    /// A running `watch`, its output collected as it comes.
    final class Watcher: Sendable {
        let process: Process
        let output = WeiboClientCommandTests.OutputLog()

        init(_ run: WeiboClientCommandTests.Run) throws {
            process = Process()
            process.executableURL = ExampleProcess.executable("weibo-client")
            process.arguments = [
                "--api-base", run.fake.base.absoluteString, "--remind-base", run.fake.remindBase.absoluteString, "--store", run.store, "watch",
                "--interval", "1", "--no-notify", "--json",
            ]
            process.environment = ExampleProcess.sanitizerEnvironment.merging(WeiboClientCommandTests.environment) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            let output = self.output
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = (try? bytes(availableFrom: handle)) ?? []
                // At the end of the output the handler would be called again and again with nothing,
                // spinning a dispatch thread (one the cooperative pool shares): stop it there.
                guard !data.isEmpty else {
                    handle.readabilityHandler = nil
                    return
                }
                output.append(String(decoding: data, as: UTF8.self))
            }
            try process.run()
        }

        /// Kills it (SIGKILL: no chance to tidy up), without waiting: for a `defer`.
        func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }

        /// Kills it and waits until it is gone, on a thread of its own.
        func stop() async throws {
            let process = self.process
            try await offPool {
                Glibc.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// The ids of the posts and comments it printed.
        var printedIDs: [String] {
            output.all.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return ((object["post"] ?? object["comment"]) as? [String: Any])?["id"] as? String
            }
        }
    }

    @Test("watch marks that cannot be read are moved aside with a warning; watching starts fresh, and the next run reads the new marks")
    func damagedWatchMarks() async throws {
        let run = try WeiboClientCommandTests.Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        _ = run.fake.addPosts(1, by: "1750000002", text: "旧的 @小明")
        let marks = run.store + "/watch.json"
        try Data("{\"accounts\": [garbage \u{1B}[31m".utf8).write(to: URL(fileURLWithPath: marks))
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        var result = try await run(["watch", "--once", "--no-notify"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning: the watch marks at") && result.standardError.contains("moved aside to"))
        #expect(!result.standardError.contains("\u{1B}"), "the damaged file's text is written out, never sent to the terminal")
        let aside = try FileManager.default.contentsOfDirectory(atPath: run.store).filter { $0.hasPrefix("watch.json.unreadable-") }
        #expect(aside.count == 1, "the damaged marks are kept for a person to look at")
        #expect(result.standardOutput.contains("(1 mentions already there)"), "a fresh start: what was there is counted, not printed")
        result = try await run(["watch", "--once", "--no-notify"], environment: environment)
        #expect(result.status == 0 && !result.standardError.contains("warning"), "the marks written on the first run read: \(result.standardError)")
    }

    @Test("a timeline post whose thumbnail is not http(s) is shown without it, the page saying once which field was left out")
    func postWithBadPicture() async throws {
        let run = try WeiboClientCommandTests.Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let post =
            #"{"idstr":"%@","text":"%T","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"1750000002","screen_name":"Alice"},"pic_urls":[{"thumbnail_pic":"%P"}]}"#
        func status(_ id: String, _ text: String, _ picture: String) -> String {
            post.replacingOccurrences(of: "%@", with: id).replacingOccurrences(of: "%T", with: text).replacingOccurrences(of: "%P", with: picture)
        }
        let body =
            "{\"statuses\":[\(status("30", "好的", "https://wx1.sinaimg.cn/thumbnail/a.jpg")),\(status("20", "本地文件", "file:///etc/passwd")),\(status("10", "数据", "data:image/png;base64,AAAA"))],\"next_cursor\":0}"
        run.fake.answerNext("/2/statuses/home_timeline.json", with: body)
        let result = try await run(["timeline", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try WeiboClientForMeTests.json(result.standardOutput)
        #expect(rows.compactMap { $0["id"] as? String } == ["30", "20", "10"], "no post is lost")
        #expect(!result.standardError.contains("could not be read and were skipped"))
        #expect(result.standardError.components(separatedBy: "note: 2 fields of these posts").count == 2, "said once: \(result.standardError)")
        #expect(!result.standardOutput.contains("file:") && !result.standardOutput.contains("data:"))
        // The cache kept all three: offline, they are still there.
        let offline = try await run(["timeline", "--offline", "--json"])
        #expect(try WeiboClientForMeTests.json(offline.standardOutput).compactMap { $0["id"] as? String } == ["30", "20", "10"])
    }

    @Test("each new mention and comment is printed once as it comes, and never again after a SIGKILL and a restart")
    func printsOnce() async throws {
        let run = try WeiboClientCommandTests.Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let mine = run.fake.addPosts(1, by: "1750000001", text: "我的")[0]
        _ = run.fake.addPosts(1, by: "1750000002", text: "旧的 @小明")
        var watcher = try Watcher(run)
        defer { watcher.kill() }
        let polls = { run.fake.remindHTTP.requests.count }
        try await waitUntil("the first poll", timeout: .seconds(60)) { polls() >= 1 }
        #expect(watcher.printedIDs.isEmpty, "what was there before the first watch is not news")
        let first = run.fake.addPosts(1, by: "1750000002", text: "新的 @小明")[0]
        let comment = try #require(run.fake.addComment(on: mine, by: "1750000003", text: "评论"))
        try await waitUntil("the new mention and comment", timeout: .seconds(60)) { Set(watcher.printedIDs).isSuperset(of: [first, comment]) }
        #expect(watcher.printedIDs.sorted() == [comment, first].sorted())
        try await watcher.stop()
        watcher = try Watcher(run)
        let before = polls()
        try await waitUntil("two polls after the restart", timeout: .seconds(60)) { polls() >= before + 2 }
        #expect(watcher.printedIDs.isEmpty, "nothing printed twice after the restart: \(watcher.printedIDs)")
        let second = run.fake.addPosts(1, by: "1750000003", text: "再来 @小明")[0]
        try await waitUntil("the next mention", timeout: .seconds(60)) { watcher.printedIDs.contains(second) }
        #expect(watcher.printedIDs == [second])
    }
}
