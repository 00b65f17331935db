public import Foundation
import ServiceKit

extension WeiboUser {
    /// Reads a user object.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        let object = try field.object()
        let screenName = try object["screen_name"].optionalString()
        let name = try object["name"].optionalString()
        let largeAvatar = try object["avatar_large"].optionalURL()
        let avatar = try object["profile_image_url"].optionalURL()
        self.init(
            id: try object.identifier(in: object),
            screenName: screenName ?? name ?? "",
            description: try object["description"].optionalString() ?? "",
            avatar: largeAvatar ?? avatar,
            followersCount: try object["followers_count"].int(default: 0),
            friendsCount: try object["friends_count"].int(default: 0),
            statusesCount: try object["statuses_count"].int(default: 0),
            following: try object["following"].bool(),
            isVerified: try object["verified"].bool()
        )
    }
}

extension WeiboPost {
    /// Reads a status object; `depth` stops a hostile answer nesting reposts without end.
    init(_ field: WeiboField, depth: Int = 0) throws(WeiboDecodingError) {
        let object = try field.object()
        let deleted = try object["deleted"].bool()
        let user = object["user"]
        // Every picture in one size (thumbnails); a status without the list
        // (older answers) has its only picture as original_pic.
        var pictures: [URL] = []
        for picture in try object["pic_urls"].optionalArray() {
            if let url = try picture.object()["thumbnail_pic"].optionalURL() { pictures.append(url) }
        }
        if pictures.isEmpty, let original = try object["original_pic"].optionalURL() { pictures.append(original) }
        let reposted = object["retweeted_status"]
        var repost: WeiboPost?
        if !reposted.isMissing {
            guard depth < 4 else { throw WeiboDecodingError(path: reposted.path, expected: "at most 4 nested reposts", found: "more") }
            repost = try WeiboPost(reposted, depth: depth + 1)
        }
        self.init(
            id: try object.identifier(in: object),
            text: try object["text"].optionalString() ?? "",
            createdAt: deleted && object["created_at"].isMissing ? Date(timeIntervalSince1970: 0) : try object["created_at"].date(),
            user: deleted && user.isMissing ? nil : try WeiboUser(user),
            repostsCount: try object["reposts_count"].int(default: 0),
            commentsCount: try object["comments_count"].int(default: 0),
            attitudesCount: try object["attitudes_count"].int(default: 0),
            pictures: pictures,
            repost: repost,
            isDeleted: deleted
        )
    }
}

extension WeiboComment {
    /// Reads a comment object.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        let object = try field.object()
        let status = object["status"]
        let reply = object["reply_comment"]
        self.init(
            id: try object.identifier(in: object),
            text: try object["text"].string(),
            createdAt: try object["created_at"].date(),
            user: try WeiboUser(object["user"]),
            postID: status.isMissing ? nil : try status.identifier(in: try status.object()),
            replyToID: reply.isMissing ? nil : try reply.identifier(in: try reply.object()),
            // The post is context: one that cannot be read does not cost the comment.
            post: status.isMissing ? nil : try? WeiboPost(status)
        )
    }
}

extension WeiboFavourite {
    /// Reads a favourite object: `{"status": {...}, "tags": [{"id", "tag"}], "favorited_time": "…"}`.
    init(_ field: WeiboField) throws(WeiboDecodingError) {
        let object = try field.object()
        var tags: [String] = []
        for tag in try object["tags"].optionalArray() {
            if let name = try? tag.object()["tag"].string(), !name.isEmpty { tags.append(name) }
        }
        self.init(post: try WeiboPost(object["status"]), favouritedAt: try object["favorited_time"].date(), tags: tags)
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
    /// `key` `"reposts"` (`repost_timeline`). A post that cannot be read
    /// is skipped and reported in ``WeiboTimelinePage/skipped``; only an
    /// answer that is not such a page at all is an error.
    public static func timeline(from body: [UInt8], key: String = "statuses") throws(WeiboDecodingError) -> WeiboTimelinePage {
        let object = try json(body).object()
        var page = WeiboTimelinePage(posts: [])
        for field in try object[key].array() {
            do {
                page.posts.append(try WeiboPost(field))
            } catch {
                page.skipped.append(error)
            }
        }
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
        for field in try object["comments"].array() {
            do {
                comments.append(try WeiboComment(field))
            } catch {
                skipped.append(error)
            }
        }
        let cursor = (try? object["next_cursor"].digits()).flatMap { $0 == "0" ? nil : $0 }
        return WeiboCommentPage(
            comments: comments, totalCount: try object["total_number"].int(default: comments.count), hasMore: cursor != nil, skipped: skipped,
            nextCursor: cursor)
    }

    /// A page of `favorites` (`{"favorites": [{"status", "tags",
    /// "favorited_time"}], "total_number"}`); a favourite that cannot be
    /// read is skipped and reported.
    public static func favourites(from body: [UInt8]) throws(WeiboDecodingError) -> WeiboFavouritePage {
        let object = try json(body).object()
        var page = WeiboFavouritePage(favourites: [], totalCount: 0)
        for field in try object["favorites"].array() {
            do {
                page.favourites.append(try WeiboFavourite(field))
            } catch {
                page.skipped.append(error)
            }
        }
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
        for field in try object["users"].array() {
            do {
                page.users.append(try WeiboUser(field))
            } catch {
                page.skipped.append(error)
            }
        }
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
