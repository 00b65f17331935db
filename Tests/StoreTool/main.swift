// store-tool: one process's worth of a store, for the tests that run two
// processes on one file (credential files, account indexes, an outbox, a
// fresh SQLite database). Not a product.
//
//   store-tool credentials FILE PREFIX COUNT    saves COUNT credentials
//   store-tool accounts DIR PREFIX COUNT        signs in COUNT accounts
//   store-tool outbox FILE LOG                  processes the outbox once; each post appends "pid text" to LOG
//   store-tool sqlite FILE                      opens and migrates a database, prints its version
//   store-tool positions FILE SEED              saves random reading positions of account "a" without end,
//                                               printing "saving ID OFFSET" before each and "saved ID OFFSET" after
//   store-tool position FILE                    prints the saved position ("ID OFFSET exact|moved|none")
//   store-tool typing FILE                      types into account "a"'s draft without end, a character at a
//                                               time, printing "saving N" before each save and "saved N" after
//   store-tool draft FILE                       prints the length of account "a"'s draft text ("none" without one)
//   store-tool hold FILE...                     takes each database's write lock, prints "held",
//                                               and keeps the locks until standard input ends

import Foundation
import SQLiteSupport
import ShareKit
import SystemSupport
import WeiboKit

#if canImport(Glibc)
    import Glibc
#endif

/// A provider whose posts are lines appended to a file, and which, on its
/// first post, waits until both processes of the test are posting (files
/// `LOG.posting-PID`), so that the two are in flight at the same time.
final class AppendingProvider: ShareProvider {
    let id: ProviderID = "chat"
    let displayName = "Chat"
    let destinations: [ShareDestination] = [.timeline]
    let requiresCredential = false
    let log: String

    init(log: String) { self.log = log }

    func constraints(for destination: ShareDestination) -> ShareConstraints? {
        ShareConstraints(text: .init(maxLength: 2_000), images: .init(maxCount: 9, maxBytes: 10_000_000))
    }

    func availability(credential: Credential?) async -> ProviderAvailability {
        ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true)
    }

    func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        let marker = "\(log).posting-\(getpid())"
        if !FileManager.default.fileExists(atPath: marker) {
            _ = FileManager.default.createFile(atPath: marker, contents: nil)
            let folder = (log as NSString).deletingLastPathComponent
            let prefix = (log as NSString).lastPathComponent + ".posting-"
            let deadline = ContinuousClock.now + .seconds(60)
            while ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter({ $0.hasPrefix(prefix) }).count < 2,
                ContinuousClock.now < deadline
            {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        let line = Array("\(getpid()) \(content.text ?? "")\n".utf8)
        let descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        defer { close(descriptor) }
        try? DurableFile.writeAll(line, to: descriptor, path: log)
        return .posted(ShareReceipt(postID: "\(getpid())"))
    }
}

