import Foundation
import ServiceKit
import ServiceKitTesting

extension FakeWeiboServer {
    /// The `/2/` endpoints, as `uid`.
    static func api(_ method: String, _ path: String, _ fields: [String: String], uid: String, state: inout State) -> Reply {
        let permissionNeeded = ["/2/search/suggestions/users.json": "search/suggestions/users"]
        if let endpoint = permissionNeeded[path], !state.permitted.contains(endpoint) {
            return error(10014, "Insufficient app permissions!", path: path, status: 403)
        }
        switch (method, path) {
        case ("GET", "/2/statuses/home_timeline.json"):
            markRead("home", ids: state.posts.keys, fields: fields, uid: uid, state: &state)
            return timelinePage(state.posts.values.map { $0 }, fields, state: state)
        case ("GET", "/2/statuses/user_timeline.json"):
            guard let user = lookUp(fields, state: state) ?? (fields["uid"] == nil && fields["screen_name"] == nil ? state.users[uid] : nil) else {
                return error(20003, "User does not exists!", path: path)
            }
            if user.uid != uid, !state.permitted.contains("statuses/user_timeline") {
                return error(21335, "Request uid's value must be the current user", path: path, status: 403)
            }
            return timelinePage(state.posts.values.filter { $0.uid == user.uid }, fields, state: state)
        case ("GET", "/2/statuses/repost_timeline.json"):
            guard let id = fields["id"].flatMap(Int64.init), state.posts[id] != nil else { return error(20101, "Target weibo does not exist!", path: path) }
            return timelinePage(state.posts.values.filter { $0.repostOf == id }, fields, key: "reposts", maxCount: 200, state: state)
        case ("GET", "/2/statuses/show.json"):
            guard let id = fields["id"].flatMap(Int64.init), let post = state.posts[id] else { return error(20101, "Target weibo does not exist!", path: path) }
            return json(render(post, state: state))
        case ("GET", "/2/trends.json"):
            guard let user = fields["uid"].flatMap({ state.users[$0] }) else { return error(20003, "User does not exists!", path: path) }
            let count = min(max(Int(fields["count"] ?? "") ?? 10, 1), 50)
            let page = max(Int(fields["page"] ?? "") ?? 1, 1)
            let slice = user.topics.enumerated().dropFirst((page - 1) * count).prefix(count)
            return json(
                .array(
                    slice.map { index, topic in
                        ["trend_id": .string(String(1_567_000 + index)), "hotword": .string(topic.name), "num": .string(String(topic.count))]
                    }))
        case ("GET", "/2/friendships/friends.json"), ("GET", "/2/friendships/followers.json"):
            guard let user = lookUp(fields, state: state) else { return error(20003, "User does not exists!", path: path) }
            if path.hasSuffix("followers.json"), user.uid == uid { state.newFans[uid] = 0 }
            if user.uid != uid { return error(21335, "Request uid's value must be the current user", path: path, status: 403) }
            let people = (path.hasSuffix("friends.json") ? user.following : user.followers).sorted()
            // At most 5 a page; the cursor is an offset; users who did not
            // authorise the app are dropped after the page is cut.
            let count = min(max(Int(fields["count"] ?? "") ?? 5, 1), 5)
            let cursor = max(Int(fields["cursor"] ?? "") ?? 0, 0)
            let slice = people.dropFirst(cursor).prefix(count)
            let shown = slice.compactMap { state.users[$0] }.filter(\.authorizedApp)
            let next = cursor + slice.count < people.count ? cursor + slice.count : 0
            return json([
                "users": .array(shown.map { render($0, viewer: uid, state: state) }), "next_cursor": .number(Double(next)),
                "previous_cursor": .number(Double(max(0, cursor - count))), "total_number": .number(Double(people.count)),
            ])
        case ("GET", "/2/comments/show.json"):
            guard let id = fields["id"].flatMap(Int64.init), state.posts[id] != nil else { return error(20101, "Target weibo does not exist!", path: path) }
            let all = state.comments.filter { $0.postID == id }.sorted { $0.id > $1.id }
            let count = min(Int(fields["count"] ?? "") ?? 50, 200)
            let page = max(Int(fields["page"] ?? "") ?? 1, 1)
            let slice = Array(all.dropFirst((page - 1) * count).prefix(count))
            let more = all.count > page * count
            return json([
                "comments": .array(slice.map { render($0, state: state) }), "total_number": .number(Double(all.count)),
                "next_cursor": .number(more ? Double(slice.last?.id ?? 0) : 0), "previous_cursor": 0,
            ])
        case ("POST", "/2/comments/create.json"):
            guard let id = fields["id"].flatMap(Int64.init), state.posts[id] != nil else { return error(20101, "Target weibo does not exist!", path: path) }
            guard let text = fields["comment"], !text.isEmpty else { return error(10016, "miss required parameter (comment)", path: path) }
            if TextCounting.weibo.length(of: text) > 140 { return error(20012, "Text too long, please input text less than 140 characters!", path: path) }
            if state.comments.contains(where: { $0.postID == id && $0.uid == uid && $0.text == text }) {
                return error(20019, "Repeat content!", path: path)
            }
            state.nextID += 1
            let comment = Comment(id: state.nextID, postID: id, uid: uid, text: text, createdAt: state.clockNow, rip: fields["rip"])
            state.comments.append(comment)
            state.posts[id]?.commentsCount += 1
            return json(render(comment, state: state))
        case ("POST", "/2/statuses/repost.json"):
            guard let id = fields["id"].flatMap(Int64.init), let original = state.posts[id] else {
                return error(20101, "Target weibo does not exist!", path: path)
            }
            guard fields["rip"] != nil else { return error(10016, "miss required parameter (rip)", path: path) }
            let text = fields["status"] ?? "转发微博"
            if TextCounting.weibo.length(of: text) > 140 { return error(20012, "Text too long, please input text less than 140 characters!", path: path) }
            state.nextID += 1
            let root = original.repostOf ?? original.id
            let repostID = state.nextID
            state.posts[repostID] = Post(id: repostID, uid: uid, text: text, createdAt: state.clockNow, repostOf: root, rip: fields["rip"])
            state.posts[root]?.repostsCount += 1
            if let mode = fields["is_comment"].flatMap(Int.init), mode > 0 {
                let target = mode == 2 ? root : id
                state.comments.append(Comment(id: state.nextID + 1, postID: target, uid: uid, text: text, createdAt: state.clockNow, rip: fields["rip"]))
                state.nextID += 1
                state.posts[target]?.commentsCount += 1
            }
            return json(render(state.posts[repostID]!, state: state))
        case ("POST", "/2/statuses/share.json"):
            guard let text = fields["status"], !text.isEmpty else { return error(10016, "miss required parameter (status)", path: path) }
            guard fields["rip"] != nil else { return error(10016, "miss required parameter (rip)", path: path) }
            if fields["pic"] == nil, fields["#multipart"] != nil {
                return error(10008, "Param error: without pic the form is application/x-www-form-urlencoded", path: path)
            }
            if text.range(of: "#[^#\\n]+#", options: .regularExpression) != nil {
                return error(10017, "Parameter (status)'s value invalid: #topic# is not allowed", path: path)
            }
            guard text.contains("https://") || text.contains("http://") else { return error(10017, "safe domain link missing", path: path) }
            if TextCounting.weibo.length(of: text) > 140 { return error(20012, "Text too long", path: path) }
            if state.posts.values.contains(where: { $0.uid == uid && $0.text == text }) { return error(20019, "Repeat content!", path: path) }
            state.nextID += 1
            var post = Post(id: state.nextID, uid: uid, text: text, createdAt: state.clockNow, rip: fields["rip"])
            post.receivedAt = Date()
            // The uploaded picture is kept by id; the picture host makes its sizes (of a stand-in 1200x900 picture).
            if fields["pic"] != nil { post.pictures = ["upload\(state.nextID)"] }
            state.posts[state.nextID] = post
            return json(render(state.posts[state.nextID]!, state: state))
        case ("GET", "/2/users/show.json"):
            guard let user = lookUp(fields, state: state) else { return error(20003, "User does not exists!", path: path) }
            return json(render(user, viewer: uid, state: state))
        case ("POST", "/2/friendships/create.json"), ("POST", "/2/friendships/destroy.json"):
            guard let user = lookUp(fields, state: state) else { return error(20003, "User does not exists!", path: path) }
            let follow = path.hasSuffix("create.json")
            if follow {
                if user.uid == uid { return error(20504, "You can not follow yourself!", path: path) }
                if state.users[uid]?.following.contains(user.uid) == true { return error(20506, "Already followed!", path: path) }
                state.users[uid]?.following.insert(user.uid)
                state.users[user.uid]?.followers.insert(uid)
            } else {
                guard state.users[uid]?.following.contains(user.uid) == true else { return error(20522, "Not followed!", path: path) }
                state.users[uid]?.following.remove(user.uid)
                state.users[user.uid]?.followers.remove(uid)
            }
            return json(render(state.users[user.uid]!, viewer: uid, state: state))
        case ("GET", "/2/search/suggestions/users.json"):
            let query = (fields["q"] ?? "").lowercased()
            let found = state.users.values.filter { $0.screenName.lowercased().contains(query) }.sorted { $0.uid < $1.uid }
            return json(
                .array(
                    found.map {
                        ["uid": .number(Double($0.uid) ?? 0), "screen_name": .string($0.screenName), "followers_count": .number(Double($0.followers.count))]
                    }))
        default:
            if let reply = forMe(method, path, fields, uid: uid, state: &state) { return reply }
            return error(10021, "HTTP method is not suported for this request!", path: path, status: 405)
        }
    }

