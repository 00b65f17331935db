import Foundation
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import WeiboKit

/// A model of Weibo's timeline as the app sees it: posts arrive with
/// growing ids, some by users who never authorised the app; a page takes
/// `count` posts first and drops the hidden ones after, and reports where
/// its cut stopped in one of the cursor conventions a server might use
/// (the oldest id looked at, the next `max_id`, or none at all).
struct TimelineModel {
    enum CursorStyle: CaseIterable { case oldestLookedAt, nextMaxID, missing }

    var posts: [(id: Int64, visible: Bool)] = []  // oldest first
    var nextID: Int64 = 1_000
    var returned: Set<Int64> = []
    let cursorStyle: CursorStyle

    mutating func add(_ count: Int, visibleFraction: Double, using random: inout SeededGenerator) {
        for _ in 0..<count {
            nextID += Int64.random(in: 1...9, using: &random)
            posts.append((nextID, Double.random(in: 0..<1, using: &random) < visibleFraction))
        }
    }

    mutating func page(_ query: WeiboTimelineQuery, count: Int) -> WeiboTimelinePage {
        var raw = posts.reversed().map { $0 }
        switch query {
        case .older(let id): raw.removeAll { $0.id > Int64(id)! - 1 }
        case .newer(let id): raw.removeAll { $0.id <= Int64(id)! }
        default: break
        }
        let slice = raw.prefix(count)
        let shown = slice.filter(\.visible).map { $0.id }
        returned.formUnion(shown)
        let cursor: String? =
            switch (cursorStyle, slice.last) {
            case (.oldestLookedAt, let last?): String(last.id)
            case (.nextMaxID, let last?): String(last.id - 1)
            default: nil
            }
        return WeiboTimelinePage(
            posts: shown.map { WeiboPost(id: String($0), text: "", createdAt: Date(timeIntervalSince1970: 0), user: nil) }, nextCursor: cursor)
    }

    var visibleIDs: [Int64] { posts.filter(\.visible).map(\.id) }
}

/// The model behind a lock, as a session's page source.
final class ModelServer: Sendable {
    let model: Mutex<TimelineModel>
    init(_ model: TimelineModel) { self.model = Mutex(model) }

    func page(_ query: WeiboTimelineQuery, count: Int) -> WeiboTimelinePage { model.withLock { $0.page(query, count: count) } }
}

@Suite("Weibo timeline cache against a model of Weibo", .dedicatedThreads)
struct TimelinePropertyTests {
    /// Runs (more with PHOTODECK_PROPERTY_RUNS, for a longer search).
    static let runs = ProcessInfo.processInfo.environment["PHOTODECK_PROPERTY_RUNS"].flatMap(Int.init) ?? 150

    /// Every post Weibo returned is cached, and between two cached posts
    /// shown as continuous there is no visible post the cache lacks.
    static func violations(_ outline: [(id: Int64, gap: WeiboTimelineGap?)], model: TimelineModel) -> [String] {
        let cached = Set(outline.map(\.id))
        var found = model.returned.subtracting(cached).sorted().map { "post \($0) was returned but is not cached" }
        let visible = model.visibleIDs
        for (index, row) in outline.enumerated() where index + 1 < outline.count && row.gap == nil {
            let below = outline[index + 1].id
            if let missing = visible.first(where: { $0 > below && $0 < row.id }) {
                found.append("post \(missing) is missing between \(row.id) and \(below) with no gap row")
            }
        }
        return found
    }

    /// A session whose pages come from `server`, for account "a".
    static func session(_ server: ModelServer, cache: WeiboTimelineCache, pageSize: Int, timeline: WeiboTimelineID = .home) throws
        -> WeiboTimelineSession
    {
        let client = WeiboClient(
            api: WeiboAPI(base: URL(string: "http://127.0.0.1:9")!, http: ServiceClient(transport: CurlTransport())),
            accounts: try WeiboAccountStore(credentials: InMemoryCredentialStore()))
        return WeiboTimelineSession(
            client: client, cache: cache, account: "a", timeline: timeline, pageSize: pageSize, signedIn: { "a" },
            source: { query, count, _ in server.page(query, count: count) })
    }

