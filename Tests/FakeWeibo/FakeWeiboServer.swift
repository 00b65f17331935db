// A fake of Weibo's API and OAuth endpoints on 127.0.0.1, for the client's
// tests and the weibo-client example's: it implements every endpoint the
// client uses, answers Weibo's error JSON where Weibo would, and can lose an
// answer after acting, refuse a permission, or hand out a malformed body.

public import Foundation
import ServiceKit
public import ServiceKitTesting
import Synchronization

/// A fake Weibo on loopback. Users, posts, comments, follows and tokens live
/// in memory; tests arrange them and read them back.
public final class FakeWeiboServer: Sendable {
    /// The app the fake knows.
    public static let appKey = "1234567890"
    /// The app's secret.
    public static let appSecret = "fake-app-secret"
    /// The app's redirect URI.
    public static let redirectURI = "https://photodeck.example/weibo/callback"

    /// A post as the fake keeps it.
    public struct Post: Sendable {
        public var id: Int64
        public var uid: String
        public var text: String
        public var createdAt: Date
        public var repostOf: Int64?
        public var repostsCount = 0
        public var commentsCount = 0
        /// Its pictures' ids on the picture host.
        public var pictures: [String] = []
        /// The end user's IP the write that made it reported (`rip`), for posts made through the API.
        public var rip: String?
        /// When the fake received the request that made it (the real clock), for posts made through the API.
        public var receivedAt: Date?
    }

    /// A comment as the fake keeps it.
    public struct Comment: Sendable {
        public var id: Int64
        public var postID: Int64
        public var uid: String
        public var text: String
        public var createdAt: Date
        public var rip: String?
    }

    /// A user as the fake keeps it.
    public struct User: Sendable {
        public var uid: String
        public var screenName: String
        public var followers: Set<String> = []
        public var following: Set<String> = []
        /// Whether the user authorised the app: Weibo shows the app only
        /// these users' posts, follows and fans (dropping the others after
        /// counting a page).
        public var authorizedApp = true
        /// The topics they follow: name and post count.
        public var topics: [(name: String, count: Int)] = []
    }

    struct Token: Sendable {
        var uid: String
        var expired = false
        var revoked = false
    }

    struct State: Sendable {
        var users: [String: User] = [:]
        var posts: [Int64: Post] = [:]
        var comments: [Comment] = []
        var codes: [String: String] = [:]
        var tokens: [String: Token] = [:]
        var nextID: Int64 = 4_900_000_000_000_000
        var permitted: Set<String> = []
        var loseAnswer: Set<String> = []
        var malformed: [String: [UInt8]] = [:]
        var rateLimited: Set<String> = []
        var failures: [String: (code: Int, message: String)] = [:]
        var offline = false
        /// Each user's favourites: post id and when it was kept, newest last.
        var favourites: [String: [(postID: Int64, at: Date)]] = [:]
        /// Per user, per list (`mentions`, `to_me`, `mention_cmt`, `home`), the newest id read: counts reset when a list is read.
        var readMarks: [String: [String: Int64]] = [:]
        /// Per user, fans gained since the fans list was last read.
        var newFans: [String: Int] = [:]
        /// Codes the next request to a path is refused with, for rate-limit quirks (10023, 10024).
        var rateLimitCodes: [String: Int] = [:]
        var clockNow = Date(timeIntervalSince1970: 1_780_000_000)
        /// `http://127.0.0.1:PORT`, the picture host's origin.
        var pictureOrigin = ""
    }

    /// The state, shared with the server's handler.
    final class StateBox: Sendable {
        let mutex = Mutex(State())
    }

    let state = StateBox()
    /// The HTTP server.
    public let http: LoopbackHTTPServer
    /// The picture host (Weibo's `wx1.sinaimg.cn`), on a port of its own.
    let pictureHost: FakePictureHost
    /// The reminder host (Weibo's `rm.api.weibo.com`), on a port of its
    /// own: it answers `remind/unread_count` and nothing else, and the API
    /// host does not answer that.
    public let remindHTTP: LoopbackHTTPServer

