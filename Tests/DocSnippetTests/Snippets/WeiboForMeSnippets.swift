// The code samples of WeiboKit's mentions, comments, filters and unread counts, compiled.

import DesktopNotifications
import Foundation
import ServiceKit
import ShareKit
import WeiboKit
import WeiboShare

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

enum WeiboDraftSnippets {
    static func drafts(support: String, uid: String, jpeg: [UInt8]) async throws {
        let drafts = try await WeiboDraftStore.open(path: "\(support)/drafts.sqlite")
        var draft = try await drafts.create(account: uid)
        draft = try await drafts.setText("今天的晚霞", of: draft.id)  // saved as typed
        draft = try await drafts.addPicture(jpeg, to: draft.id)
    }

    static func sender(drafts: WeiboDraftStore, outbox: Outbox, draft: WeiboDraft, tonight: Date) async throws {
        let sender = WeiboDraftSender(drafts: drafts, outbox: outbox)
        try await sender.schedule(draft.id, at: tonight)
        let running = Task { await sender.run() }  // sends it at its time
        running.cancel()
    }

    static func reply(center: ShareCenter, post: WeiboPost) async throws {
        var reply = ShareContent(text: "说得好")
        reply.inReplyTo = post.id
        let outcome = try await center.share(reply, to: ShareTarget(provider: "weibo", destination: .comment, displayName: "Weibo"))
        _ = outcome
    }

    static func scheduled(
        outbox: Outbox, content: ShareContent, weibo: ShareTarget, scheduledAt: Date, saveBeforeQueuing: (UUID) async throws -> Void
    ) async throws {
        let id = UUID()
        try await saveBeforeQueuing(id)  // the caller's own record of the share first
        try await outbox.enqueue(content, to: weibo, id: id, notBefore: scheduledAt)
    }

    static func notification(post: WeiboPost) async throws {
        let note = DesktopNotification(summary: "@Alice mentioned you", body: post.text)
        try await DesktopNotifier().post(note)
    }

    static func notifier(text: String) async throws {
        let notifier = DesktopNotifier()
        if await notifier.isAvailable() {
            _ = try await notifier.post(DesktopNotification(summary: "@Alice mentioned you", body: text))
        }
    }
}