    @Test(
        "random refreshes, loads and fills, with short pages and any cursor convention: nothing is lost without a gap, and filling converges",
        arguments: [WeiboTimelineID.home, .mentions, .comments(.toMe)])
    func neverLosesAPost(_ timeline: WeiboTimelineID) async throws {
        var failures: [String] = []
        for seed in 0..<UInt64(Self.runs) {
            var random = SeededGenerator(seed: seed)
            var initial = TimelineModel(cursorStyle: TimelineModel.CursorStyle.allCases.randomElement(using: &random)!)
            let visibleFraction = Double.random(in: 0.2...1, using: &random)
            initial.add(Int.random(in: 0...60, using: &random), visibleFraction: visibleFraction, using: &random)
            let server = ModelServer(initial)
            let cache = try await WeiboTimelineCache.open(path: ":memory:", maxPostsPerAccount: 100_000)
            func check(_ what: @autoclosure () -> String) async throws -> Bool {
                let problems = Self.violations(try await cache.outline(timeline, account: "a"), model: server.model.withLock { $0 })
                if !problems.isEmpty { failures.append("seed \(seed), \(what()): \(problems.prefix(3))") }
                return problems.isEmpty
            }
            var healthy = true
            for step in 0..<Int.random(in: 5...30, using: &random) where healthy {
                let session = try Self.reader(server, cache: cache, pageSize: Int.random(in: 2...20, using: &random), timeline: timeline)
                let action = Int.random(in: 0..<10, using: &random)
                switch action {
                case 0..<3:
                    server.model.withLock { $0.add(Int.random(in: 0...40, using: &random), visibleFraction: visibleFraction, using: &random) }
                    _ = try await session.refresh()
                case 3:
                    // The old way of refreshing: only what is newer than the newest cached post.
                    let query: WeiboTimelineQuery = try await cache.newestID(timeline, account: "a").map { .newer(than: $0) } ?? .latest
                    try await session.merge(server.page(query, count: session.pageSize), fetchedWith: query)
                case 4..<6:
                    _ = try await session.loadOlder()
                default:
                    guard let gap = try await cache.outline(timeline, account: "a").compactMap(\.gap).randomElement(using: &random) else { continue }
                    _ = try await session.fill(gap)
                }
                healthy = try await check("step \(step) (action \(action), page size \(session.pageSize))")
            }
            guard healthy else { break }
            // With a cursor to follow, a refresh, then filling every gap and
            // loading older, brings the whole timeline. (Without one, a run of
            // hidden posts longer than a page cannot be passed: nothing says
            // how far an empty page looked. Nothing is lost then either.)
            let cursorStyle = server.model.withLock { $0.cursorStyle }
            guard cursorStyle != .missing else { continue }
            let session = try Self.reader(server, cache: cache, pageSize: 7, timeline: timeline)
            let visible = server.model.withLock { $0.visibleIDs.reversed() as [Int64] }
            var shape = try await session.refresh()
            for _ in 0..<2_000 where shape.ids != visible || !shape.gaps.isEmpty {
                if let gap = shape.gaps.first {
                    shape = try await session.fill(gap)
                } else {
                    shape = try await session.loadOlder()
                }
                guard try await check("filling") else { break }
            }
            if shape.ids != visible || !shape.gaps.isEmpty {
                failures.append("seed \(seed): filling did not converge (\(shape.ids.count) cached of \(visible.count) visible, \(cursorStyle))")
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Reads `timeline` from the model: through a ``WeiboTimelineSession``
    /// for posts, through a ``WeiboCommentsSession``'s rule (the page
    /// merged as comments) for comments.
    static func reader(_ server: ModelServer, cache: WeiboTimelineCache, pageSize: Int, timeline: WeiboTimelineID) throws -> ModelReader {
        ModelReader(
            server: server, cache: cache, pageSize: pageSize, timeline: timeline,
            session: try session(server, cache: cache, pageSize: pageSize, timeline: timeline))
    }

    @Test("the range a page proves: from its anchor to just above its cursor, never below since_id, nothing for an empty unanchored page")
    func pageRanges() {
        func page(_ ids: [Int64], cursor: Int64?) -> WeiboTimelinePage {
            WeiboTimelinePage(
                posts: ids.map { WeiboPost(id: String($0), text: "", createdAt: Date(timeIntervalSince1970: 0), user: nil) },
                nextCursor: cursor.map(String.init))
        }
        #expect(TimelineCoverage.range(of: page([90, 70], cursor: 60), fetchedWith: .latest) == 61...90)
        #expect(TimelineCoverage.range(of: page([90, 70], cursor: nil), fetchedWith: .latest) == 70...90)
        #expect(TimelineCoverage.range(of: page([90, 70], cursor: 70), fetchedWith: .latest) == 70...90, "the oldest post itself is known")
        #expect(TimelineCoverage.range(of: page([], cursor: 40), fetchedWith: .older(than: "100")) == 41...99)
        #expect(TimelineCoverage.range(of: page([], cursor: nil), fetchedWith: .older(than: "100")) == nil)
        #expect(TimelineCoverage.range(of: page([], cursor: 40), fetchedWith: .latest) == nil, "no top: newer posts may exist")
        #expect(TimelineCoverage.range(of: page([90, 70], cursor: 60), fetchedWith: .newer(than: "65")) == 66...90)
        #expect(TimelineCoverage.range(of: page([90, 70], cursor: 95), fetchedWith: .latest) == 70...90, "a cursor above the page is ignored")
        var coverage = TimelineCoverage([10...20, 30...40])
        #expect(!coverage.isComplete(between: 31, and: 19) && coverage.isComplete(between: 40, and: 30) && coverage.isComplete(between: 21, and: 20))
        coverage.add(21...29)
        #expect(coverage.ranges == [10...40] && coverage.isComplete(between: 41, and: 9))
        #expect(coverage.resumePoint(below: 35) == 10 && coverage.resumePoint(below: 9) == 9)
    }
}

/// What a list looks like after a read: ids newest first, and its gaps.
struct ListShape {
    var ids: [Int64]
    var gaps: [WeiboTimelineGap]
}

/// Drives one list of the cache from the model: a post timeline through
/// its session, comments by merging the model's pages as comment pages
/// (the rule ``WeiboCommentsSession`` applies).
struct ModelReader {
    let server: ModelServer
    let cache: WeiboTimelineCache
    let pageSize: Int
    let timeline: WeiboTimelineID
    let session: WeiboTimelineSession

    func merge(_ page: WeiboTimelinePage, fetchedWith query: WeiboTimelineQuery) async throws {
        if case .comments(let box) = timeline {
            let comments = page.posts.map {
                WeiboComment(id: $0.id, text: "", createdAt: $0.createdAt, user: WeiboUser(id: "1", screenName: "someone"))
            }
            let asComments = WeiboCommentPage(comments: comments, totalCount: 0, hasMore: page.nextCursor != nil, nextCursor: page.nextCursor)
            try await cache.merge(asComments, fetchedWith: query, box: box, account: "a")
        } else {
            try await cache.merge(page, fetchedWith: query, timeline: timeline, account: "a")
        }
    }

    /// Reads one page; the page, for following an empty one.
    @discardableResult
    private func read(_ query: WeiboTimelineQuery) async throws -> WeiboTimelinePage {
        let page = server.page(query, count: pageSize)
        try await merge(page, fetchedWith: query)
        return page
    }

    func shape() async throws -> ListShape {
        let outline = try await cache.outline(timeline, account: "a")
        return ListShape(ids: outline.map(\.id), gaps: outline.compactMap(\.gap))
    }

    func refresh() async throws -> ListShape {
        guard case .comments = timeline else {
            _ = try await session.refresh()
            return try await shape()
        }
        // As WeiboCommentsSession.refresh: empty pages are followed down by their cursor.
        var page = try await read(.latest)
        var followed = 0
        while page.posts.isEmpty, let next = page.nextQuery, followed < WeiboTimelineSession.maxEmptyPagesFollowed {
            followed += 1
            page = try await read(next)
        }
        return try await shape()
    }

    func loadOlder() async throws -> ListShape {
        guard case .comments = timeline else {
            _ = try await session.loadOlder()
            return try await shape()
        }
        try await read(try await cache.olderQuery(timeline, account: "a"))
        return try await shape()
    }

    func fill(_ gap: WeiboTimelineGap) async throws -> ListShape {
        guard case .comments = timeline else {
            _ = try await session.fill(gap)
            return try await shape()
        }
        try await read(gap.fillQuery)
        return try await shape()
    }
}
