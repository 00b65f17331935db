import ExampleSupport
import Foundation
import ServiceKit
import WeiboKit

extension Session {
    func cache() async throws -> WeiboTimelineCache { try await WeiboTimelineCache.open(path: arguments.store + "/timeline.sqlite") }

    /// A timeline (home, or one person's posts): the newest page, the page
    /// below the oldest cached post, or the posts missing in a gap; from
    /// the cache alone with --offline or when Weibo cannot be reached.
    func timeline(_ id: WeiboTimelineID, page: Arguments.TimelinePage, offline: Bool) async throws -> Int32 {
        var snapshot: WeiboTimelineSnapshot
        var shown: [WeiboTimelineItem]
        let session = WeiboTimelineSession(client: client, cache: try await cache(), timeline: id, pageSize: arguments.count)
        let reachable = offline ? false : await canReachWeibo()
        if !reachable {
            snapshot = try await session.cached()
            if !offline { snapshot.failure = .network(UnderlyingError(message: "no route to \(client.api.base.host ?? "Weibo")")) }
            shown = Array(snapshot.timeline.items.prefix(arguments.count))
        } else {
            switch page {
            case .newest:
                snapshot = try await session.refresh()
                shown = Array(snapshot.timeline.items.prefix(arguments.count))
            case .older:
                let previousOldest = try await session.cached().timeline.posts.last?.sortKey
                snapshot = try await session.loadOlder()
                // Favourites are in the order they were kept, not by id: what the page brought.
                shown = id == .favourites ? (snapshot.page?.posts ?? []).map { .entry($0) } : Self.items(of: snapshot.timeline, below: previousOldest)
            case .fill(let above):
                guard let gap = try await session.cached().timeline.gaps.first(where: { $0.newerThan == above }) else {
                    throw CLIError("no gap below post \(above.oneLine): the posts under it are all loaded (or it is not cached)")
                }
                snapshot = try await session.fill(gap)
                shown = Self.items(of: snapshot.timeline, from: gap)
            }
        }
        reportSkipped(snapshot.skipped, dropped: snapshot.droppedFields, what: "posts")
        let filters = try await filters()
        snapshot.timeline = snapshot.timeline.filtered(by: filters)
        shown = shown.map { $0.filtered(by: filters) }
        var newerLine: String?
        if page == .newest, id.keepsReadingPosition, let uid = await accounts.current()?.uid {
            let cache = try await cache()
            if !arguments.fromTop, let saved = try await cache.readingPosition(id, account: uid),
                let restored = snapshot.timeline.restoring(saved)
            {
                shown = Array(snapshot.timeline.items[restored.index...].prefix(arguments.count))
                if restored.newerPostCount > 0 {
                    newerLine = "\(restored.newerPostCount) newer post\(restored.newerPostCount == 1 ? "" : "s") above (weibo-client \(Self.topCommand(id)))"
                }
            }
            if let first = shown.lazy.compactMap(\.post).first {
                try await cache.saveReadingPosition(WeiboReadingPosition(postID: first.id), timeline: id, account: uid)
            }
        } else if case .older = page, id.keepsReadingPosition, let uid = await accounts.current()?.uid, let first = shown.lazy.compactMap(\.post).first {
            try await cache().saveReadingPosition(WeiboReadingPosition(postID: first.id), timeline: id, account: uid)
        }
        if !reachable || snapshot.isOffline {
            guard !snapshot.timeline.posts.isEmpty else {
                throw CLIError(
                    offline ? "no cached timeline; run it online first" : "cannot reach Weibo and nothing is cached: \(snapshot.failure.map { "\($0)" } ?? "")")
            }
            let age = snapshot.timeline.age(at: Date()).map { "from \(Output.age($0)) ago" } ?? "never refreshed"
            let reason = snapshot.failure.map { ": \($0)" } ?? ""
            Console.error("offline\(reason); showing \(snapshot.timeline.posts.count) cached posts \(age)")
            if page != .newest { shown = [] }
        }
        if arguments.json {
            if let newerLine { Console.error(newerLine) }
            try Output.printJSON(shown.map { Output.item($0) })
            return 0
        }
        if let newerLine { Console.line(newerLine) }
        await printTimeline(shown, id: id)
        return 0
    }

    /// The command that shows list `id` from its newest post.
    static func topCommand(_ id: WeiboTimelineID) -> String {
        switch id {
        case .mentions: "mentions"
        case .favourites: "favourites"
        default: "timeline --top"
        }
    }

    /// The command that fills `gap` of timeline `id`.
    static func fillCommand(_ id: WeiboTimelineID, _ gap: WeiboTimelineGap) -> String {
        switch id {
        case .home: "timeline --fill \(gap.newerThan)"
        case .user(let uid): "user \(uid) --posts --fill \(gap.newerThan)"
        case .mentions: "mentions --fill \(gap.newerThan)"
        case .comments(let box): "comments \(Self.flag(box)) --fill \(gap.newerThan)"
        case .favourites: "favourites --older"
        }
    }

    /// `--to-me`, `--by-me`, `--mentions`.
    static func flag(_ box: WeiboCommentBox) -> String {
        switch box {
        case .toMe: "--to-me"
        case .byMe: "--by-me"
        case .mentions: "--mentions"
        }
    }

    /// The rows below the post `oldest` (all rows when `nil`).
    static func items(of timeline: CachedWeiboTimeline, below oldest: Int64?) -> [WeiboTimelineItem] {
        guard let oldest else { return timeline.items }
        guard let index = timeline.items.firstIndex(where: { $0.post.map { $0.sortKey < oldest } ?? false }) else { return [] }
        return Array(timeline.items[index...])
    }

    /// The rows where `gap` was: strictly between its two posts.
    static func items(of timeline: CachedWeiboTimeline, from gap: WeiboTimelineGap) -> [WeiboTimelineItem] {
        let (upper, lower) = (Int64(gap.newerThan) ?? .max, Int64(gap.olderThan) ?? 0)
        guard let start = timeline.items.firstIndex(where: { $0.post?.sortKey == upper }),
            let end = timeline.items.firstIndex(where: { $0.post?.sortKey == lower }), start < end
        else { return [] }
        return Array(timeline.items[(start + 1)..<end])
    }
}

extension WeiboTimelineID {
    /// Whether weibo-client keeps a reading position for it: the lists read top to bottom.
    var keepsReadingPosition: Bool {
        switch self {
        case .home, .mentions, .favourites: true
        default: false
        }
    }
}
