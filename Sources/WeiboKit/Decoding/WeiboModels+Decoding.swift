public import Foundation
import ServiceKit

extension WeiboUser {
    /// Reads a user object: its id is required; any other field that is not
    /// what Weibo documents is left out and noted in `dropped`.
    init(_ field: WeiboField, dropped: inout DroppedFields) throws(WeiboDecodingError) {
        let object = try field.object()
        let id = try object.identifier(in: object)
        let screenName = dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["screen_name"].optionalString() }
        let name = dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["name"].optionalString() }
        let largeAvatar = dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["avatar_large"].optionalURL() }
        let avatar = dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["profile_image_url"].optionalURL() }
        self.init(
            id: id,
            screenName: screenName ?? name ?? "",
            description: dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["description"].optionalString() } ?? "",
            avatar: largeAvatar ?? avatar,
            followersCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["followers_count"].int(default: 0) },
            friendsCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["friends_count"].int(default: 0) },
            statusesCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["statuses_count"].int(default: 0) },
            following: dropped.value(or: false) { () throws(WeiboDecodingError) in try object["following"].bool() },
            isVerified: dropped.value(or: false) { () throws(WeiboDecodingError) in try object["verified"].bool() }
        )
    }

    /// Reads a user object, dropping bad optional fields without a note.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        var dropped = DroppedFields()
        try self.init(field, dropped: &dropped)
    }
}

extension WeiboPost {
    /// The most pictures read from one post (Weibo shows nine, eighteen for
    /// some accounts); an answer listing more is cut there, with a note.
    static let maxPicturesRead = 50

    /// Reads a status object. Its id and its author (unless Weibo marks it
    /// deleted) are required; every other field that is not what Weibo
    /// documents (a picture URL that is not http(s), a count, the date, a
    /// repost that cannot be read) is left out and noted in `dropped`.
    /// `depth` stops a hostile answer nesting reposts without end.
    init(_ field: WeiboField, depth: Int = 0, dropped: inout DroppedFields) throws(WeiboDecodingError) {
        let object = try field.object()
        let id = try object.identifier(in: object)
        let deleted = dropped.value(or: false) { () throws(WeiboDecodingError) in try object["deleted"].bool() }
        let user = object["user"]
        let author = deleted && user.isMissing ? nil : try WeiboUser(user, dropped: &dropped)
        // Every picture in one size (thumbnails); a status without the list
        // (older answers) has its only picture as original_pic.
        var pictures: [URL] = []
        let listed = dropped.value(or: []) { () throws(WeiboDecodingError) in try object["pic_urls"].optionalArray() }
        for picture in listed.prefix(Self.maxPicturesRead) {
            let url = dropped.value(or: nil) { () throws(WeiboDecodingError) in try picture.object()["thumbnail_pic"].optionalURL() }
            if let url { pictures.append(url) }
        }
        if listed.count > Self.maxPicturesRead {
            dropped.note(WeiboDecodingError(path: object["pic_urls"].path, expected: "at most \(Self.maxPicturesRead) pictures", found: "\(listed.count)"))
        }
        if pictures.isEmpty, let original = dropped.value(or: nil, { () throws(WeiboDecodingError) in try object["original_pic"].optionalURL() }) {
            pictures.append(original)
        }
        let reposted = object["retweeted_status"]
        var repost: WeiboPost?
        if !reposted.isMissing {
            if depth >= 4 {
                dropped.note(WeiboDecodingError(path: reposted.path, expected: "at most 4 nested reposts", found: "more"))
            } else {
                // A repost that cannot be read is a field of this post: it goes, the post stays.
                do {
                    repost = try WeiboPost(reposted, depth: depth + 1, dropped: &dropped)
                } catch {
                    dropped.note(error)
                }
            }
        }
        let date = object["created_at"]
        self.init(
            id: id,
            text: dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["text"].optionalString() } ?? "",
            createdAt: deleted && date.isMissing ? nil : dropped.value(or: nil) { () throws(WeiboDecodingError) in try date.date() },
            user: author,
            repostsCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["reposts_count"].int(default: 0) },
            commentsCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["comments_count"].int(default: 0) },
            attitudesCount: dropped.value(or: 0) { () throws(WeiboDecodingError) in try object["attitudes_count"].int(default: 0) },
            pictures: pictures,
            repost: repost,
            isDeleted: deleted
        )
    }

    /// Reads a status object, dropping bad optional fields without a note.
    init(_ field: WeiboField, depth: Int = 0) throws(WeiboDecodingError) {
        var dropped = DroppedFields()
        try self.init(field, depth: depth, dropped: &dropped)
    }
}

