public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests of real network code:
/// each request is answered by a handler that can also drop the
/// connection, stall, or send a truncated body.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in .respond(status: 200, body: Array("ok".utf8)) }
/// defer { server.stop() }
/// let url = server.url(path: "/upload")
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method.
        public let method: String
        /// The path, with its query.
        public let path: String
        /// Header fields, names lowercased.
        public let headers: [String: String]
        /// The body.
        public let body: [UInt8]
    }

    /// How to answer.
    public enum Reply: Sendable {
        /// A complete response.
        case respond(status: Int, headers: [String: String] = [:], body: [UInt8] = [])
        /// Close the connection without answering.
        case dropConnection
        /// Wait, then answer (or give up when the server stops).
        case delayed(Duration, status: Int, body: [UInt8])
        /// Declare `declaredLength` bytes but send only `body`, then close.
        case truncated(status: Int, declaredLength: Int, body: [UInt8])
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private final class RequestLog: Sendable {
        let requests = Mutex<[Request]>([])
        let stopped = Mutex(false)
    }
    private let log = RequestLog()

    /// Starts listening on an ephemeral port of 127.0.0.1.
    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let log = self.log
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 {
                    if errno == EINTR { continue }
                    if !log.stopped.withLock({ $0 }) {
                        // A passing failure (out of descriptors, an aborted connection): keep serving.
                        usleep(1000)
                        continue
                    }
                    // Stopped (the listener was shut down). Only this thread
                    // closes it: closed from stop(), its descriptor number
                    // could be reused by another server's listener before
                    // this loop came back to accept(), which would then
                    // serve that server's connections.
                    close(fd)
                    return
                }
                guard let request = Self.readRequest(client) else {
                    close(client)
                    continue
                }
                log.requests.withLock { $0.append(request) }
                Self.answer(client, with: handler(request))
                Self.closeGracefully(client)
            }
        }
        thread.name = "LoopbackHTTPServer"
        thread.start()
    }

    /// The URL of `path` on this server.
    public func url(path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Every request received so far.
    public var requests: [Request] { log.requests.withLock { $0 } }

    /// Stops listening (the serving thread closes the socket; calling this
    /// again does nothing).
    public func stop() {
        let first = log.stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// Ends the response, then waits briefly for the client to close, so
    /// that unread bytes never turn the close into a reset that loses the
    /// response.
    private static func closeGracefully(_ client: Int32) {
        shutdown(client, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
        close(client)
    }

    private static func readRequest(_ client: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var contentLength = 0
        var headers: [String: String] = [:]
        var requestLine: [Substring] = []
        while true {
            if let end = headerEnd, buffer.count >= end + contentLength { break }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
            if headerEnd == nil, let range = buffer.firstRange(of: [13, 10, 13, 10]) {
                headerEnd = range.upperBound
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                requestLine = lines.first?.split(separator: " ") ?? []
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                contentLength = Int(headers["content-length"] ?? "0") ?? 0
                if headers["expect"]?.lowercased() == "100-continue" {
                    let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    _ = interim.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
        guard requestLine.count >= 2, let end = headerEnd else { return nil }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: Array(buffer[end..<(end + contentLength)]))
    }

    private static func answer(_ client: Int32, with reply: Reply) {
        func write(_ status: Int, _ headers: [String: String], _ body: [UInt8], declared: Int? = nil) {
            var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(declared ?? body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            let bytes = Array((head + "\r\n").utf8) + body
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { return }
                sent += count
            }
        }
        switch reply {
        case .respond(let status, let headers, let body): write(status, headers, body)
        case .dropConnection: break
        case .delayed(let delay, let status, let body):
            let components = delay.components
            usleep(UInt32(min(Int64(UInt32.max), components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)))
            write(status, [:], body)
        case .truncated(let status, let declared, let body): write(status, [:], body, declared: declared)
        }
    }
}
