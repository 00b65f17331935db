// The WeiboKit code samples of the README and the doc comments, compiled.

import Foundation
import ServiceKit
import ServiceKitTesting
import ShareKit
import WeiboKit

enum WeiboKitSnippets {
    static func posts(client: WeiboClient) async throws {
        for post in try await client.homeTimeline().posts {
            print(post.user?.screenName ?? "(deleted)", post.text, post.repost?.text ?? "")
        }
    }

    static func references() -> [WeiboUserReference] {
        let someone = WeiboUserReference(parsing: "1404376560")  // .id("1404376560")
        let other = WeiboUserReference(parsing: "@新浪新闻")  // .screenName("新浪新闻")
        return [someone, other]
    }

    static func decodingError(error: WeiboDecodingError) {
        // "statuses[3].user.followers_count: expected a number, found a string \"many\""
        print(error)
    }

    static func decoder(response: HTTPResponse) throws -> [WeiboPost] {
        let page = try WeiboDecoder.timeline(from: response.body)  // a post that cannot be read is skipped and reported
        return page.posts
    }

    static func page(client: WeiboClient, show: ([WeiboPost]) -> Void, log: (String) -> Void) async throws {
        let page = try await client.homeTimeline(.latest, count: 20)
        show(page.posts)
        if !page.skipped.isEmpty { log("\(page.skipped.count) posts could not be read") }
        let next = try await client.homeTimeline(page.nextQuery ?? .latest, count: 20)
        show(next.posts)
    }

    static func people(client: WeiboClient, uid: String, show: ([WeiboUser]) -> Void) async throws {
        var cursor = 0
        repeat {
            let page = try await client.follows(of: .id(uid), cursor: cursor)
            show(page.users)
            cursor = page.nextCursor
        } while cursor != 0
    }

    struct IncomingRequest {
        let clientIP: String
    }

    static func endUser(http: ServiceClient, request: IncomingRequest) {
        let onDevice = WeiboAPI(http: http)  // .thisDevice
        let onServer = WeiboAPI(http: http, endUserAddress: .fixed(request.clientIP))
        _ = (onDevice, onServer)
    }

    static func errors(client: WeiboClient, showMessage: (String) -> Void, startSignIn: (String) -> Void) async {
        do throws(WeiboError) {
            _ = try await client.follow(.id("1404376560"))
        } catch .notPermitted(let endpoint, _, _) {
            showMessage("This app may not use \(endpoint)")
        } catch .needsSignIn(let uid) {
            startSignIn(uid)
        } catch {
            showMessage("\(error)")
        }
    }

    static func writeOutcome(client: WeiboClient, post: WeiboPost, show: (WeiboComment) -> Void, tellUser: (String) -> Void) async throws {
        switch try await client.comment(on: post.id, text: "好看") {
        case .done(let comment): show(comment)
        case .outcomeUnknown(let reason): tellUser("It may have been posted: \(reason)")
        }
    }

    static func errorAnswer(response: HTTPResponse) throws {
        if let answer = WeiboErrorAnswer(response) { throw answer.error(endpoint: "comments/create") }
    }

    static func api(http: ServiceClient, token: String) async throws -> [WeiboPost] {
        let api = WeiboAPI(http: ServiceClient(transport: CurlTransport()))
        let page = try await api.homeTimeline(.latest, count: 50, token: token)
        return page.posts
    }

    static func limits() {
        let limits = WeiboRateLimits.documented
        print(limits.posts)  // 30 per hour per account
    }

    static func accountStore(dir: String, credential: Credential, otherUID: String) async throws {
        let store = try await WeiboAccountStore.open(credentials: FileCredentialStore(path: dir + "/credentials.json"), indexPath: dir + "/accounts.json")
        try await store.add(credential, screenName: "小明")  // becomes current
        try await store.use(uid: otherUID)
    }

    static func client(http: ServiceClient, store: WeiboAccountStore, warnMaybePosted: () -> Void) async throws {
        let client = WeiboClient(api: WeiboAPI(http: http), accounts: store, networkMonitor: LinuxNetworkMonitor())
        let page = try await client.homeTimeline(.latest, count: 50)
        if case .outcomeUnknown = try await client.repost(page.posts[0].id, text: "转发") { warnMaybePosted() }
    }

    static func cache(dir: String, client: WeiboClient, uid: String, render: (WeiboTimelineItem) -> Void) async throws {
        let cache = try await WeiboTimelineCache.open(path: dir + "/timeline.sqlite")
        let page = try await client.homeTimeline(.latest, count: 50)
        try await cache.merge(page, fetchedWith: .latest, account: uid)
        for item in try await cache.timeline(account: uid).items { render(item) }
    }

    static func render(_ items: [WeiboTimelineItem], offline: WeiboError?) {}

    static func session(client: WeiboClient, cache: WeiboTimelineCache) async {
        let session = WeiboTimelineSession(client: client, cache: cache)
        for await snapshot in session.snapshots() {
            render(snapshot.timeline.items, offline: snapshot.failure)
        }
    }
}

extension WeiboKitSnippets {
    static func readme(
        key: String, secret: String, redirect: URL, nonce: String, redirectedTo: String, dir: String, openBrowser: (URL) -> Void,
        warnMaybePosted: () -> Void
    ) async throws {
        let authorizer = WeiboAuthorizer(appKey: key, appSecret: secret, redirectURI: redirect)
        openBrowser(authorizer.authorizationURL(state: nonce))  // forcelogin=true: a second account can sign in
        let credential = try await authorizer.credential(forCode: authorizer.code(fromRedirect: redirectedTo, expectedState: nonce))
        let accounts = try await WeiboAccountStore.open(credentials: FileCredentialStore(path: dir + "/tokens.json"), indexPath: dir + "/accounts.json")
        try await accounts.add(credential, screenName: "小明")  // the uid is the one get_token_info states
        let client = WeiboClient(api: WeiboAPI(http: ServiceClient(transport: CurlTransport())), accounts: accounts)
        let session = WeiboTimelineSession(client: client, cache: try await WeiboTimelineCache.open(path: dir + "/timeline.sqlite"))
        let snapshot = try await session.refresh()  // the cache, marked offline, when Weibo cannot be reached
        if case .outcomeUnknown = try await client.comment(on: snapshot.timeline.posts[0].id, text: "好看") { warnMaybePosted() }
    }
}

extension WeiboKitSnippets {
    static func closedPort(http: ServiceClient) throws -> WeiboAPI {
        let closed = try ClosedPort()
        let api = WeiboAPI(base: closed.url, http: http)  // every request: cannot connect
        return api
    }
}

extension WeiboKitSnippets {
    /// The stores' `open` samples.
    static func opening(credentials: any CredentialStore) async throws {
        let drafts = try await WeiboDraftStore.open(path: "drafts.sqlite")
        let accounts = try await WeiboAccountStore.open(credentials: credentials, indexPath: "accounts.json")
        _ = (drafts, accounts)
    }
}
