#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few descriptor operations the package's threads wait on: a pair of
/// connected sockets to wake a waiting thread, waits for readability with
/// a timeout, reads, whole writes, and closing. Threads that watch a
/// terminal, a folder, the network or a loopback socket use these rather
/// than the C library, so each rule (retry on `EINTR`, no `SIGPIPE`) is
/// written once.
package enum Descriptor {
    /// A connected pair of local sockets: a byte sent on `write` makes
    /// `read` readable. Sockets rather than a pipe: waking a thread that has
    /// already exited fails with `EPIPE` instead of raising `SIGPIPE`, and
    /// closing the write end wakes the reader too (end of file).
    package static func wakePair() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw .current("creating a socket pair", path: "") }
        return (ends[0], ends[1])
    }

    /// Sends one byte on a socket without raising `SIGPIPE`; `false` when
    /// the other end is gone (or its buffer is full).
    @discardableResult
    package static func send(_ byte: UInt8, to descriptor: Int32) -> Bool {
        var value = byte
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        #else
            let flags = MSG_DONTWAIT
        #endif
        return retryingOnInterrupt { socketSend(descriptor, &value, 1, flags) } == 1
    }

    /// Closes `descriptor` (a negative one is ignored).
    package static func close(_ descriptor: Int32) {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    /// Makes reads and writes on `descriptor` return at once instead of blocking.
    package static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    /// What a wait for input ended with.
    package enum Readiness: Equatable, Sendable {
        /// Which of the descriptors waited on are readable (or closed).
        case ready([Bool])
        /// The timeout passed with nothing to read.
        case timedOut
        /// A signal interrupted the wait.
        case interrupted
        /// The wait itself failed (a bad descriptor).
        case failed
    }

    /// Waits until one of `descriptors` is readable, has hung up or failed,
    /// or `milliseconds` pass (-1: forever).
    package static func waitReadable(_ descriptors: [Int32], timeout milliseconds: Int32) -> Readiness {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&polled, nfds_t(polled.count), milliseconds)
        if count < 0 { return errno == EINTR ? .interrupted : .failed }
        if count == 0 { return .timedOut }
        return .ready(polled.map { $0.revents != 0 })
    }

    /// What a read returned.
    package enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        /// End of file: the other end closed.
        case end
        /// Nothing to read yet (a non-blocking descriptor), or a signal came first.
        case again
        /// The read failed with this `errno`.
        case failed(Int32)
    }

    /// Reads what is there, up to `limit` bytes.
    package static func read(_ descriptor: Int32, limit: Int = 4096) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .end }
        return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK ? .again : .failed(errno)
    }

    /// Writes all of `bytes`, retrying short writes, `EINTR` and `EAGAIN`;
    /// `false` when the descriptor fails (a closed terminal, a gone peer).
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

/// `send(2)` and `close(2)` under names ``Descriptor``'s own methods do not shadow.
private func socketSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
