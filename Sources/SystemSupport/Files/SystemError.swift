#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: what was being done, to which path, and the
/// `errno` it ended with. Modules turn it into their own error at their edge.
package struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done ("creating", "renaming into place").
    package let operation: String
    /// The path it was done to.
    package let path: String
    /// The `errno` value, or 0 when the failure is PhotoDeck's own check.
    package let code: Int32
    /// Why, in words: `strerror(code)`, or the check that failed.
    package let reason: String

    /// The error for the current `errno`.
    package static func current(_ operation: String, path: String) -> SystemError {
        let code = errno
        return SystemError(operation: operation, path: path, code: code, reason: reason(for: code))
    }

    /// What the system calls `code` in words (`strerror`).
    package static func reason(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// An error PhotoDeck's own check raised (no `errno`).
    package init(operation: String, path: String, code: Int32 = 0, reason: String) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// The error for a file over the size its reader allows: `EFBIG`, with
    /// both sizes in the reason.
    package static func tooLarge(path: String, size: Int, limit: Int) -> SystemError {
        SystemError(operation: "reading", path: path, code: EFBIG, reason: "the file is \(size) bytes, over the \(limit)-byte limit for it")
    }

    /// Whether a file was refused for its size (``tooLarge(path:size:limit:)``).
    package var isTooLarge: Bool { code == EFBIG }

    /// Whether the disk or the user's quota is full.
    package var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    /// Whether the path does not exist.
    package var isMissing: Bool { code == ENOENT }

    package var description: String { "\(operation) \(path): \(reason)" }
}

/// Runs a system call again while it fails with `EINTR`.
@inline(__always)
package func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// `write(2)`, under a name no type's own `write` method shadows.
@inline(__always)
package func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `read(2)`, under a name no type's own `read` method shadows.
@inline(__always)
package func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// The index of the first `byte` in `bytes[start...]`, or `nil`: `memchr`,
/// for scans over megabytes (a JPEG's entropy-coded data).
package func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = bytes.baseAddress, start < bytes.count else { return nil }
    guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
}
