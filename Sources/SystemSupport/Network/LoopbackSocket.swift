#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP sockets on the loopback network, for the test servers PhotoDeck
/// ships (ServiceKitTesting): bound to an ephemeral port of a `127.x.y.z`
/// address, and never anywhere else.
package enum LoopbackSocket {
    /// A TCP socket bound to a free port of `host` (an IPv4 loopback
    /// literal), listening with `backlog` when one is given. The caller
    /// closes it (``Descriptor/close(_:)``).
    package static func bind(host: String, listening backlog: Int32?) throws(SystemError) -> (descriptor: Int32, port: Int) {
        guard host.hasPrefix("127."), inet_addr(host) != INADDR_NONE else {
            throw SystemError(operation: "binding", path: host, code: EADDRNOTAVAIL, reason: "not a loopback address")
        }
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw .current("opening a socket on", path: host) }
        if backlog != nil {
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bindSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard bound == 0, backlog.map({ listen(descriptor, $0) == 0 }) ?? true,
            withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }) == 0
        else {
            let error = SystemError.current("binding a socket on", path: host)
            Descriptor.close(descriptor)
            throw error
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// What waiting for a connection ended with.
    package enum Accepted: Equatable, Sendable {
        case connection(Int32)
        /// A signal came first: wait again.
        case interrupted
        /// The listener failed (shut down, out of descriptors, an aborted connection).
        case failed
    }

    /// Waits for the next connection on `listener`.
    package static func accept(on listener: Int32) -> Accepted {
        let client = acceptConnection(listener)
        if client >= 0 { return .connection(client) }
        return errno == EINTR ? .interrupted : .failed
    }

    /// Shuts down sending (`reading: false`) or both directions: a thread
    /// waiting in ``accept(on:)`` on a listener shut down for both returns.
    package static func shutdown(_ descriptor: Int32, reading: Bool) {
        _ = shutdownSocket(descriptor, Int32(reading ? SHUT_RDWR : SHUT_WR))
    }

    /// Makes receives on `descriptor` give up after `seconds` without data.
    package static func setReceiveTimeout(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte without raising `SIGPIPE`; `false` when the peer went away.
    @discardableResult
    package static func sendAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { send(descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }
}

// The C calls under names ``LoopbackSocket``'s own methods do not shadow.
private func bindSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(descriptor, address, length)
}

private func acceptConnection(_ listener: Int32) -> Int32 { accept(listener, nil, nil) }

private func shutdownSocket(_ descriptor: Int32, _ how: Int32) -> Int32 { shutdown(descriptor, how) }