    /// Starts the fake with four users: `1750000001` ("小明"),
    /// `1750000002` ("Alice"), `1750000003` ("新浪新闻"), who authorised
    /// the app, and `1750000004` ("路人"), who did not (Weibo hides their
    /// posts from the app).
    public init() throws {
        let state = self.state
        http = try LoopbackHTTPServer { request in FakeWeiboServer.answer(request, state: state) }
        pictureHost = try FakePictureHost()
        remindHTTP = try LoopbackHTTPServer { request in FakeWeiboServer.answerRemind(request, state: state) }
        let origin = "http://127.0.0.1:\(pictureHost.http.port)"
        state.mutex.withLock { $0.pictureOrigin = origin }
        addUser(uid: "1750000001", screenName: "小明")
        addUser(uid: "1750000002", screenName: "Alice")
        addUser(uid: "1750000003", screenName: "新浪新闻")
        addUser(uid: "1750000004", screenName: "路人", authorizedApp: false)
    }

    deinit {
        http.stop()
        remindHTTP.stop()
    }

    /// Where the reminder host answers (``WeiboKit/WeiboAPI/remindBase``).
    public var remindBase: URL { URL(string: "http://127.0.0.1:\(remindHTTP.port)")! }

    /// Where the fake answers (the API and OAuth base).
    public var base: URL { URL(string: "http://127.0.0.1:\(http.port)")! }

    /// Stops answering (the network "goes away"): every connection is
    /// dropped from now on. The port stays held, so no other test's server
    /// can be given it and answer in the fake's place.
    public func stop() { state.mutex.withLock { $0.offline = true } }

    /// Every request received.
    public var requests: [LoopbackHTTPServer.Request] { http.requests }

    /// The picture host's server: its requests, connections and port.
    public var pictures: LoopbackHTTPServer { pictureHost.http }

    /// Makes the picture host hold its answers (a slow CDN) until
    /// ``releasePictures()``.
    public func holdPictures() { pictureHost.gate.hold() }

    /// Sends every held picture, and the later ones at once.
    public func releasePictures() { pictureHost.gate.release() }

    /// How many picture requests wait for ``releasePictures()``.
    public var heldPictureRequests: Int { pictureHost.gate.waiting }

    /// The requests for `path` (for example `/2/comments/create.json`).
    public func requests(to path: String) -> [LoopbackHTTPServer.Request] { http.requests.filter { $0.path == path } }

    // MARK: Arranging

    /// Adds a user (who authorised the app, unless said otherwise).
    public func addUser(uid: String, screenName: String, authorizedApp: Bool = true) {
        state.mutex.withLock { $0.users[uid] = User(uid: uid, screenName: screenName, authorizedApp: authorizedApp) }
    }

    /// Makes `follower` follow `followed` (as arranged, not through the API).
    public func addFollow(_ follower: String, follows followed: String) {
        state.mutex.withLock { state in
            state.users[follower]?.following.insert(followed)
            if state.users[followed]?.followers.insert(follower).inserted == true { state.newFans[followed, default: 0] += 1 }
        }
    }

    /// Gives `uid` a topic with `count` posts.
    public func addTopic(_ name: String, count: Int, for uid: String) {
        state.mutex.withLock { $0.users[uid]?.topics.append((name, count)) }
    }

    /// The next request to `path` is refused with Weibo's error `code` (HTTP 400).
    public func failNext(_ path: String, code: Int, message: String) {
        state.mutex.withLock { $0.failures[path] = (code, message) }
    }

    /// Issues an authorization code for `uid`, as the authorize page would
    /// after the user signed in.
    public func issueCode(for uid: String) -> String {
        state.mutex.withLock { state in
            let code = "code-\(uid)-\(state.codes.count + 1)"
            state.codes[code] = uid
            return code
        }
    }

    /// Adds `count` posts by `uid` with ids after every post so far, each
    /// with `pictures` pictures of `pictureSize` pixels (as uploaded);
    /// returns their ids, oldest first.
    @discardableResult
    public func addPosts(
        _ count: Int, by uid: String = "1750000003", text: String = "post", pictures: Int = 0, pictureSize: (width: Int, height: Int) = (1600, 1200)
    ) -> [String] {
        state.mutex.withLock { state in
            (0..<count).map { index in
                state.nextID += 10
                state.clockNow += 60
                var post = Post(id: state.nextID, uid: uid, text: "\(text) \(index + 1)", createdAt: state.clockNow)
                post.pictures = (0..<pictures).map { "pid\(state.nextID)x\($0)" }
                for pid in post.pictures { pictureHost.add(pid, width: pictureSize.width, height: pictureSize.height) }
                state.posts[post.id] = post
                return String(post.id)
            }
        }
    }