struct NoNetworkChanges: NetworkMonitor {
    func currentPath() async -> NetworkPath { .wifi }
    func pathUpdates() -> AsyncStream<NetworkPath> { AsyncStream { $0.yield(.wifi) } }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "credentials" where arguments.count == 4:
        let store = FileCredentialStore(path: arguments[1])
        for index in 0..<(Int(arguments[3]) ?? 0) {
            try await store.save(Credential(provider: "weibo", account: "\(arguments[2])-\(index)", accessToken: "token-\(arguments[2])-\(index)"))
        }
    case "accounts" where arguments.count == 4:
        let credentials = FileCredentialStore(path: arguments[1] + "/credentials.json")
        let accounts = try await WeiboAccountStore.open(credentials: credentials, indexPath: arguments[1] + "/accounts.json")
        for index in 0..<(Int(arguments[3]) ?? 0) {
            let uid = "\(arguments[2])\(index)"
            try await accounts.add(Credential(provider: "weibo", account: uid, accessToken: "token-\(uid)"), screenName: "user \(uid)")
        }
    case "outbox" where arguments.count == 3:
        let center = ShareCenter()
        await center.register(AppendingProvider(log: arguments[2]))
        let outbox = try await Outbox.open(path: arguments[1], center: center, network: NoNetworkChanges())
        _ = await outbox.process()
    case "enqueue" where arguments.count >= 3:
        let outbox = try await Outbox.open(path: arguments[1], center: ShareCenter(), network: NoNetworkChanges())
        for text in arguments.dropFirst(2) {
            try await outbox.enqueue(ShareContent(text: text), to: ShareTarget(provider: "chat", destination: .timeline, displayName: "Chat"))
        }
    case "sqlite" where arguments.count == 2:
        let database = try SQLiteDatabase(path: arguments[1])
        let migrations = [
            "CREATE TABLE a (x INTEGER);",
            "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1);",
            "CREATE TABLE c (z INTEGER);",
        ]
        try database.migrate(migrations)
        print(try database.userVersion)
    case "positions" where arguments.count == 3:
        let cache = try await WeiboTimelineCache.open(path: arguments[1])
        let ids = (0..<50).map { String(1_000 + 10 * $0) }
        if try await cache.newestID(account: "a") == nil {
            let posts = ids.reversed().map { WeiboPost(id: $0, text: "post \($0)", createdAt: Date(timeIntervalSince1970: 0), user: nil) }
            try await cache.merge(WeiboTimelinePage(posts: posts), fetchedWith: .latest, account: "a")
        }
        // splitmix64, seeded: the same scrolling for the same seed.
        var state = UInt64(arguments[2]) ?? 0
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        for _ in 0..<1_000_000 {
            let position = WeiboReadingPosition(postID: ids[Int(next() % UInt64(ids.count))], offset: Double(next() % 500))
            say("saving \(position.postID) \(Int(position.offset))")
            try await cache.saveReadingPosition(position, account: "a")
            say("saved \(position.postID) \(Int(position.offset))")
        }
    case "position" where arguments.count == 2:
        let cache = try await WeiboTimelineCache.open(path: arguments[1])
        guard let saved = try await cache.readingPosition(account: "a") else {
            print("none")
            break
        }
        let restored = try await cache.timeline(account: "a").restoring(saved)
        print("\(saved.postID) \(Int(saved.offset)) \(restored?.isExact == true ? "exact" : "moved")")
    case "typing" where arguments.count == 2:
        let drafts = try await WeiboDraftStore.open(path: arguments[1])
        var existing = try await drafts.drafts(account: "a").first
        if existing == nil { existing = try await drafts.create(account: "a") }
        guard let draft = existing else { break }
        var text = draft.text
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        for _ in 0..<1_000_000 {
            text += text.count % 2 == 0 ? "晚" : "x"
            say("saving \(text.count)")
            try await drafts.setText(text, of: draft.id)
            say("saved \(text.count)")
        }
    case "draft" where arguments.count == 2:
        let drafts = try await WeiboDraftStore.open(path: arguments[1])
        guard let draft = try await drafts.drafts(account: "a").first else {
            print("none")
            break
        }
        // The text is every character typed so far, in order: check it is not torn.
        let expected = String((0..<draft.text.count).map { $0 % 2 == 0 ? "晚" : "x" })
        print(draft.text == expected ? "\(draft.text.count)" : "torn \(draft.text.count)")
    case "hold" where arguments.count >= 2:
        let databases = try arguments.dropFirst().map { path in
            let database = try SQLiteDatabase(path: path)
            try database.execute("BEGIN EXCLUSIVE")
            return database
        }
        FileHandle.standardOutput.write(Data("held\n".utf8))
        while readLine() != nil {}
        for database in databases { try database.execute("COMMIT") }
    default:
        FileHandle.standardError.write(Data("usage: store-tool credentials|accounts|outbox|enqueue|sqlite|positions|position|typing|draft|hold ...\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
