import Execution
public import ServiceKit

extension WeiboTimelineCache {
    /// The same as `init` with these arguments, run away from Swift's
    /// cooperative pool: opens the timeline cache database at `path` (creating it when there is none). Opening reads and may write the disk and
    /// wait up to SQLite's busy timeout (5 s) for another process's lock,
    /// so async code opens a store this way; the synchronous `init` is for
    /// threads of the caller's own.
    ///
    /// ```swift
    /// let cache = try await WeiboTimelineCache.open(path: "timeline.sqlite")
    /// ```
    public static func open(path: String, maxPostsPerAccount: Int = 2_000, clock: any ServiceClock = SystemClock()) async throws(WeiboError)
        -> WeiboTimelineCache
    {
        try await BlockingWork.run { () throws(WeiboError) -> WeiboTimelineCache in
            try WeiboTimelineCache(path: path, maxPostsPerAccount: maxPostsPerAccount, clock: clock)
        }
    }
}
