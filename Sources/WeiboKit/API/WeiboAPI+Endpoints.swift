public import Foundation
public import ServiceKit

/// Which page of the home timeline to read.
public enum WeiboTimelineQuery: Hashable, Sendable {
    /// The newest posts.
    case latest
    /// Posts newer than `id` (`since_id`).
    case newer(than: String)
    /// Posts older than `id` (`max_id`, which Weibo treats as inclusive;
    /// the duplicate is dropped).
    case older(than: String)
    /// Page `n` (1-based) counting from the newest.
    case page(Int)
}

/// How a repost also comments (`is_comment`).
public enum WeiboRepostComment: Int, Hashable, Sendable {
    /// Only repost.
    case none = 0
    /// Also comment on the post being reposted.
    case onPost = 1
    /// Also comment on the original post of a repost chain.
    case onOriginal = 2
    /// Both.
    case onBoth = 3
}

extension WeiboAPI {
    /// The signed-in user's home timeline (`2/statuses/home_timeline.json`),
    /// newest first. `count` is clamped to 1...100. For
    /// ``WeiboTimelineQuery/older(than:)`` the post `max_id` names is not
    /// repeated: one more is asked for and the duplicate dropped, so an
    /// older page holds at most 99 posts.
    public func homeTimeline(_ query: WeiboTimelineQuery = .latest, count: Int = 20, token: String, uid: String? = nil) async throws(WeiboError)
        -> [WeiboPost]
    {
        let asked = if case .older = query { min(max(count, 1), Self.maxPageSize - 1) + 1 } else { min(max(count, 1), Self.maxPageSize) }
        var items = [("count", String(asked))]
        switch query {
        case .latest: break
        case .newer(let id):
            try Self.checkID(id, "since_id")
            items.append(("since_id", id))
        case .older(let id):
            try Self.checkID(id, "max_id")
            items.append(("max_id", id))
        case .page(let page):
            guard page >= 1 else { throw .invalidArgument("pages count from 1") }
            items.append(("page", String(page)))
        }
        let endpoint = "statuses/home_timeline"
        let response = try await read(request("GET", "2/statuses/home_timeline.json", query: items, token: token), endpoint: endpoint, uid: uid)
        var posts = try decode(response, endpoint: endpoint, WeiboDecoder.timeline)
        switch query {
        case .older(let id):
            posts.removeAll { $0.id == id || $0.sortKey > Int64(id) ?? .max }
            posts = Array(posts.prefix(asked - 1))
        case .newer(let id): posts.removeAll { $0.sortKey <= Int64(id) ?? 0 }
        default: break
        }
        return posts
    }