extension WeiboComment {
    /// Reads a comment object: its id and its author are required; its
    /// text, date, the ids it points to and the post it is on are left out
    /// (and noted in `dropped`) when they are not what Weibo documents.
    init(_ field: WeiboField, dropped: inout DroppedFields) throws(WeiboDecodingError) {
        let object = try field.object()
        let id = try object.identifier(in: object)
        let author = try WeiboUser(object["user"], dropped: &dropped)
        let status = object["status"]
        let reply = object["reply_comment"]
        // The post is context: one that cannot be read does not cost the comment.
        var post: WeiboPost?
        if !status.isMissing {
            do {
                post = try WeiboPost(status, dropped: &dropped)
            } catch {
                dropped.note(error)
            }
        }
        self.init(
            id: id,
            text: dropped.value(or: "") { () throws(WeiboDecodingError) in try object["text"].string() },
            createdAt: dropped.value(or: nil) { () throws(WeiboDecodingError) in try object["created_at"].date() },
            user: author,
            postID: status.isMissing ? nil : dropped.value(or: nil) { () throws(WeiboDecodingError) in try status.identifier(in: try status.object()) },
            replyToID: reply.isMissing ? nil : dropped.value(or: nil) { () throws(WeiboDecodingError) in try reply.identifier(in: try reply.object()) },
            post: post
        )
    }

    /// Reads a comment object, dropping bad optional fields without a note.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        var dropped = DroppedFields()
        try self.init(field, dropped: &dropped)
    }
}

extension WeiboFavourite {
    /// Reads a favourite object: `{"status": {...}, "tags": [{"id", "tag"}], "favorited_time": "…"}`.
    /// The post's identity and the time it was kept (what the cache orders
    /// favourites by) are required; bad tags and the post's optional fields
    /// are left out and noted in `dropped`.
    init(_ field: WeiboField, dropped: inout DroppedFields) throws(WeiboDecodingError) {
        let object = try field.object()
        let post = try WeiboPost(object["status"], dropped: &dropped)
        let keptAt = try object["favorited_time"].date()
        var tags: [String] = []
        for tag in dropped.value(or: [], { () throws(WeiboDecodingError) in try object["tags"].optionalArray() }).prefix(100) {
            if let name = dropped.value(or: nil, { () throws(WeiboDecodingError) in try tag.object()["tag"].string() }), !name.isEmpty { tags.append(name) }
        }
        self.init(post: post, favouritedAt: keptAt, tags: tags)
    }

    /// Reads a favourite object, dropping bad optional fields without a note.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        var dropped = DroppedFields()
        try self.init(field, dropped: &dropped)
    }
}

/// Reads Weibo's answers into the model types.
///
/// ```swift
/// let page = try WeiboDecoder.timeline(from: response.body)   // a post that cannot be read is skipped and reported
/// ```
public enum WeiboDecoder {
    /// Parses `body` as JSON.
    static func json(_ body: [UInt8]) throws(WeiboDecodingError) -> WeiboField {
        do {
            return WeiboField(try JSONValue(parsing: body))
        } catch {
            throw WeiboDecodingError(path: "", expected: "JSON", found: error.description)
        }
    }

    /// A page of a timeline answer: `{"statuses": [...], "next_cursor": …}`
    /// (`home_timeline`, `user_timeline`), or `{"reposts": [...]}` with
    /// `key` `"reposts"` (`repost_timeline`). A post whose identity (id,
    /// author) cannot be read is skipped and reported in
    /// ``WeiboTimelinePage/skipped``; an optional field that cannot be read
    /// (a picture URL, a count, a date, the post it reposts) is left out and
    /// reported in ``WeiboTimelinePage/droppedFields``, the post kept. Only
    /// an answer that is not such a page at all is an error.
    public static func timeline(from body: [UInt8], key: String = "statuses") throws(WeiboDecodingError) -> WeiboTimelinePage {
        let object = try json(body).object()
        var page = WeiboTimelinePage(posts: [])
        var dropped = DroppedFields()
        for field in try object[key].array() {
            do {
                page.posts.append(try WeiboPost(field, dropped: &dropped))
            } catch {
                page.skipped.append(error)
            }
        }
        page.droppedFields = dropped.errors
        page.nextCursor = try? object["next_cursor"].digits()
        if page.nextCursor == "0" { page.nextCursor = nil }
        page.totalCount = try? object["total_number"].int()
        return page
    }

