import CHeap

/// The C library's heap settings the package may change for an app that
/// asks (``ImageCodecs``' `ImageMemory`): the one place that calls `mallopt`.
package enum HeapTuning {
    /// Fixes glibc's mmap threshold at `bytes`: blocks that large are mapped
    /// when allocated and unmapped when freed, and the threshold no longer
    /// rises to the largest block freed so far. `false` where the C library
    /// has no such setting (not glibc) or refused it.
    package static func fixMappingThreshold(_ bytes: Int) -> Bool {
        guard bytes > 0, bytes <= Int(Int32.max) else { return false }
        return pd_heap_fix_mmap_threshold(Int32(bytes)) == 1
    }
}
