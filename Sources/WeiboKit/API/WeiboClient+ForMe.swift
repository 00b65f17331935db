import Foundation
import ServiceKit

extension WeiboClient {
    // MARK: What is addressed to the user

    /// Posts that mention the account (``WeiboAPI/mentions(_:count:authors:originalsOnly:token:uid:)``).
    public func mentions(
        _ query: WeiboTimelineQuery = .latest, count: Int = 20, authors: WeiboAuthorFilter = .everyone, originalsOnly: Bool = false,
        account: String? = nil
    ) async throws(WeiboError) -> WeiboTimelinePage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.mentions(
                query, count: count, authors: authors, originalsOnly: originalsOnly, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A page of the comments to, by or mentioning the account
    /// (``WeiboAPI/comments(_:_:count:authors:token:uid:)``).
    public func comments(
        _ box: WeiboCommentBox, _ query: WeiboTimelineQuery = .latest, count: Int = 50, authors: WeiboAuthorFilter = .everyone,
        account: String? = nil
    ) async throws(WeiboError) -> WeiboCommentPage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.comments(box, query, count: count, authors: authors, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A page of the account's favourites.
    public func favourites(page: Int = 1, count: Int = 20, account: String? = nil) async throws(WeiboError) -> WeiboFavouritePage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.favourites(page: page, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Keeps a post among the account's favourites; sent once.
    public func favourite(_ postID: String, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboFavourite> {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.favourite(postID, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Drops a post from the account's favourites; sent once.
    public func unfavourite(_ postID: String, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboFavourite> {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.unfavourite(postID, token: credential.accessToken, uid: credential.account)
        }
    }

    /// What is new for the account (``WeiboAPI/unreadCounts(of:token:)``):
    /// one request against the account's limits.
    public func unreadCounts(account: String? = nil) async throws(WeiboError) -> WeiboUnreadCounts {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.unreadCounts(of: credential.account, token: credential.accessToken)
        }
    }
}