    private static func lookUp(_ fields: [String: String], state: State) -> User? {
        if let uid = fields["uid"] { return state.users[uid] }
        if let name = fields["screen_name"] { return state.users.values.first { $0.screenName == name } }
        return nil
    }

    /// A timeline page as Weibo cuts it: `count` posts (`since_id`
    /// exclusive, `max_id` inclusive, `page`) are taken first, then the
    /// posts of users who did not authorise the app are dropped, so the
    /// page is short while more exist. `next_cursor` is the oldest id the
    /// cut reached (0 when it reached nothing).
    static func timelinePage(
        _ posts: [Post], _ fields: [String: String], key: String = "statuses", maxCount: Int = 100, state: State
    ) -> Reply {
        var posts = posts.sorted { $0.id > $1.id }
        if let since = fields["since_id"].flatMap(Int64.init) { posts.removeAll { $0.id <= since } }
        if let max = fields["max_id"].flatMap(Int64.init) { posts.removeAll { $0.id > max } }
        let count = min(max(Int(fields["count"] ?? "") ?? 20, 1), maxCount)
        let page = max(Int(fields["page"] ?? "") ?? 1, 1)
        let slice = posts.dropFirst((page - 1) * count).prefix(count)
        let shown = slice.filter { state.users[$0.uid]?.authorizedApp ?? false }
        return json([
            key: .array(shown.map { render($0, state: state) }), "total_number": .number(Double(posts.count)),
            "previous_cursor": 0, "next_cursor": .number(Double(slice.last?.id ?? 0)), "hasvisible": .bool(false),
        ])
    }

