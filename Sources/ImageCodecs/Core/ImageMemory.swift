import SystemSupport

/// How the process's memory for pixels is given back to the system.
public enum ImageMemory {
    /// Makes freed pixel buffers of `threshold` bytes or more go back to the
    /// system at once. Returns whether the C library took the setting
    /// (glibc does; elsewhere, and under a sanitizer whose allocator stands
    /// in for glibc's, nothing changes and it returns `false`).
    ///
    /// glibc serves a large allocation by mapping pages, but after such a
    /// block is freed it raises its threshold to that block's size (up to
    /// 32 MB): from then on, buffers of a decoded photo's size come from its
    /// heaps, one per thread that decodes, which keep what is freed. A viewer
    /// paging 24 MP photos then holds 50 MB or more beyond what it uses
    /// (`BENCHMARKS.md`, paging). A fixed threshold maps and unmaps each
    /// large buffer instead, at the cost of faulting its pages in afresh.
    ///
    /// Process-wide: an app calls it once at start-up if it wants its
    /// memory to follow what it holds. The library never calls it itself.
    ///
    /// ```swift
    /// ImageMemory.returnLargeBuffersToSystem()   // first thing in main
    /// ```
    @discardableResult
    public static func returnLargeBuffersToSystem(threshold: Int = 128 << 10) -> Bool {
        HeapTuning.fixMappingThreshold(threshold)
    }
}
