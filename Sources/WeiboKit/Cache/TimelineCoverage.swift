/// The id ranges of one cached timeline that are known to be complete:
/// every post Weibo shows the app with an id in such a range is in the
/// cache. Two neighbouring cached posts with no complete range spanning
/// the ids between them have a gap: posts may be missing there.
///
/// This is the cache's whole rule, kept apart so it can be checked on its
/// own (the property test drives it against a model of Weibo):
/// - A page proves the range from its top to where Weibo's paging stopped.
///   Its top is the post `max_id` stood on (`older(than: X)`: up to
///   `X - 1`), else the page's newest post, since newer posts may arrive
///   at any time. Its bottom is just above ``WeiboTimelinePage/nextCursor``
///   (the oldest id Weibo looked at, kept or dropped; the cursor itself is
///   not claimed, whichever of Weibo's two cursor conventions holds), and
///   at least the page's oldest post. `newer(than: S)` never claims below
///   `S + 1`.
/// - A short page proves nothing more than that: Weibo drops posts after
///   counting them, so fewer posts than asked is not the end.
/// - Ranges only grow: a page never removes what another proved.
struct TimelineCoverage: Hashable, Sendable {
    /// Disjoint, non-adjacent ranges, ascending.
    private(set) var ranges: [ClosedRange<Int64>]

    init(_ ranges: [ClosedRange<Int64>] = []) {
        self.ranges = []
        for range in ranges { add(range) }
    }

    /// The range `page`, fetched with `query`, proves complete; `nil` when it proves none.
    static func range(of page: WeiboTimelinePage, fetchedWith query: WeiboTimelineQuery) -> ClosedRange<Int64>? {
        range(of: page.posts.map(\.sortKey), nextCursor: page.nextCursor, fetchedWith: query)
    }

    /// The range a page of elements with `keys` (posts or comments, by
    /// id) and Weibo's `nextCursor` proves complete.
    static func range(of keys: [Int64], nextCursor: String?, fetchedWith query: WeiboTimelineQuery) -> ClosedRange<Int64>? {
        let oldest = keys.min()
        let top: Int64
        switch query {
        case .older(let id):
            guard let anchor = Int64(id), anchor > 0 else { return nil }
            top = anchor - 1
        case .latest, .newer, .page:
            guard let newest = keys.max() else { return nil }
            top = newest
        }
        var bottom: Int64
        if let cursor = nextCursor.flatMap({ Int64($0) }), cursor >= 0, cursor < top, cursor <= (oldest ?? cursor) {
            bottom = cursor + 1
        } else if let oldest {
            bottom = oldest
        } else {
            return nil
        }
        // The page's own oldest post is known too: the range reaches it.
        if let oldest { bottom = min(bottom, oldest) }
        if case .newer(let id) = query, let since = Int64(id) { bottom = max(bottom, since &+ 1) }
        return bottom <= top ? bottom...top : nil
    }

    /// Adds a proven range, merging it with those it overlaps or touches.
    mutating func add(_ range: ClosedRange<Int64>) {
        var low = range.lowerBound
        var high = range.upperBound
        var kept: [ClosedRange<Int64>] = []
        for existing in ranges {
            if existing.upperBound < low &- 1 || existing.lowerBound > high &+ 1 {
                kept.append(existing)
            } else {
                low = min(low, existing.lowerBound)
                high = max(high, existing.upperBound)
            }
        }
        kept.append(low...high)
        ranges = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether every id strictly between `older` and `newer` is covered.
    func isComplete(between newer: Int64, and older: Int64) -> Bool {
        // Ids come from stored rows: checked before the arithmetic, never trusted to be in order.
        guard older < .max, newer > older + 1 else { return true }
        return ranges.contains { $0.lowerBound <= older + 1 && $0.upperBound >= newer - 1 }
    }

    /// Where loading below `id` should start: the lowest id `L` such that
    /// every id in `L..<id` is covered (so the next request asks for posts
    /// older than `L`, skipping what is known); `id` itself when the id
    /// below it is not covered.
    func resumePoint(below id: Int64) -> Int64 {
        guard let range = ranges.first(where: { $0.contains(id &- 1) }) else { return id }
        return min(id, range.lowerBound)
    }

    /// Forgets ranges wholly below `id` (posts there were trimmed).
    mutating func removeAll(below id: Int64) {
        ranges.removeAll { $0.upperBound < id }
    }
}
