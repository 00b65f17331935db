import FakeWeibo
import Foundation
import Synchronization
import Testing

/// Runs the built `weibo-client` against a fake Weibo on loopback.
@Suite("weibo-client example end to end")
struct WeiboClientCommandTests {
    static let environment = [
        "PHOTODECK_WEIBO_APP_KEY": FakeWeiboServer.appKey, "PHOTODECK_WEIBO_APP_SECRET": FakeWeiboServer.appSecret,
        "PHOTODECK_WEIBO_REDIRECT_URI": FakeWeiboServer.redirectURI,
    ]

    final class Run: Sendable {
        let fake: FakeWeiboServer
        let store: String
        let output = OutputLog()

        init() throws {
            fake = try FakeWeiboServer()
            store = FileManager.default.temporaryDirectory.appending(path: "weibo-client-\(UUID())").path
        }

        deinit { try? FileManager.default.removeItem(atPath: store) }

        func callAsFunction(
            _ arguments: [String], store: String? = nil, input: String = "", environment: [String: String] = [:], watchdog: Duration? = nil
        ) async throws -> ExampleProcess.Result {
            let result = try await ExampleProcess.run(
                "weibo-client", ["--api-base", fake.base.absoluteString, "--store", store ?? self.store] + arguments,
                environment: WeiboClientCommandTests.environment.merging(environment) { _, own in own }, input: input, watchdog: watchdog)
            output.append(result.standardOutput + result.standardError)
            return result
        }
    }

