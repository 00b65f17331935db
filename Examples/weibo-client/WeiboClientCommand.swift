// weibo-client: a Weibo client on the command line, built from WeiboKit
// (accounts, timeline with its offline cache, comments, reposts, people) and
// WeiboShare (posting through ShareKit). Any failure prints one line starting
// with "error:" and exits 1; a write whose answer was lost exits 3.

import ExampleSupport
import Foundation
import ImageCodecs
import ServiceKit
import ShareKit
import WeiboKit
import WeiboShare

#if canImport(Glibc)
    import Glibc
#endif

@main
struct WeiboClientCommand {
    static func main() async {
        // Everything the store writes (tokens, accounts, cache) is the user's alone.
        umask(0o077)
        await runCommandLineTool { arguments in
            try await Session(try Arguments(arguments, environment: ProcessInfo.processInfo.environment)).run()
        }
    }
}

/// One run: the store, the client, and the command.
struct Session {
    let arguments: Arguments
    let environment = ProcessInfo.processInfo.environment
    let http = ServiceClient(transport: URLSessionTransport(), requestTimeout: .seconds(30))
    let credentials: FileCredentialStore
    let accounts: WeiboAccountStore
    let client: WeiboClient

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        try FileManager.default.createDirectory(atPath: arguments.store, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        credentials = FileCredentialStore(path: arguments.store + "/credentials.json")
        accounts = try WeiboAccountStore(credentials: credentials, indexPath: arguments.store + "/accounts.json")
        client = WeiboClient(api: WeiboAPI(base: arguments.apiBase ?? WeiboAPI.defaultBase, http: http), accounts: accounts)
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
        case .timeline(let count, let older, let offline): return try await timeline(count: count, older: older, offline: offline)
        case .post(let text, let image): return try await post(text, image: image)
        case .comments(let id):
            let page = try await client.comments(on: id)
            if arguments.json {
                try Output.printJSON(page.comments.map(Output.comment))
            } else {
                Console.line("\(page.totalCount) comments")
                for comment in page.comments { Console.line("\(comment.id.oneLine)  @\(comment.user.screenName.oneLine): \(comment.text.oneLine)") }
            }
            return 0
        case .comment(let id, let text): return report(try await client.comment(on: id, text: text)) { "commented \($0.id)" }
        case .repost(let id, let text): return report(try await client.repost(id, text: text)) { "reposted as \($0.id)" }
        case .user(let who):
            let user = try await client.user(WeiboUserReference(parsing: who))
            if arguments.json {
                try Output.printJSON(Output.user(user))
            } else {
                Console.line("\(user.screenName.oneLine) (\(user.id.oneLine))\(user.following ? "  · following" : "")")
                Console.line("followers \(user.followersCount) · following \(user.friendsCount) · posts \(user.statusesCount)")
                if !user.description.isEmpty { Console.line(user.description) }
            }
            return 0
        case .follow(let uid): return report(try await client.follow(.id(uid))) { "following \($0.screenName.oneLine) (\($0.id.oneLine))" }
        case .unfollow(let uid): return report(try await client.unfollow(.id(uid))) { "no longer following \($0.screenName.oneLine) (\($0.id.oneLine))" }
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

    func authorizer() throws -> WeiboAuthorizer {
        guard let key = environment["PHOTODECK_WEIBO_APP_KEY"], !key.isEmpty, let secret = environment["PHOTODECK_WEIBO_APP_SECRET"], !secret.isEmpty,
            let redirect = environment["PHOTODECK_WEIBO_REDIRECT_URI"].flatMap(URL.init(string:))
        else {
            throw CLIError("set PHOTODECK_WEIBO_APP_KEY, PHOTODECK_WEIBO_APP_SECRET and PHOTODECK_WEIBO_REDIRECT_URI to the app's registration")
        }
        return WeiboAuthorizer(appKey: key, appSecret: secret, redirectURI: redirect, apiBase: arguments.apiBase ?? WeiboAPI.defaultBase, client: http)
    }

    func login(code: String?) async throws -> Int32 {
        let authorizer = try authorizer()
        let code =
            try code
            ?? {
                let state = UUID().uuidString
                Console.line("Open this page, sign in, then paste the address you were sent to (or its code):")
                Console.line(authorizer.authorizationURL(state: state).absoluteString)
                guard let line = readLine(strippingNewline: true) else { throw CLIError("no redirect URL or code on standard input") }
                return try authorizer.code(fromRedirect: line, expectedState: state)
            }()
        let credential = try await authorizer.credential(forCode: code)
        let profile = try await client.api.user(.id(credential.account), token: credential.accessToken, uid: credential.account)
        try await accounts.add(credential, screenName: profile.screenName)
        Console.line("signed in as \(profile.screenName.oneLine) (\(profile.id.oneLine))")
        return 0
    }

    func listAccounts() async throws -> Int32 {
        let all = await accounts.accounts()
        let current = await accounts.current()?.uid
        if arguments.json {
            try Output.printJSON(all.map { Output.account($0, current: $0.uid == current) })
            return 0
        }
        if all.isEmpty { Console.line("no accounts; run weibo-client login") }
        for account in all {
            let expiry = account.expiresAt.map { "expires \(Output.iso8601($0))" } ?? ""
            Console.line(
                "\(account.uid == current ? "*" : " ") \(account.uid.oneLine)  \(account.screenName.oneLine)  \(expiry)\(account.needsSignIn ? "  (needs sign-in)" : "")"
            )
        }
        return 0
    }

    func logout(_ uid: String?) async throws -> Int32 {
        guard let account = await accounts.account(uid) else { throw WeiboError.notSignedIn }
        if let credential = try await credentials.credential(for: WeiboAuthorizer.provider, account: account.uid) {
            try await authorizer().revoke(credential)
        }
        try await accounts.remove(account.uid)
        try await cache().removeAll(account: account.uid)
        Console.line("signed out \(account.screenName.oneLine) (\(account.uid.oneLine))")
        return 0
    }

    func cache() throws -> WeiboTimelineCache { try WeiboTimelineCache(path: arguments.store + "/timeline.sqlite") }

    func timeline(count: Int, older: Bool, offline: Bool) async throws -> Int32 {
        let session = WeiboTimelineSession(client: client, cache: try cache(), pageSize: older ? min(count, 99) : count)
        let snapshot: WeiboTimelineSnapshot
        var shown: [WeiboTimelineItem]
        if offline {
            snapshot = try await session.cached()
            shown = Array(snapshot.timeline.items.prefix(count))
        } else if older {
            let previousOldest = try await session.cached().timeline.posts.last?.sortKey
            snapshot = try await session.loadOlder()
            shown = snapshot.timeline.items.filter { item in
                guard let post = item.post, let previousOldest else { return item.post != nil }
                return post.sortKey < previousOldest
            }
        } else {
            snapshot = try await session.refresh()
            shown = Array(snapshot.timeline.items.prefix(count))
        }
        if offline || snapshot.isOffline {
            guard !snapshot.timeline.posts.isEmpty else {
                throw CLIError(
                    offline ? "no cached timeline; run weibo-client timeline online first" : "cannot reach Weibo and nothing is cached: \(snapshot.failure!)")
            }
            let age = snapshot.timeline.age(at: Date()).map { "from \(Output.age($0)) ago" } ?? "never refreshed"
            let reason = snapshot.failure.map { ": \($0)" } ?? ""
            Console.error("offline\(reason); showing \(snapshot.timeline.posts.count) cached posts \(age)")
            if older { shown = [] }
        }
        if arguments.json {
            try Output.printJSON(shown.compactMap(\.post).map(Output.post))
            return 0
        }
        for item in shown {
            switch item {
            case .post(let post): Console.line(Output.describe(post))
            case .gap: Console.line("  ⋯ more posts here (weibo-client timeline --older fills from the bottom)")
            }
        }
        return 0
    }

    func post(_ text: String, image: String?) async throws -> Int32 {
        guard let account = await accounts.current() else { throw WeiboError.notSignedIn }
        _ = try await accounts.credential(for: account.uid)  // needs sign-in: refuse before preparing anything
        let link = environment["PHOTODECK_WEIBO_LINK"].flatMap(URL.init(string:)) ?? URL(string: "https://photodeck.example/s")!
        let provider = WeiboProvider(
            configuration: .init(appKey: environment["PHOTODECK_WEIBO_APP_KEY"] ?? "", safeDomainLink: link, apiBase: client.api.base), client: http)
        let center = ShareCenter(credentials: credentials)
        await center.register(provider)
        var images: [ShareImage] = []
        if let image {
            images.append(.encoded(try readInputFile(image)))
        }
        let target = ShareTarget(provider: WeiboProvider.id, destination: .timeline, displayName: "Weibo")
        let outcome: ShareOutcome
        do {
            outcome = try await center.share(ShareContent(text: text, images: images), to: target, account: account.uid)
        } catch {
            if case .authorizationExpired = error {
                try await accounts.markNeedsSignIn(account.uid)
                throw WeiboError.needsSignIn(uid: account.uid)
            }
            throw error
        }
        switch outcome {
        case .posted(let receipt):
            Console.line("posted \(receipt.postID?.oneLine ?? "(id not yet known)")\(receipt.url.map { " \($0.absoluteString)" } ?? "")")
            return 0
        case .outcomeUnknown(let reason):
            Console.line("outcome unknown: \(reason)")
            return 3
        }
    }
}
