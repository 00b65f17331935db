#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What PhotoDeck does to a process it started and no longer waits for.
package enum ChildProcess {
    /// Ends the process `id` at once (SIGKILL). Not SIGTERM: a process
    /// started from one of libdispatch's threads inherits that thread's
    /// blocked signals, SIGTERM among them, and would ignore it. Does
    /// nothing for an id of 0 or less (which would name a process group).
    package static func kill(_ id: Int32) {
        guard id > 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.kill(id, SIGKILL)
        #elseif canImport(Darwin)
            _ = Darwin.kill(id, SIGKILL)
        #endif
    }
}
