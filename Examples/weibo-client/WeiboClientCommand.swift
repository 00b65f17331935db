// weibo-client: a Weibo client on the command line, built from WeiboKit
// (accounts, timelines with their offline cache, a post's page, a person's
// page, comments, reposts, follows) and WeiboShare (posting through
// ShareKit). Any failure prints one line starting with "error:" and exits
// 1; a write whose answer was lost exits 3.

import ExampleSupport
import Foundation
import ServiceKit
import WeiboKit

@main
struct WeiboClientCommand {
    static func main() async {
        // Everything the store writes (tokens, accounts, cache, the request log) is the user's alone.
        umask(0o077)
        await runCommandLineTool { arguments in
            try await Session.open(try Arguments(arguments, environment: ProcessInfo.processInfo.environment)).run()
        }
    }
}

/// One run: the store, the client, the network, and the command.
struct Session {
    let arguments: Arguments
    let environment = ProcessInfo.processInfo.environment
    let http = ServiceClient(transport: CurlTransport(), requestTimeout: .seconds(30))
    let credentials: FileCredentialStore
    let accounts: WeiboAccountStore
    let client: WeiboClient
    /// The log Weibo's limits are counted against: a file, since each run is one process.
    let ledger: FileRateLimitLedger
    let monitor = LinuxNetworkMonitor()

    /// The session of `arguments`, its store opened off Swift's cooperative pool.
    static func open(_ arguments: Arguments) async throws -> Session {
        let credentials = FileCredentialStore(path: arguments.store + "/credentials.json")
        try FileManager.default.createDirectory(atPath: arguments.store, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let accounts = try await WeiboAccountStore.open(credentials: credentials, indexPath: arguments.store + "/accounts.json")
        return Session(arguments, credentials: credentials, accounts: accounts)
    }

    private init(_ arguments: Arguments, credentials: FileCredentialStore, accounts: WeiboAccountStore) {
        self.arguments = arguments
        self.credentials = credentials
        self.accounts = accounts
        ledger = FileRateLimitLedger(path: arguments.store + "/requests.json")
        // --rip, else PHOTODECK_WEIBO_RIP, is the rip of every write (post, comment, repost, follow).
        let endUserIP = arguments.endUserIP ?? WeiboEnvironment(ProcessInfo.processInfo.environment).endUserIP
        // The reminder host: --remind-base, else the --api-base host (one host serves both), else Weibo's.
        let api = WeiboAPI(
            base: arguments.apiBase ?? WeiboAPI.defaultBase, remindBase: arguments.remindBase ?? arguments.apiBase ?? WeiboAPI.defaultRemindBase,
            http: http, endUserAddress: endUserIP.map { .fixed($0) } ?? .thisDevice)
        client = WeiboClient(api: api, accounts: accounts, networkMonitor: monitor, rateLimitLedger: ledger)
    }

    func run() async throws -> Int32 {
        switch arguments.command {
        case .login(let code): return try await login(code: code)
        case .accounts: return try await listAccounts()
        case .use(let uid):
            try await accounts.use(uid: uid)
            Console.line("using \(await accounts.current().map { "\($0.screenName.oneLine) (\($0.uid.oneLine))" } ?? uid.oneLine)")
            return 0
        case .logout(let uid): return try await logout(uid)
        case .timeline(let page, let offline): return try await timeline(.home, page: page, offline: offline)
        case .show(let id): return try await show(id)
        case .comments(let id): return try await comments(id)
        case .reposts(let id): return try await reposts(id)
        case .post(let text, let image): return try await post(text, image: image)
        case .comment(let id, let text): return report(try await client.comment(on: id, text: text)) { "commented \($0.id.oneLine)" }
        case .repost(let id, let text): return report(try await client.repost(id, text: text)) { "reposted as \($0.id.oneLine)" }
        case .user(let who, let part, let page): return try await person(WeiboUserReference(parsing: who), part, page: page)
        case .follow(let who):
            return report(try await client.follow(WeiboUserReference(parsing: who))) { "following \($0.screenName.oneLine) (\($0.id.oneLine))" }
        case .unfollow(let who):
            return report(try await client.unfollow(WeiboUserReference(parsing: who))) {
                "no longer following \($0.screenName.oneLine) (\($0.id.oneLine))"
            }
        case .list(let id, let page, let offline): return try await list(id, page: page, offline: offline)
        case .read(let postID, let offset, let id): return try await markRead(postID, offset: offset, in: id)
        case .favourite(let postID, let keep):
            let outcome = keep ? try await client.favourite(postID) : try await client.unfavourite(postID)
            return report(outcome) { "\(keep ? "kept" : "dropped") \($0.post.id.oneLine)\(keep ? " among your favourites" : " from your favourites")" }
        case .unread: return try await unread()
        case .mute(let target): return try await mute(target)
        case .unmute(let target): return try await unmute(target)
        case .drafts(let command): return try await drafts(command)
        case .watch(let interval, let notify, let once): return try await watch(interval: interval, notify: notify, once: once)
        case .search(let query):
            let found = try await client.searchUsers(query)
            if arguments.json {
                try Output.printJSON(found.map(Output.suggestion))
            } else {
                for user in found { Console.line("\(user.id.oneLine)  \(user.screenName.oneLine)  \(user.followersCount) followers") }
            }
            return 0
        }
    }

    /// Whether Weibo can be reached now: a route to the API's address, or
    /// (for a host name) a default route.
    func canReachWeibo() async -> Bool {
        await monitor.canReach(client.api.base.host ?? "")
    }

    /// Prints a write's result; an unknown outcome exits 3.
    func report<Value>(_ outcome: WeiboWriteOutcome<Value>, _ done: (Value) -> String) -> Int32 {
        switch outcome {
        case .done(let value):
            Console.line(done(value))
            return 0
        case .outcomeUnknown(let reason):
            Console.line("outcome unknown: \(reason)")
            return 3
        }
    }

    /// Says which items of an answer could not be read, and which of their
    /// optional fields were left out (once for the page), on standard error.
    func reportSkipped(_ skipped: [WeiboDecodingError], dropped: [WeiboDecodingError] = [], what: String) {
        if let first = skipped.first {
            Console.error("\(skipped.count) \(what) could not be read and were skipped (first: \(first.description.oneLine))")
        }
        if let first = dropped.first {
            let count = dropped.count < 100 ? "\(dropped.count)" : "100 or more"
            Console.error(
                "note: \(count) fields of these \(what) could not be read and were left out; the \(what) are shown without them (first: \(first.description.oneLine))"
            )
        }
    }
}
