import Foundation
import ServiceKit
import ServiceKitTesting

extension FakeWeiboServer {
    /// What is addressed to `uid`: mentions, the comment lists, favourites.
    /// `nil` for any other path.
    static func forMe(_ method: String, _ path: String, _ fields: [String: String], uid: String, state: inout State) -> Reply? {
        let name = "@" + (state.users[uid]?.screenName ?? uid)
        let following = state.users[uid]?.following ?? []
        // filter_by_author: 0 everyone, 1 people the user follows, 2 the others.
        let authorFilter = Int(fields["filter_by_author"] ?? "0") ?? 0
        func keeps(author: String) -> Bool {
            switch authorFilter {
            case 1: following.contains(author)
            case 2: !following.contains(author)
            default: true
            }
        }
        switch (method, path) {
        case ("GET", "/2/statuses/mentions.json"):
            var mentioning = state.posts.values.filter { $0.text.contains(name) && $0.uid != uid && keeps(author: $0.uid) }
            if fields["filter_by_type"] == "1" { mentioning.removeAll { $0.repostOf != nil } }
            markRead("mentions", ids: mentioning.map(\.id), fields: fields, uid: uid, state: &state)
            return timelinePage(mentioning, fields, maxCount: 200, state: state)
        case ("GET", "/2/comments/to_me.json"), ("GET", "/2/comments/by_me.json"), ("GET", "/2/comments/mentions.json"):
            let list: [Comment]
            if path.hasSuffix("to_me.json") {
                list = state.comments.filter { $0.uid != uid && state.posts[$0.postID]?.uid == uid && keeps(author: $0.uid) }
                markRead("cmt", ids: list.map(\.id), fields: fields, uid: uid, state: &state)
            } else if path.hasSuffix("by_me.json") {
                list = state.comments.filter { $0.uid == uid }
            } else {
                list = state.comments.filter { $0.uid != uid && $0.text.contains(name) && keeps(author: $0.uid) }
                markRead("mention_cmt", ids: list.map(\.id), fields: fields, uid: uid, state: &state)
            }
            return commentPage(list, fields, state: state)
        case ("GET", "/2/favorites.json"):
            let kept = Array(state.favourites[uid, default: []].reversed())
            let count = min(max(Int(fields["count"] ?? "") ?? 50, 1), 50)
            let page = max(Int(fields["page"] ?? "") ?? 1, 1)
            let slice = kept.dropFirst((page - 1) * count).prefix(count)
            return json([
                "favorites": .array(slice.map { favourite($0, state: state) }), "total_number": .number(Double(kept.count)),
            ])
        case ("POST", "/2/favorites/create.json"), ("POST", "/2/favorites/destroy.json"):
            guard let id = fields["id"].flatMap(Int64.init), state.posts[id] != nil else { return error(20101, "Target weibo does not exist!", path: path) }
            let kept = state.favourites[uid, default: []]
            if path.hasSuffix("create.json") {
                if kept.contains(where: { $0.postID == id }) { return error(20704, "This status has been collected already!", path: path) }
                state.favourites[uid, default: []].append((id, state.clockNow))
                return json(favourite((id, state.clockNow), state: state))
            }
            guard let index = kept.firstIndex(where: { $0.postID == id }) else { return error(20705, "This status has not been collected!", path: path) }
            let removed = kept[index]
            state.favourites[uid]?.remove(at: index)
            return json(favourite(removed, state: state))
        default:
            return nil
        }
    }

    /// When the first page of a list is read (no `max_id`, page 1), its
    /// unread count resets: the newest id becomes the read mark.
    static func markRead<IDs: Sequence<Int64>>(_ list: String, ids: IDs, fields: [String: String], uid: String, state: inout State) {
        guard fields["max_id"] == nil, (Int(fields["page"] ?? "1") ?? 1) <= 1 else { return }
        if let newest = ids.max() { state.readMarks[uid, default: [:]][list] = max(newest, state.readMarks[uid]?[list] ?? 0) }
    }

    /// What `remind/unread_count` answers for `uid`.
    static func unreadCounts(of uid: String, state: State) -> JSONValue {
        let name = "@" + (state.users[uid]?.screenName ?? uid)
        func after(_ list: String) -> Int64 { state.readMarks[uid]?[list] ?? 0 }
        let visible = state.posts.values.filter { state.users[$0.uid]?.authorizedApp ?? false }
        let newPosts = visible.filter { $0.id > after("home") && $0.uid != uid }.count
        let mentions = state.posts.values.filter { $0.text.contains(name) && $0.uid != uid && $0.id > after("mentions") }.count
        let toMe = state.comments.filter { $0.uid != uid && state.posts[$0.postID]?.uid == uid && $0.id > after("cmt") }.count
        let mentionComments = state.comments.filter { $0.uid != uid && $0.text.contains(name) && $0.id > after("mention_cmt") }.count
        return [
            "status": .number(Double(newPosts)), "follower": .number(Double(state.newFans[uid] ?? 0)), "cmt": .number(Double(toMe)), "dm": 0,
            "mention_status": .number(Double(mentions)), "mention_cmt": .number(Double(mentionComments)), "group": 0, "private_group": 0,
            "notice": 0, "invite": 0, "badge": 0, "photo": 0, "msgbox": 0,
        ]
    }

    /// A page of comments as Weibo cuts it: `count` (default 50, at most
    /// 200) are taken by `since_id`, `max_id` and `page`, then the
    /// comments of people who did not authorise the app are dropped, so
    /// the page is short while more exist; `next_cursor` is the oldest id
    /// the cut reached.
    static func commentPage(_ comments: [Comment], _ fields: [String: String], state: State) -> Reply {
        var list = comments.sorted { $0.id > $1.id }
        if let since = fields["since_id"].flatMap(Int64.init) { list.removeAll { $0.id <= since } }
        if let max = fields["max_id"].flatMap(Int64.init) { list.removeAll { $0.id > max } }
        let count = min(max(Int(fields["count"] ?? "") ?? 50, 1), 200)
        let page = max(Int(fields["page"] ?? "") ?? 1, 1)
        let slice = list.dropFirst((page - 1) * count).prefix(count)
        let shown = slice.filter { state.users[$0.uid]?.authorizedApp ?? false }
        return json([
            "comments": .array(shown.map { render($0, state: state) }), "total_number": .number(Double(list.count)), "previous_cursor": 0,
            "next_cursor": .number(Double(slice.count == count ? (slice.last?.id ?? 0) : 0)), "hasvisible": .bool(false),
        ])
    }

    /// A favourite object: the post (a deleted one as Weibo shows it), its tags, when it was kept.
    static func favourite(_ kept: (postID: Int64, at: Date), state: State) -> JSONValue {
        let status: JSONValue
        if let post = state.posts[kept.postID] {
            status = render(post, state: state)
        } else {
            status = ["id": .number(Double(kept.postID)), "idstr": .string(String(kept.postID)), "deleted": "1", "text": "此微博已被作者删除。"]
        }
        return ["status": status, "tags": .array([]), "favorited_time": .string(weiboDate(kept.at))]
    }
}