    /// Adds a repost of `postID` by `uid` (as if they reposted it on Weibo); returns its id.
    public func addRepost(of postID: String, by uid: String, text: String = "转发微博") -> String? {
        state.mutex.withLock { state in
            guard let id = Int64(postID), let original = state.posts[id] else { return nil }
            let root = original.repostOf ?? original.id
            state.nextID += 10
            state.clockNow += 60
            state.posts[state.nextID] = Post(id: state.nextID, uid: uid, text: text, createdAt: state.clockNow, repostOf: root)
            state.posts[root]?.repostsCount += 1
            return String(state.nextID)
        }
    }

    /// Lets the app use `endpoint` (for example `search/suggestions/users`), which otherwise answers 10014.
    public func permit(_ endpoint: String) { _ = state.mutex.withLock { $0.permitted.insert(endpoint) } }

    /// The next request to `path` is carried out, then its connection
    /// dropped before the answer.
    public func loseNextAnswer(to path: String) { _ = state.mutex.withLock { $0.loseAnswer.insert(path) } }

    /// The next request to `path` is answered with `body` (HTTP 200) instead.
    public func answerNext(_ path: String, with body: String) { state.mutex.withLock { $0.malformed[path] = Array(body.utf8) } }

    /// The next request to `path` is refused with 10023 ("user requests
    /// out of rate limit"), without `Retry-After`, as Weibo answers it.
    public func rateLimitNext(_ path: String) { _ = state.mutex.withLock { $0.rateLimited.insert(path) } }

    /// The next request to `path` (on either host) is refused with
    /// `code`: 10023 ("User requests out of rate limit!") or 10024 ("User
    /// requests for (API) out of rate limit!"), HTTP 403, without `Retry-After`.
    public func rateLimitNext(_ path: String, code: Int) { state.mutex.withLock { $0.rateLimitCodes[path] = code } }

    /// Keeps `postID` among `uid`'s favourites (as arranged), kept now on the fake's clock.
    public func addFavourite(_ postID: String, for uid: String) {
        state.mutex.withLock { state in
            guard let id = Int64(postID) else { return }
            state.clockNow += 60
            state.favourites[uid, default: []].append((id, state.clockNow))
        }
    }

    /// Drops `postID` from `uid`'s favourites (as if on another device).
    public func removeFavourite(_ postID: String, for uid: String) {
        state.mutex.withLock { state in state.favourites[uid]?.removeAll { String($0.postID) == postID } }
    }

    /// `uid`'s favourites, newest kept first.
    public func favourites(of uid: String) -> [String] {
        state.mutex.withLock { $0.favourites[uid, default: []].reversed().map { String($0.postID) } }
    }

    /// Adds a comment by `uid` on `postID`; returns its id.
    @discardableResult
    public func addComment(on postID: String, by uid: String, text: String) -> String? {
        state.mutex.withLock { state in
            guard let id = Int64(postID), state.posts[id] != nil else { return nil }
            state.nextID += 10
            state.clockNow += 60
            state.comments.append(Comment(id: state.nextID, postID: id, uid: uid, text: text, createdAt: state.clockNow))
            state.posts[id]?.commentsCount += 1
            return String(state.nextID)
        }
    }

    /// Makes every token of `uid` expired (Weibo then answers 21327).
    public func expireTokens(of uid: String) {
        state.mutex.withLock { state in
            for (token, value) in state.tokens where value.uid == uid { state.tokens[token]?.expired = true }
        }
    }

    // MARK: Reading back

    /// The posts, newest first.
    public var posts: [Post] { state.mutex.withLock { $0.posts.values.sorted { $0.id > $1.id } } }
    /// The comments, in the order they were made.
    public var comments: [Comment] { state.mutex.withLock { $0.comments } }
    /// Whom `uid` follows.
    public func following(of uid: String) -> Set<String> { state.mutex.withLock { $0.users[uid]?.following ?? [] } }
    /// Whether `token` was revoked.
    public func isRevoked(_ token: String) -> Bool { state.mutex.withLock { $0.tokens[token]?.revoked ?? false } }
    /// The live tokens of `uid`.
    public func tokens(of uid: String) -> [String] {
        state.mutex.withLock { $0.tokens.filter { $0.value.uid == uid && !$0.value.revoked }.map(\.key) }
    }
}
