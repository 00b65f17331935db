import Execution
public import ServiceKit

extension DiskCache {
    /// The same as `init` with these arguments, run away from Swift's
    /// cooperative pool: opens the cache in `directory` (creating it; an index it cannot trust is rebuilt). Opening reads and may write the disk and
    /// wait up to SQLite's busy timeout (5 s) for another process's lock,
    /// so async code opens a store this way; the synchronous `init` is for
    /// threads of the caller's own.
    ///
    /// ```swift
    /// let cache = try await DiskCache.open(directory: "Caches/images", capacityBytes: 200 << 20)
    /// ```
    public static func open(directory: String, capacityBytes: Int, clock: any ServiceClock = SystemClock()) async throws(ImageLoadingError) -> DiskCache {
        try await BlockingWork.run { () throws(ImageLoadingError) -> DiskCache in
            try DiskCache(directory: directory, capacityBytes: capacityBytes, clock: clock)
        }
    }
}
