import Foundation
import ServiceKit

extension WeiboAPI {
    /// A user's profile (`2/users/show.json`).
    public func user(_ who: WeiboUserReference, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboUser {
        try who.check()
        let endpoint = "users/show"
        let response = try await read(request("GET", "2/users/show.json", query: [who.queryItem], token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.user)
    }

    /// Follows a user (`2/friendships/create.json`), by uid or screen name; sent once.
    public func follow(_ who: WeiboUserReference, endUserIP: String? = nil, token: String, uid: String? = nil) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboUser>
    {
        try await friendship("create", who, endUserIP: endUserIP, token: token, uid: uid)
    }

    /// Stops following a user (`2/friendships/destroy.json`), by uid or screen name; sent once.
    public func unfollow(_ who: WeiboUserReference, endUserIP: String? = nil, token: String, uid: String? = nil) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboUser>
    {
        try await friendship("destroy", who, endUserIP: endUserIP, token: token, uid: uid)
    }

    private func friendship(_ action: String, _ who: WeiboUserReference, endUserIP: String?, token: String, uid: String?) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboUser>
    {
        try who.check()
        let form = URLEncodedForm([who.queryItem, ("rip", try self.endUserIP(endUserIP))])
        let request = request("POST", "2/friendships/\(action).json", form: form, token: token)
        return try await write(request, endpoint: "friendships/\(action)", uid: uid, decode: WeiboDecoder.user)
    }

    /// The most people `friendships/friends` and `friendships/followers` return a page.
    public static let maxPeoplePerPage = 5

    /// Whom a person follows (`2/friendships/friends.json`), a page at a
    /// time from `cursor` (0 for the first). Weibo answers only for the
    /// signed-in user (else ``WeiboError/notPermitted(endpoint:code:message:)``),
    /// returns at most ``maxPeoplePerPage`` a page, and only people who
    /// also authorised the app: page until ``WeiboUserPage/nextCursor`` is 0.
    public func follows(of who: WeiboUserReference, cursor: Int = 0, count: Int = maxPeoplePerPage, token: String, uid: String? = nil)
        async throws(WeiboError) -> WeiboUserPage
    {
        try await people("friendships/friends", who, cursor: cursor, count: count, token: token, uid: uid)
    }

    /// A person's fans (`2/friendships/followers.json`), paged like ``follows(of:cursor:count:token:uid:)``.
    public func fans(of who: WeiboUserReference, cursor: Int = 0, count: Int = maxPeoplePerPage, token: String, uid: String? = nil)
        async throws(WeiboError) -> WeiboUserPage
    {
        try await people("friendships/followers", who, cursor: cursor, count: count, token: token, uid: uid)
    }

    private func people(_ endpoint: String, _ who: WeiboUserReference, cursor: Int, count: Int, token: String, uid: String?) async throws(WeiboError)
        -> WeiboUserPage
    {
        try who.check()
        guard cursor >= 0 else { throw .invalidArgument("a cursor is 0 or more") }
        let items = [who.queryItem, ("cursor", String(cursor)), ("count", String(min(max(count, 1), Self.maxPeoplePerPage)))]
        let response = try await read(request("GET", "2/\(endpoint).json", query: items, token: token), endpoint: endpoint, uid: uid)
        var page = try decode(response, endpoint: endpoint, WeiboDecoder.users)
        // A cursor that does not move on would page forever: it ends the list.
        if page.nextCursor <= cursor { page.nextCursor = 0 }
        return page
    }

    /// The topics a person follows (`2/trends.json`), a page at a time.
    public func topics(of userID: String, page: Int = 1, count: Int = 10, token: String, uid: String? = nil) async throws(WeiboError) -> [WeiboTopic] {
        try Self.checkID(userID, "the user id")
        let items = [("uid", userID), ("page", String(max(page, 1))), ("count", String(min(max(count, 1), 50)))]
        let endpoint = "trends"
        let response = try await read(request("GET", "2/trends.json", query: items, token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.topics)
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
}