    static func render(_ post: Post, state: State) -> JSONValue {
        var object: [String: JSONValue] = [
            "created_at": .string(weiboDate(post.createdAt)), "id": .number(Double(post.id)), "idstr": .string(String(post.id)),
            "mid": .string(String(post.id)), "text": .string(post.text), "source": "<a href=\"https://photodeck.example\">PhotoDeck</a>",
            "favorited": .bool(false), "truncated": .bool(false), "reposts_count": .number(Double(post.repostsCount)),
            "comments_count": .number(Double(post.commentsCount)), "attitudes_count": 0, "pic_urls": .array([]),
            "visible": ["type": 0, "list_id": 0],
        ]
        if let user = state.users[post.uid] { object["user"] = render(user, viewer: nil, state: state) }
        // As Weibo lists them: every picture as a thumbnail, the first also in three sizes.
        if let first = post.pictures.first {
            let origin = state.pictureOrigin
            object["pic_urls"] = .array(post.pictures.map { ["thumbnail_pic": .string("\(origin)/thumbnail/\($0).jpg")] })
            object["thumbnail_pic"] = .string("\(origin)/thumbnail/\(first).jpg")
            object["bmiddle_pic"] = .string("\(origin)/bmiddle/\(first).jpg")
            object["original_pic"] = .string("\(origin)/large/\(first).jpg")
        }
        if let root = post.repostOf {
            if let original = state.posts[root] {
                object["retweeted_status"] = render(original, state: state)
            } else {
                object["retweeted_status"] = ["id": .number(Double(root)), "idstr": .string(String(root)), "deleted": "1", "text": "此微博已被作者删除。"]
            }
        }
        return .object(object)
    }

    static func render(_ comment: Comment, state: State) -> JSONValue {
        var object: [String: JSONValue] = [
            "created_at": .string(weiboDate(comment.createdAt)), "id": .number(Double(comment.id)), "idstr": .string(String(comment.id)),
            "text": .string(comment.text), "source": "PhotoDeck", "mid": .string(String(comment.id)),
        ]
        if let user = state.users[comment.uid] { object["user"] = render(user, viewer: nil, state: state) }
        if let post = state.posts[comment.postID] { object["status"] = render(post, state: state) }
        return .object(object)
    }

    static func render(_ user: User, viewer: String?, state: State) -> JSONValue {
        [
            "id": .number(Double(user.uid) ?? 0), "idstr": .string(user.uid), "screen_name": .string(user.screenName),
            "name": .string(user.screenName), "description": "", "profile_image_url": "https://tvax1.sinaimg.cn/crop.0.0.180.180.50/fake.jpg",
            "followers_count": .number(Double(user.followers.count)), "friends_count": .number(Double(user.following.count)),
            "statuses_count": .number(Double(state.posts.values.filter { $0.uid == user.uid }.count)),
            "following": .bool(viewer.map { state.users[$0]?.following.contains(user.uid) == true } ?? false), "verified": .bool(false),
            "gender": "m", "location": "北京",
        ]
    }

    /// `Tue May 31 17:46:55 +0800 2011`, in Beijing time.
    static func weiboDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 8 * 3600)
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        return formatter.string(from: date)
    }
}