    /// A single status (`statuses/show`, `statuses/repost`, `statuses/share`).
    public static func post(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboPost { try WeiboPost(json(body)) }

    /// A single user (`users/show`, `friendships/create`, `friendships/destroy`).
    public static func user(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboUser { try WeiboUser(json(body)) }

    /// A single comment (`comments/create`).
    public static func comment(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboComment { try WeiboComment(json(body)) }

    /// A page of `comments/show`; a comment that cannot be read is skipped and reported.
    public static func comments(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboCommentPage {
        let object = try json(body).object()
        var comments: [WeiboComment] = []
        var skipped: [WeiboDecodingError] = []
        var dropped = DroppedFields()
        for field in try object["comments"].array() {
            do {
                comments.append(try WeiboComment(field, dropped: &dropped))
            } catch {
                skipped.append(error)
            }
        }
        let cursor = (try? object["next_cursor"].digits()).flatMap { $0 == "0" ? nil : $0 }
        var page = WeiboCommentPage(
            comments: comments, totalCount: try object["total_number"].int(default: comments.count), hasMore: cursor != nil, skipped: skipped,
            nextCursor: cursor)
        page.droppedFields = dropped.errors
        return page
    }

    /// A page of `favorites` (`{"favorites": [{"status", "tags",
    /// "favorited_time"}], "total_number"}`); a favourite that cannot be
    /// read is skipped and reported.
    public static func favourites(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboFavouritePage {
        let object = try json(body).object()
        var page = WeiboFavouritePage(favourites: [], totalCount: 0)
        var dropped = DroppedFields()
        for field in try object["favorites"].array() {
            do {
                page.favourites.append(try WeiboFavourite(field, dropped: &dropped))
            } catch {
                page.skipped.append(error)
            }
        }
        page.droppedFields = dropped.errors
        page.totalCount = max(0, try object["total_number"].int(default: page.favourites.count))
        return page
    }

    /// One favourite (`favorites/create`, `favorites/destroy`).
    public static func favourite(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboFavourite { try WeiboFavourite(json(body)) }

    /// The counts of `remind/unread_count`.
    public static func unreadCounts(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboUnreadCounts {
        let object = try json(body).object()
        // Counts are claims: a negative one reads as none.
        func count(_ key: String) throws(WeiboDecodingError) -> Int { max(0, try object[key].int(default: 0)) }
        return WeiboUnreadCounts(
            newPosts: try count("status"), newFans: try count("follower"), comments: try count("cmt"), mentionPosts: try count("mention_status"),
            mentionComments: try count("mention_cmt"), directMessages: try count("dm"))
    }

    /// A page of `friendships/friends` or `friendships/followers`
    /// (`{"users": [...], "next_cursor": 5, "total_number": 668}`); a user
    /// that cannot be read is skipped and reported.
    public static func users(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboUserPage {
        let object = try json(body).object()
        var page = WeiboUserPage(users: [], nextCursor: 0, totalCount: 0)
        var dropped = DroppedFields()
        for field in try object["users"].array() {
            do {
                page.users.append(try WeiboUser(field, dropped: &dropped))
            } catch {
                page.skipped.append(error)
            }
        }
        page.droppedFields = dropped.errors
        page.nextCursor = max(0, try object["next_cursor"].int(default: 0))
        page.totalCount = try object["total_number"].int(default: page.users.count)
        return page
    }

    /// The topics of `trends` (`[{"trend_id", "hotword", "num"}]`); one
    /// that cannot be read is left out.
    public static func topics(from body: [UInt8]) throws(WeiboDecodingError) -> [WeiboTopic] {
        try json(body).array().compactMap { field in
            guard let object = try? field.object(), let name = try? object["hotword"].string(), !name.isEmpty else { return nil }
            return WeiboTopic(
                id: try? object["trend_id"].digits(), name: name.trimmingCharacters(in: CharacterSet(charactersIn: "#")),
                postCount: (try? object["num"].int(default: 0)) ?? 0)
        }
    }

    /// The answers of `search/suggestions/users` (`[{"uid", "screen_name", "followers_count"}]`).
    public static func userSuggestions(from body: [UInt8]) throws(WeiboDecodingError) -> [WeiboUserSuggestion] {
        try json(body).array().map { (field: WeiboField) throws(WeiboDecodingError) in
            let object = try field.object()
            let id = try object["uid"].digits(expected: "a user id")
            return WeiboUserSuggestion(
                id: id, screenName: try object["screen_name"].string(), followersCount: try object["followers_count"].int(default: 0))
        }
    }

    /// What `oauth2/get_token_info` says about a token.
    public static func tokenInfo(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboTokenInfo {
        let object = try json(body).object()
        let uidText = try object["uid"].digits(expected: "a user id")
        let appKeyText = try object["appkey"].digits(expected: "an app key")
        // The documentation spells it both ways.
        let remaining = object["expire_in"].isMissing ? object["expires_in"] : object["expire_in"]
        return WeiboTokenInfo(
            uid: uidText, appKey: appKeyText, scope: try? object["scope"].optionalString(),
            createdAt: Date(timeIntervalSince1970: TimeInterval(try object["create_at"].int(default: 0))),
            expiresIn: TimeInterval(try remaining.int()))
    }
}

/// What Weibo says about an access token (`oauth2/get_token_info`): whose
/// it is, for which app, and how long it has left.
public struct WeiboTokenInfo: Hashable, Sendable {
    /// The user the token acts for.
    public var uid: String
    /// The app it was issued to.
    public var appKey: String
    /// The granted scope, if any.
    public var scope: String?
    /// When it was issued.
    public var createdAt: Date
    /// Seconds it has left.
    public var expiresIn: TimeInterval

    /// Creates token information.
    public init(uid: String, appKey: String, scope: String?, createdAt: Date, expiresIn: TimeInterval) {
        self.uid = uid
        self.appKey = appKey
        self.scope = scope
        self.createdAt = createdAt
        self.expiresIn = expiresIn
    }
}
