// The code samples of WeiboKit's mentions, comments, filters and unread counts, compiled.

import Foundation
import ServiceKit
import WeiboKit

enum WeiboForMeSnippets {
    static func filters(cache: WeiboTimelineCache, uid: String) async throws -> CachedWeiboTimeline {
        var filters = WeiboFilters()
        filters.mute(word: "剧透")  // matches inside Chinese text, which has no spaces
        filters.mute(word: "cat", wholeWord: true)  // "cat" and "猫cat", not "concatenate"
        filters.mutedUsers.insert("1750000004")
        let shown = try await cache.timeline(account: uid).filtered(by: filters)
        return shown
    }

    static func filterStore(support: String, uid: String) async throws -> WeiboFilters {
        let store = WeiboFilterStore(path: "\(support)/filters.json")
        try await store.update(account: uid) { $0.mute(word: "剧透") }
        let filters = try await store.filters(account: uid)
        return filters
    }

    static func comments(client: WeiboClient, cache: WeiboTimelineCache, render: (WeiboCommentItem) -> Void) async throws {
        let toMe = WeiboCommentsSession(client: client, cache: cache, box: .toMe)
        let snapshot = try await toMe.refresh()
        for item in snapshot.comments.items { render(item) }  // comments, and gap rows where some may be missing
    }

    static func poller(client: WeiboClient, uid: String, refreshMentions: () async -> Void) async {
        let poller = WeiboUnreadPoller(client: client)
        for await event in poller.events(account: uid) {
            if case .counts(let counts) = event, counts.hasNewForMe { await refreshMentions() }
        }
    }
}
