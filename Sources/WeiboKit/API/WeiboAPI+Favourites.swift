import Foundation
import ServiceKit

extension WeiboAPI {
    /// The most favourites `favorites` returns in one page.
    public static let maxFavouritesPageSize = 50

    /// A page of the signed-in user's favourites (`2/favorites.json`),
    /// newest kept first; `page` counts from 1, `count` is clamped to
    /// 1...50. Weibo pages favourites by number only.
    public func favourites(page: Int = 1, count: Int = 20, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboFavouritePage {
        guard page >= 1 else { throw .invalidArgument("pages count from 1") }
        let items = [("page", String(page)), ("count", String(min(max(count, 1), Self.maxFavouritesPageSize)))]
        let endpoint = "favorites"
        let response = try await read(request("GET", "2/favorites.json", query: items, token: token), endpoint: endpoint, uid: uid)
        var found = try decode(response, endpoint: endpoint, WeiboDecoder.favourites)
        var seen = Set<String>()
        found.favourites = found.favourites.filter { seen.insert($0.id).inserted }
        return found
    }

    /// Keeps a post among the favourites (`2/favorites/create.json`); sent once.
    /// A post already kept is ``WeiboError/rejected(endpoint:code:message:)`` with 20704.
    public func favourite(_ postID: String, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboFavourite> {
        try await favouriteWrite("favorites/create", postID, token: token, uid: uid)
    }

    /// Drops a post from the favourites (`2/favorites/destroy.json`); sent once.
    /// A post not kept is ``WeiboError/rejected(endpoint:code:message:)`` with 20705.
    public func unfavourite(_ postID: String, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboFavourite> {
        try await favouriteWrite("favorites/destroy", postID, token: token, uid: uid)
    }

    private func favouriteWrite(_ endpoint: String, _ postID: String, token: String, uid: String?) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboFavourite>
    {
        try Self.checkID(postID, "the post id")
        let request = request("POST", "2/\(endpoint).json", form: URLEncodedForm([("id", postID)]), token: token)
        return try await write(request, endpoint: endpoint, uid: uid, decode: WeiboDecoder.favourite)
    }
}
