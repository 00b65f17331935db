import ExampleSupport
import Foundation
import ShareKit
import WeiboKit

/// The JSON shapes weibo-client prints.
enum Output {
    static func iso8601(_ date: Date) -> String { date.formatted(.iso8601) }

    /// A date for a line: ISO 8601, or "(no date)" when Weibo's answer gave none that reads.
    static func iso8601(_ date: Date?) -> String { date.map(iso8601) ?? "(no date)" }

    /// A date for JSON: ISO 8601, or `null`.
    static func json(_ date: Date?) -> Any { date.map(iso8601) ?? NSNull() }

    static func post(_ post: WeiboPost) -> [String: Any] {
        [
            "id": post.id, "text": post.text, "createdAt": json(post.createdAt),
            "user": post.user.map { ["id": $0.id, "screenName": $0.screenName] as [String: Any] } ?? NSNull(),
            "repostsCount": post.repostsCount, "commentsCount": post.commentsCount, "pictures": post.pictures.map(\.absoluteString),
            "repost": post.repost.map { Self.post($0) as Any } ?? NSNull(),
        ]
    }

    static func user(_ user: WeiboUser) -> [String: Any] {
        [
            "id": user.id, "screenName": user.screenName, "followersCount": user.followersCount, "friendsCount": user.friendsCount,
            "statusesCount": user.statusesCount, "following": user.following,
        ]
    }

    static func account(_ account: WeiboAccount, current: Bool) -> [String: Any] {
        [
            "uid": account.uid, "screenName": account.screenName, "current": current,
            "expiresAt": account.expiresAt.map { iso8601($0) as Any } ?? NSNull(), "needsSignIn": account.needsSignIn,
        ]
    }

    static func comment(_ comment: WeiboComment) -> [String: Any] {
        [
            "id": comment.id, "text": comment.text, "createdAt": json(comment.createdAt),
            "user": ["id": comment.user.id, "screenName": comment.user.screenName],
            "postID": comment.postID.map { $0 as Any } ?? NSNull(),
        ]
    }

    /// A timeline row: a post, `{"gap": {"newerThan", "olderThan"}}`, or
    /// `{"filtered": {"id", "reason"}}`.
    static func item(_ item: WeiboTimelineItem) -> [String: Any] {
        switch item {
        case .entry(let post): Self.post(post)
        case .gap(let gap): Self.gap(gap)
        case .filtered(let marker): Self.filtered(marker)
        }
    }

    /// A row of comments: a comment, a gap or a filtered comment's marker.
    static func item(_ item: WeiboCommentItem) -> [String: Any] {
        switch item {
        case .entry(let comment): Self.comment(comment)
        case .gap(let gap): Self.gap(gap)
        case .filtered(let marker): Self.filtered(marker)
        }
    }

    static func gap(_ gap: WeiboTimelineGap) -> [String: Any] { ["gap": ["newerThan": gap.newerThan, "olderThan": gap.olderThan]] }

    static func filtered(_ marker: WeiboFilteredItem) -> [String: Any] { ["filtered": ["id": marker.id, "reason": marker.match.description]] }

    /// A filtered row as one line.
    static func describe(_ marker: WeiboFilteredItem) -> String { "  ⊘ \(marker.id.oneLine)  \(marker.match.description.oneLine)" }

    static func topic(_ topic: WeiboTopic) -> [String: Any] {
        ["id": topic.id.map { $0 as Any } ?? NSNull(), "name": topic.name, "postCount": topic.postCount]
    }

    static func suggestion(_ user: WeiboUserSuggestion) -> [String: Any] {
        ["id": user.id, "screenName": user.screenName, "followersCount": user.followersCount]
    }

    /// Prints `value` as JSON (keys sorted, UTF-8 unescaped but for the
    /// controls a terminal would act on).
    static func printJSON(_ value: Any) throws {
        Console.json(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// A post as text lines; its pictures listed as URLs unless `listsPictures` is false (they are drawn).
    static func describe(_ post: WeiboPost, indent: String = "", listsPictures: Bool = true) -> String {
        var lines = ["\(indent)\(post.id.oneLine)  @\(post.user?.screenName.oneLine ?? "(deleted)")  \(iso8601(post.createdAt))"]
        lines.append("\(indent)  \(post.text.replacingOccurrences(of: "\n", with: "\n\(indent)  "))")
        if listsPictures { for picture in post.pictures { lines.append("\(indent)  [picture] \(picture.absoluteString.oneLine)") } }
        if let repost = post.repost { lines.append(describe(repost, indent: indent + "  ↻ ", listsPictures: listsPictures)) }
        if indent.isEmpty { lines.append("  reposts \(post.repostsCount) · comments \(post.commentsCount)") }
        return lines.joined(separator: "\n")
    }

    /// A comment as one line; `withPost` adds the post it is on, as a second line.
    static func describe(_ comment: WeiboComment, withPost: Bool = false) -> String {
        let line = "\(comment.id.oneLine)  @\(comment.user.screenName.oneLine): \(comment.text.oneLine)"
        guard withPost, let post = comment.post else { return line }
        return line + "\n    on \(post.id.oneLine) @\(post.user?.screenName.oneLine ?? "(deleted)"): \(String(post.text.prefix(60)).oneLine)"
    }

    /// A draft, with its outbox entry when it is queued.
    static func draft(_ draft: WeiboDraft, entry: Outbox.Entry?) -> [String: Any] {
        [
            "id": draft.id.uuidString.lowercased(), "text": draft.text, "target": describe(draft.target), "state": draft.state.rawValue,
            "pictures": draft.pictures.count, "scheduledAt": draft.scheduledAt.map { iso8601($0) as Any } ?? NSNull(),
            "lastError": (entry?.lastError ?? draft.lastError).map { $0 as Any } ?? NSNull(),
            "notBefore": entry?.notBefore.map { iso8601($0) as Any } ?? NSNull(),
        ]
    }

    /// "post", "comment on ID", "repost of ID".
    static func describe(_ target: WeiboDraft.Target) -> String {
        switch target {
        case .post: "post"
        case .comment(let id): "comment on \(id)"
        case .repost(let id): "repost of \(id)"
        }
    }

    /// "3 min", "2 h", "5 d".
    static func age(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<120: "\(Int(seconds)) s"
        case ..<7_200: "\(Int(seconds / 60)) min"
        case ..<172_800: "\(Int(seconds / 3_600)) h"
        default: "\(Int(seconds / 86_400)) d"
        }
    }
}
