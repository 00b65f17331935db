#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread, as the platform names it: the one home of the
/// `pthread_*` and scheduling calls the execution floor needs.
package enum CurrentThread {
    /// An identifier of the calling thread, unique among the threads alive
    /// at once (`pthread_self()`).
    package static var id: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Puts the calling thread behind the process's other threads: nice 10
    /// on Linux, where the nice value belongs to the thread and `who = 0`
    /// names the caller (setpriority(2), NOTES); the utility class on
    /// Darwin. Lowering a priority needs no privilege, and nothing raises
    /// it again.
    package static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #elseif canImport(Darwin)
            _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
