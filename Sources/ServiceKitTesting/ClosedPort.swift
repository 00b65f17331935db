public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port where nothing listens, held for as long as this value
/// lives: a connection to it is refused at once, and no other server (a
/// test running beside yours) can start listening there meanwhile. Stopping
/// a ``LoopbackHTTPServer`` and reusing its port is not the same: the
/// system may hand the port to the next server that asks.
///
/// ```swift
/// let closed = try ClosedPort()
/// let api = WeiboAPI(base: closed.url, http: http)      // every request: cannot connect
/// ```
public final class ClosedPort: Sendable {
    private let descriptor: Int32
    /// The port.
    public let port: Int

    /// Binds a socket to a free port on 127.0.0.1 without listening.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let error = POSIXError(.init(rawValue: errno) ?? .EIO)
            close(fd)
            throw error
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
}