    final class OutputLog: Sendable {
        private let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var all: String { text.withLock { $0 } }
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("sign in two accounts, switch, read, comment, repost, look people up, post, go offline, sign out")
    func endToEnd() async throws {
        let run = try Run()
        // Login reading the code from standard input, then with --code.
        var result = try await run(["login"], input: run.fake.issueCode(for: "1750000001") + "\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("/oauth2/authorize?") && result.standardOutput.contains("forcelogin=true"))
        #expect(result.standardOutput.contains("signed in as 小明 (1750000001)"))
        result = try await run(["login", "--code", run.fake.issueCode(for: "1750000002")])
        #expect(result.status == 0 && result.standardOutput.contains("Alice"))
        result = try await run(["accounts", "--json"])
        let accounts = try #require(try Self.json(result.standardOutput) as? [[String: Any]])
        #expect(accounts.map { $0["uid"] as? String } == ["1750000001", "1750000002"])
        #expect(accounts.map { $0["current"] as? Bool } == [false, true])
        #expect(accounts.allSatisfy { ($0["expiresAt"] as? String)?.hasSuffix("Z") == true && $0["screenName"] is String })
        #expect(try await run(["use", "1750000001"]).status == 0)
        #expect(try await run(["accounts"]).standardOutput.contains("* 1750000001  小明"))

        // Timeline: newest, then older, in the JSON shape.
        let ids = run.fake.addPosts(12)
        let original = run.fake.addPosts(1, by: "1750000002", text: "原文")[0]
        result = try await run(["timeline", "--count", "5", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let newest = try #require(try Self.json(result.standardOutput) as? [[String: Any]])
        #expect(newest.map { $0["id"] as? String } == [original] + ids.suffix(4).reversed())
        let first = newest[0]
        #expect(Set(first.keys) == ["id", "text", "createdAt", "user", "repostsCount", "commentsCount", "pictures", "repost"])
        #expect((first["user"] as? [String: Any])?["screenName"] as? String == "Alice" && first["repost"] is NSNull)
        result = try await run(["timeline", "--count", "5", "--older", "--json"])
        let older = try #require(try Self.json(result.standardOutput) as? [[String: Any]])
        #expect(result.status == 0)
        #expect(!older.isEmpty)
        #expect(older.compactMap { Int64($0["id"] as? String ?? "") }.allSatisfy { $0 < Int64(ids[0])! + 1_000 })

        // Comments, repost, people.
        #expect(try await run(["comment", original, "好看"]).status == 0)
        run.fake.loseNextAnswer(to: "/2/comments/create.json")
        result = try await run(["comment", original, "maybe"])
        #expect(result.status == 3 && result.standardOutput.contains("outcome unknown"))
        #expect(run.fake.requests(to: "/2/comments/create.json").count == 2, "sent once each")
        result = try await run(["comments", original, "--json"])
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.count == 2)
        result = try await run(["repost", original, "转发一下"])
        #expect(result.status == 0 && result.standardOutput.contains("reposted as"))
        result = try await run(["user", "新浪新闻", "--json"])
        let user = try #require(try Self.json(result.standardOutput) as? [String: Any])
        #expect(Set(user.keys) == ["id", "screenName", "followersCount", "friendsCount", "statusesCount", "following"])
        #expect(user["id"] as? String == "1750000003" && user["following"] as? Bool == false)
        #expect(try await run(["follow", "1750000003"]).status == 0)
        #expect(run.fake.following(of: "1750000001") == ["1750000003"])
        #expect(try await run(["unfollow", "1750000003"]).status == 0)
        result = try await run(["search", "新浪"])
        #expect(result.status == 1 && result.standardError.hasPrefix("error: ") && result.standardError.contains("not permitted"))
        run.fake.permit("search/suggestions/users")
        result = try await run(["search", "新浪", "--json"])
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.first?["screenName"] as? String == "新浪新闻")

        // A post with a picture goes through ShareKit's adaptation.
        let photo = ExampleProcess.packageRoot.appending(path: "Examples/Samples/waterfall.jpg").path
        result = try await run(["post", "瀑布", photo])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(run.fake.posts.first?.text == "瀑布 https://photodeck.example/s" && run.fake.posts.first?.pictures.count == 1)

        // A second store signed in but never read, for the empty-cache case.
        let empty = run.store + "-empty"
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000002")], store: empty).status == 0)

        // Offline: the cache, and a line on standard error.
        run.fake.stop()
        result = try await run(["timeline", "--count", "3", "--top"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("offline") && result.standardError.contains("cached posts from"))
        #expect(result.standardOutput.contains("原文"))
        result = try await run(["timeline", "--offline", "--json"])
        #expect(result.status == 0)
        #expect((try Self.json(result.standardOutput) as? [Any])?.isEmpty == false)
        result = try await run(["timeline"], store: empty)
        #expect(result.status == 1 && result.standardError.hasPrefix("error: ") && result.standardError.contains("nothing is cached"))

        // Files are the user's alone; no token was ever printed.
        for file in ["accounts.json", "credentials.json", "timeline.sqlite", "requests.json"] {
            let mode = try FileManager.default.attributesOfItem(atPath: run.store + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        #expect(!run.output.all.contains("2.00175"), "a token was printed")
    }

    @Test("sign-out revokes the token first; an expired account is refused without a request and says to sign in")
    func signOutAndExpiry() async throws {
        let run = try Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000002")]).status == 0)
        run.fake.addPosts(3)
        run.fake.expireTokens(of: "1750000002")
        var result = try await run(["timeline"])
        #expect(result.status == 1 && result.standardError.contains("sign in again"))
        let sent = run.fake.requests.count
        result = try await run(["comment", "4900000000000010", "hi"])
        #expect(result.status == 1 && run.fake.requests.count == sent, "no request with a dead token")
        #expect(try await run(["accounts"]).standardOutput.contains("(needs sign-in)"))
        let token = try #require(run.fake.tokens(of: "1750000001").first)
        result = try await run(["logout", "1750000001"])
        #expect(result.status == 0 && run.fake.isRevoked(token))
        result = try await run(["accounts", "--json"])
        #expect((try Self.json(result.standardOutput) as? [[String: Any]])?.map { $0["uid"] as? String } == ["1750000002"])
        result = try await run(["bogus"])
        #expect(result.status == 1 && result.standardError.contains("unknown command"))
        result = try await run(["--help"])
        #expect(result.status == 0 && result.standardOutput.contains("usage: weibo-client"))
    }
}