    /// A page of comments on a post (`2/comments/show.json`), newest first.
    public func comments(on postID: String, page: Int = 1, count: Int = 50, token: String, uid: String? = nil) async throws(WeiboError)
        -> WeiboCommentPage
    {
        try Self.checkID(postID, "the post id")
        let items = [("id", postID), ("page", String(max(page, 1))), ("count", String(min(max(count, 1), 200)))]
        let endpoint = "comments/show"
        let response = try await read(request("GET", "2/comments/show.json", query: items, token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.comments)
    }

    /// Comments on a post (`2/comments/create.json`); sent once.
    /// `alsoOnOriginal` comments on the original of a repost too
    /// (`comment_ori`); `endUserIP` is sent as `rip`.
    public func comment(
        on postID: String, text: String, alsoOnOriginal: Bool = false, endUserIP: String? = nil, token: String, uid: String? = nil
    ) async throws(WeiboError) -> WeiboWriteOutcome<WeiboComment> {
        try Self.checkID(postID, "the post id")
        try Self.checkLength(text)
        var fields = [("comment", text), ("id", postID), ("comment_ori", alsoOnOriginal ? "1" : "0")]
        if let endUserIP { fields.append(("rip", endUserIP)) }
        let request = request("POST", "2/comments/create.json", form: URLEncodedForm(fields), token: token)
        return try await write(request, endpoint: "comments/create", uid: uid, sentText: text, decode: WeiboDecoder.comment)
    }

    /// Reposts a post (`2/statuses/repost.json`) with optional text; sent once.
    public func repost(
        _ postID: String, text: String? = nil, comment: WeiboRepostComment = .none, endUserIP: String? = nil, token: String, uid: String? = nil
    ) async throws(WeiboError) -> WeiboWriteOutcome<WeiboPost> {
        try Self.checkID(postID, "the post id")
        if let text { try Self.checkLength(text, allowEmpty: true) }
        var fields = [("id", postID), ("is_comment", String(comment.rawValue))]
        if let text, !text.isEmpty { fields.append(("status", text)) }
        if let endUserIP { fields.append(("rip", endUserIP)) }
        let request = request("POST", "2/statuses/repost.json", form: URLEncodedForm(fields), token: token)
        return try await write(request, endpoint: "statuses/repost", uid: uid, sentText: text, decode: WeiboDecoder.post)
    }

    /// A user's profile (`2/users/show.json`).
    public func user(_ who: WeiboUserReference, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboUser {
        if case .id(let id) = who { try Self.checkID(id, "the user id") }
        let endpoint = "users/show"
        let response = try await read(request("GET", "2/users/show.json", query: [who.queryItem], token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.user)
    }

    /// Follows a user (`2/friendships/create.json`); sent once.
    public func follow(_ who: WeiboUserReference, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await friendship("create", who, token: token, uid: uid)
    }

    /// Stops following a user (`2/friendships/destroy.json`); sent once.
    public func unfollow(_ who: WeiboUserReference, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await friendship("destroy", who, token: token, uid: uid)
    }

    private func friendship(_ action: String, _ who: WeiboUserReference, token: String, uid: String?) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboUser>
    {
        if case .id(let id) = who { try Self.checkID(id, "the user id") }
        let request = request("POST", "2/friendships/\(action).json", form: URLEncodedForm([who.queryItem]), token: token)
        return try await write(request, endpoint: "friendships/\(action)", uid: uid, decode: WeiboDecoder.user)
    }

    /// Users whose names match `query` (`2/search/suggestions/users.json`,
    /// an API Weibo grants on application: without it the answer is
    /// ``WeiboError/notPermitted(endpoint:code:message:)``).
    public func searchUsers(_ query: String, count: Int = 10, token: String, uid: String? = nil) async throws(WeiboError) -> [WeiboUserSuggestion] {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidArgument("the search query is empty") }
        let endpoint = "search/suggestions/users"
        let items = [("q", query), ("count", String(min(max(count, 1), 50)))]
        let response = try await read(request("GET", "2/search/suggestions/users.json", query: items, token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.userSuggestions)
    }

    /// Posts a status with at most one picture (`2/statuses/share.json`,
    /// the API for third-party apps: the text must carry a link to one of
    /// the app's safe domains); sent once.
    public func share(status: String, picture: WeiboPicture? = nil, endUserIP: String? = nil, token: String, uid: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        let request = shareRequest(status: status, picture: picture, endUserIP: endUserIP, token: token)
        switch try await publish(request) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response): return try Self.shareOutcome(of: response, sentText: status, uid: uid)
        }
    }

    /// What a `statuses/share.json` answer means: a receipt when Weibo
    /// names the new status (or answers 20032, "posted, syncing"); outcome
    /// unknown for a 2xx answer that proves nothing; else the error.
    package static func shareOutcome(of response: HTTPResponse, sentText: String?, uid: String? = nil) throws(WeiboError)
        -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        do {
            try check(response, endpoint: "statuses/share", uid: uid, sentText: sentText)
        } catch {
            if case .rejected(_, WeiboErrorCode.postedWithDelay, _) = error { return .done(WeiboPostReceipt(postID: nil, authorID: nil, post: nil)) }
            throw error
        }
        guard let field = try? WeiboDecoder.json(response.body), let postID = try? field.identifier(in: field) else {
            return .outcomeUnknown(
                reason: "Weibo answered HTTP \(response.status) without a readable status id; the status may have been posted")
        }
        let user = field["user"]
        let authorID = user.isMissing ? nil : try? user.identifier(in: user)
        return .done(WeiboPostReceipt(postID: postID, authorID: authorID, post: try? WeiboPost(field)))
    }

    /// The multipart `statuses/share.json` request; the token goes in the
    /// `Authorization` header. Text is raw UTF-8, as every working client
    /// sends it (the documentation's "URL-encode" applies to form bodies).
    public func shareRequest(status: String, picture: WeiboPicture?, endUserIP: String?, token: String) -> HTTPRequest {
        var form = MultipartForm()
        form.addField("status", status)
        if let endUserIP { form.addField("rip", endUserIP) }
        if let picture { form.addFile("pic", filename: picture.filename, contentType: picture.mediaType, data: picture.bytes) }
        return HTTPRequest(
            method: "POST", url: base.appending(path: "2/statuses/share.json"),
            headers: ["Content-Type": form.contentType, "Authorization": "OAuth2 \(token)"],
            body: form.body, timeout: .seconds(60), isIdempotent: false
        )
    }
}

/// A picture for a status: encoded bytes (JPEG, PNG or GIF, at most 5 MB)
/// and their media type.
public struct WeiboPicture: Hashable, Sendable {
    /// The encoded picture.
    public var bytes: [UInt8]
    /// `image/jpeg`, `image/png` or `image/gif`.
    public var mediaType: String

    /// Creates a picture.
    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }

    /// `photo.jpg`, `photo.png` or `photo.gif`.
    var filename: String {
        switch mediaType {
        case "image/png": "photo.png"
        case "image/gif": "photo.gif"
        default: "photo.jpg"
        }
    }
}

/// What Weibo answered to a new status: its id and author when it said,
/// and the whole status when the answer had one.
public struct WeiboPostReceipt: Hashable, Sendable {
    /// The new status's id; `nil` when Weibo answered "posted, syncing" (20032).
    public var postID: String?
    /// The author's uid, when the answer named it.
    public var authorID: String?
    /// The status as Weibo returned it, when complete.
    public var post: WeiboPost?

    /// Creates a receipt.
    public init(postID: String?, authorID: String?, post: WeiboPost?) {
        self.postID = postID
        self.authorID = authorID
        self.post = post
    }

    /// The status's page, `https://weibo.com/UID/ID`, when both are known.
    public var url: URL? {
        guard let postID, let authorID else { return nil }
        return URL(string: "https://weibo.com/\(authorID)/\(postID)")
    }
}
