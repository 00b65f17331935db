public import Foundation
import SystemSupport

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
        (descriptor, port) = try posixErrors { () throws(SystemError) in try LoopbackSocket.bind(host: "127.0.0.1", listening: nil) }
    }

    deinit { Descriptor.close(descriptor) }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
}

/// Runs `body`, turning SystemSupport's error into the `POSIXError` the
/// testing API has always thrown.
func posixErrors<Result>(_ body: () throws(SystemError) -> Result) throws -> Result {
    do {
        return try body()
    } catch {
        throw POSIXError(POSIXErrorCode(rawValue: error.code) ?? .EIO)
    }
}
