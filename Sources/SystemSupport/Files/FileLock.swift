#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a file (`flock`), shared by every process that uses
/// the same lock path: the one way the package serialises writers across
/// processes (credential files, account indexes, stores).
///
/// ```swift
/// try FileLock.withExclusiveLock(at: path + ".lock") {
///     var accounts = try load()      // read, change and write back
///     accounts.append(account)       // while no other process can
///     try save(accounts)
/// }
/// ```
package final class FileLock {
    private let descriptor: Int32
    /// The lock file's path.
    package let path: String

    /// Opens (creating, mode 0600) the lock file at `path`; a symbolic link
    /// there is refused. Takes no lock yet.
    package init(path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw .current("opening the lock file", path: path) }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Waits for the exclusive lock.
    package func lock() throws(SystemError) {
        guard retryingOnInterrupt({ flock(descriptor, LOCK_EX) }) == 0 else { throw .current("locking", path: path) }
    }

    /// Takes the exclusive lock if nobody holds it; `false` when someone does.
    package func tryLock() throws(SystemError) -> Bool {
        if retryingOnInterrupt({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw .current("locking", path: path)
    }

    /// Releases the lock (closing the file does too).
    package func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Runs `body` holding the exclusive lock at `path`, released afterwards
    /// whatever `body` does.
    package static func withExclusiveLock<T, Failure: Error>(at path: String, _ body: () throws(Failure) -> T) throws -> T {
        let lock = try FileLock(path: path)
        try lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
