import Synchronization

#if PHOTODECK_TSAN
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
#endif

/// A value guarded by a lock: what the package's shared state uses in
/// place of `Synchronization.Mutex`, with the same `withLock`.
///
/// In a normal build it is a `Mutex`. Built with `-DPHOTODECK_TSAN` (as
/// `make test-tsan` builds), it is a `pthread_mutex_t`, which
/// ThreadSanitizer intercepts: TSan on Linux does not see `Mutex`'s futex
/// and reported every `Mutex`-guarded value as racing, so its reports could
/// not fail a build. With this lock they can.
///
/// ```swift
/// let counts = Lock([String: Int]())
/// counts.withLock { $0["hits", default: 0] += 1 }
/// ```
package final class Lock<Value>: @unchecked Sendable {
    // Sendable because every access to the value (`state` or `value`)
    // happens inside `withLock`, under the one lock, and values enter and
    // leave it `sending` (as with Mutex), so no other reference to them
    // survives outside the lock.
    #if PHOTODECK_TSAN
        private var value: Value
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #else
        private let state: Mutex<Value>
    #endif

    /// A lock guarding `value`.
    package init(_ value: sending Value) {
        #if PHOTODECK_TSAN
            self.value = value
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        #else
            state = Mutex(value)
        #endif
    }

    #if PHOTODECK_TSAN
        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    #endif

    /// Runs `body` with the value, holding the lock, and returns what it returns.
    package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        #if PHOTODECK_TSAN
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        #else
            return try state.withLock(body)
        #endif
    }
}
