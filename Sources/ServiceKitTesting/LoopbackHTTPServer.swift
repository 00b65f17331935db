import Execution
public import Foundation
import SystemSupport

/// A small HTTP/1.1 server on 127.0.0.1 (or another loopback address, such
/// as 127.0.0.2 for a second "host") for tests of real network code.
///
/// Requests are answered by routes (method and path) or by one handler;
/// an answer can also drop the connection, arrive late, send a truncated
/// body, or stream a body slowly or without end. Each connection is served
/// on its own thread, so a late answer never holds up another request.
///
/// ```swift
/// let server = try LoopbackHTTPServer(routes: [
///     .init("POST", "/2/statuses/share.json") { request in
///         .respond(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"idstr":"1"}"#.utf8))
///     },
///     .init("GET", "/slow") { _ in .delayed(.seconds(5), status: 200, body: []) },
/// ])
/// defer { server.stop() }
/// let url = server.url(path: "/2/statuses/share.json")   // unrouted requests get a 404
/// ```
///
/// A server nobody holds any more stops as ``stop()`` does: its listening
/// socket, its thread and its wake pair are let go, so a suite of many
/// tests that forget `stop()` does not pile up descriptors (Foundation's
/// `Process.run()` in Swift 6.3.1 over-reads its list of open descriptors
/// once there are more than about 1,350 of them, and crashes).
public final class LoopbackHTTPServer: Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        /// The method, as sent (`GET`, `POST`, ...).
        public let method: String
        /// The request target as sent: the path and, after `?`, the query.
        public let target: String
        /// Header fields, names lowercased.
        public let headers: [String: String]
        /// The body.
        public let body: [UInt8]

        /// Creates a request (the server makes these; tests of handlers can too).
        public init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }

        /// The path, without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The raw query (after `?`), or `nil` when there is none.
        public var query: String? {
            guard let mark = target.firstIndex(of: "?") else { return nil }
            return String(target[target.index(after: mark)...])
        }

        /// The query's items, percent-decoded; the first of a repeated name wins.
        public var queryItems: [String: String] {
            let items = URLComponents(string: "http://localhost\(target)")?.queryItems ?? []
            return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }

        /// `"METHOD /path"`, the key routes match on.
        public var route: String { "\(method) \(path)" }
    }

    /// How to answer.
    public enum Reply: Sendable {
        /// A complete response.
        case respond(status: Int, headers: [String: String] = [:], body: [UInt8] = [])
        /// Close the connection without answering.
        case dropConnection
        /// Wait, then answer; when the server stops first, close without answering.
        case delayed(Duration, status: Int, body: [UInt8])
        /// Declare `declaredLength` bytes but send only `body` (after
        /// `headers`), then close: a download cut short.
        case truncated(status: Int, headers: [String: String] = [:], declaredLength: Int, body: [UInt8])
        /// Send the head, then `chunk` `repeats` times, waiting `interval`
        /// before each (none: as fast as the client reads), then close.
        /// `declaredLength` is the `Content-Length` sent, or none (the body
        /// then ends when the connection closes). Stops early when the client
        /// goes away or the server stops. A 1 GB body: `chunk` of 64 KiB,
        /// 16,384 repeats; one byte a second: `chunk` of one byte, `interval` 1 s.
        case stream(status: Int, headers: [String: String] = [:], declaredLength: Int?, chunk: [UInt8], repeats: Int, interval: Duration? = nil)
        /// A network's shape: wait `latency`, then send the head and `body`
        /// (its length declared) at `bytesPerSecond`, in pieces of at most
        /// 4 KiB (`nil`: as fast as the client reads). Stops early when the
        /// client goes away or the server stops.
        case shaped(status: Int, headers: [String: String] = [:], body: [UInt8], latency: Duration, bytesPerSecond: Int? = nil)
        /// Send the head and the first `sent` bytes of `body` (its whole
        /// length declared), then hold the rest until `gate` opens (or the
        /// server stops): a download caught at a known byte, for a test to
        /// look at what the client made of the part it has.
        ///
        /// ```swift
        /// let gate = try LoopbackHTTPServer.Gate()
        /// let server = try LoopbackHTTPServer { _ in .paused(status: 200, body: jpeg, sent: jpeg.count / 10, until: gate) }
        /// // ... check what the client shows of the first tenth ...
        /// gate.open()
        /// server.stop()
        /// ```
        case paused(status: Int, headers: [String: String] = [:], body: [UInt8], sent: Int, until: Gate)
    }

    /// Answers requests for one method and path.
    public struct Route: Sendable {
        /// The method to match (compared without regard to case).
        public let method: String
        /// The path to match exactly, without a query.
        public let path: String
        /// Makes the answer.
        public let handler: @Sendable (Request) -> Reply

        /// A route for `method` and `path`.
        public init(_ method: String, _ path: String, handler: @escaping @Sendable (Request) -> Reply) {
            self.method = method
            self.path = path
            self.handler = handler
        }
    }

    /// The port it listens on.
    public let port: Int
    /// The loopback address it listens on (`127.0.0.1` unless told otherwise).
    public let host: String
    private let listener: Int32
    private let shared: Shared

    /// State the listening thread, the connection threads and the server share.
    private final class Shared: Sendable {
        let requests = Lock<[Request]>([])
        let stopped = Lock(false)
        /// Connections being served now, the most at once, and those the client closed before its answer was sent.
        let connections = Lock<(open: Int, peak: Int, abandoned: Int)>((0, 0, 0))
        /// Requests read whose answer has not begun, and the most at once.
        let unanswered = Lock<(now: Int, peak: Int)>((0, 0))
        /// Bytes of answers handed to the system to send, on every connection.
        let sent = Lock(0)
        /// Read end of a socket pair whose write end is closed by `stop()`:
        /// every delayed answer polls it, so stopping wakes them all.
        let stopRead: Int32
        let stopWrite: Int32

        init() throws {
            (stopRead, stopWrite) = try posixErrors { () throws(SystemError) in try Descriptor.wakePair() }
        }

        /// Waits up to `duration`; `false` when the server stopped first.
        func wait(_ duration: Duration) -> Bool {
            var remaining = duration.wholeMilliseconds
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: duration)
            while remaining > 0 {
                switch Descriptor.waitReadable([stopRead], timeout: Int32(min(remaining, Int64(Int32.max)))) {
                case .ready, .failed: return false
                case .timedOut, .interrupted: break
                }
                remaining = clock.now.duration(to: deadline).wholeMilliseconds
            }
            return !stopped.withLock { $0 }
        }

        deinit {
            Descriptor.close(stopRead)
            if !stopped.withLock({ $0 }) { Descriptor.close(stopWrite) }
        }
    }

    /// Starts listening on an ephemeral port of 127.0.0.1; `handler` answers
    /// every request.
    public convenience init(host: String = "127.0.0.1", handler: @escaping @Sendable (Request) -> Reply) throws {
        try self.init(host: host, routes: [], unmatched: handler)
    }

    /// Starts listening on an ephemeral port of `host` (a loopback address:
    /// 127.0.0.1, 127.0.0.2, ...); each request goes to the first route with
    /// its method and path, else to `unmatched` (by default a 404 naming the route).
    public init(
        host: String = "127.0.0.1",
        routes: [Route],
        unmatched: @escaping @Sendable (Request) -> Reply = { request in .respond(status: 404, body: Array("no route for \(request.route)".utf8)) }
    ) throws {
        let shared = try Shared()
        // Tests stay on loopback: any other host is refused (EADDRNOTAVAIL).
        let (fd, port) = try posixErrors { () throws(SystemError) in try LoopbackSocket.bind(host: host, listening: 64) }
        self.port = port
        self.host = host
        listener = fd
        self.shared = shared
        let respond: @Sendable (Request) -> Reply = { request in
            let route = routes.first { $0.method.caseInsensitiveCompare(request.method) == .orderedSame && $0.path == request.path }
            return (route?.handler ?? unmatched)(request)
        }
        FloorThread.start(named: "LoopbackHTTPServer") {
            while true {
                let accepted = LoopbackSocket.accept(on: fd)
                if accepted == .interrupted { continue }
                guard case .connection(let client) = accepted else {
                    if !shared.stopped.withLock({ $0 }) {
                        // A passing failure (out of descriptors, an aborted connection): keep serving.
                        Thread.sleep(forTimeInterval: 0.001)
                        continue
                    }
                    // Stopped (the listener was shut down). Only this thread
                    // closes it: closed from stop(), its descriptor number
                    // could be reused by another server's listener before
                    // this loop came back to accept(), which would then
                    // serve that server's connections.
                    Descriptor.close(fd)
                    return
                }
                Self.serve(client, shared: shared, respond: respond)
            }
        }
    }

    /// The URL of `path` on this server.
    public func url(path: String) -> URL { URL(string: "http://\(host):\(port)\(path)")! }

    /// Every request received so far, in the order they were read.
    public var requests: [Request] { shared.requests.withLock { $0 } }

    /// Connections being served now.
    public var openConnections: Int { shared.connections.withLock { $0.open } }

    /// The most connections served at once so far.
    public var peakConnections: Int { shared.connections.withLock { $0.peak } }

    /// The most requests at once that had been read and not yet answered
    /// (counted until the answer's first byte is sent, so a client cannot
    /// have seen one answer and sent its next request while the first
    /// still counts): how many requests a client really had waiting at
    /// once, unlike ``peakConnections``, which counts a socket until the
    /// client closes it.
    public var peakUnansweredRequests: Int { shared.unanswered.withLock { $0.peak } }

    /// Bytes of answers (headers and bodies) the server handed to the system
    /// so far, all connections together: an upper bound on what a client
    /// read. A client that stops reading stops this too, once the socket
    /// buffers are full; one that refuses an answer from its header leaves
    /// it at a few socket buffers.
    public var bytesSent: Int { shared.sent.withLock { $0 } }

    /// Connections the client closed before its whole answer was sent (a
    /// cancelled download).
    public var abandonedConnections: Int { shared.connections.withLock { $0.abandoned } }

    deinit {
        stop()
    }

    /// Stops listening and wakes every delayed answer, which then closes its
    /// connection unanswered. Calling this again does nothing.
    public func stop() {
        let first = shared.stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        LoopbackSocket.shutdown(listener, reading: true)
        Descriptor.close(shared.stopWrite)
    }

    /// Reads one request and answers it on a thread of its own.
    private static func serve(_ client: Int32, shared: Shared, respond: @escaping @Sendable (Request) -> Reply) {
        shared.connections.withLock { counts in
            counts.open += 1
            counts.peak = max(counts.peak, counts.open)
        }
        FloorThread.start(named: "LoopbackHTTPServer connection") {
            defer { shared.connections.withLock { $0.open -= 1 } }
            guard let request = readRequest(client) else {
                Descriptor.close(client)
                return
            }
            shared.requests.withLock { $0.append(request) }
            shared.unanswered.withLock { counts in
                counts.now += 1
                counts.peak = max(counts.peak, counts.now)
            }
            // Called once the answer's first byte goes out (or it ends without one); on this thread only.
            var answered = false
            func begin() {
                guard !answered else { return }
                answered = true
                shared.unanswered.withLock { $0.now -= 1 }
            }
            if !answer(client, with: respond(request), shared: shared, beginning: begin) { shared.connections.withLock { $0.abandoned += 1 } }
            begin()
            closeGracefully(client)
        }
    }

    /// Ends the response, then waits briefly for the client to close, so
    /// that unread bytes never turn the close into a reset that loses the
    /// response.
    private static func closeGracefully(_ client: Int32) {
        LoopbackSocket.shutdown(client, reading: false)
        LoopbackSocket.setReceiveTimeout(client, seconds: 1)
        while case .bytes = Descriptor.read(client) {}
        Descriptor.close(client)
    }

    private static func readRequest(_ client: Int32) -> Request? {
        var buffer: [UInt8] = []
        var headerEnd: Int?
        var contentLength = 0
        var headers: [String: String] = [:]
        var requestLine: [Substring] = []
        while true {
            if let end = headerEnd, buffer.count >= end + contentLength { break }
            switch Descriptor.read(client, limit: 65_536) {
            case .bytes(let chunk): buffer += chunk
            case .again: continue
            case .end, .failed: return nil
            }
            if headerEnd == nil, let range = buffer.firstRange(of: [13, 10, 13, 10]) {
                headerEnd = range.upperBound
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                requestLine = lines.first?.split(separator: " ") ?? []
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                contentLength = max(0, Int(headers["content-length"] ?? "0") ?? 0)
                if headers["expect"]?.lowercased() == "100-continue" {
                    LoopbackSocket.sendAll(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: client)
                }
            }
        }
        guard requestLine.count >= 2, let end = headerEnd else { return nil }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Array(buffer[end..<(end + contentLength)]))
    }

    /// Sends `reply`; `false` when the client went away before all of it was sent.
    @discardableResult
    private static func answer(_ client: Int32, with reply: Reply, shared: Shared, beginning: () -> Void) -> Bool {
        /// Sends every byte; `false` when the client went away.
        @discardableResult
        func sendAll(_ bytes: [UInt8]) -> Bool {
            beginning()
            guard LoopbackSocket.sendAll(bytes, to: client) else { return false }
            shared.sent.withLock { $0 += bytes.count }
            return true
        }
        func head(_ status: Int, _ headers: [String: String], length: Int?) -> [UInt8] {
            var head = "HTTP/1.1 \(status) Status\r\n\(length.map { "Content-Length: \($0)\r\n" } ?? "")Connection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            return Array((head + "\r\n").utf8)
        }
        func write(_ status: Int, _ headers: [String: String], _ body: [UInt8], declared: Int? = nil) -> Bool {
            sendAll(head(status, headers, length: declared ?? body.count) + body)
        }
        switch reply {
        case .respond(let status, let headers, let body): return write(status, headers, body)
        case .dropConnection: return true
        case .delayed(let delay, let status, let body):
            return shared.wait(delay) ? write(status, [:], body) : true
        case .truncated(let status, let headers, let declared, let body): return write(status, headers, body, declared: declared)
        case .shaped(let status, let headers, let body, let latency, let rate):
            guard shared.wait(latency) else { return true }
            guard let rate, rate > 0 else { return write(status, headers, body) }
            guard sendAll(head(status, headers, length: body.count)) else { return false }
            let piece = max(1, min(4_096, rate / 50))
            let clock = ContinuousClock()
            let start = clock.now
            var sent = 0
            while sent < body.count {
                // Each piece leaves when the rate allows it, measured from the start (no drift).
                let due = start.advanced(by: .nanoseconds(Int64(Double(sent) / Double(rate) * 1e9)))
                if due > clock.now, !shared.wait(due - clock.now) { return true }
                let end = min(body.count, sent + piece)
                if !sendAll(Array(body[sent..<end])) { return false }
                sent = end
            }
            return true
        case .paused(let status, let headers, let body, let first, let gate):
            let cut = max(0, min(body.count, first))
            guard sendAll(head(status, headers, length: body.count) + body[..<cut]) else { return false }
            switch gate.wait(stop: shared.stopRead, client: client) {
            case .opened: return sendAll(Array(body[cut...]))
            case .stopped: return true
            case .clientLeft: return false
            }
        case .stream(let status, let headers, let declared, let chunk, let repeats, let interval):
            guard sendAll(head(status, headers, length: declared)) else { return false }
            for _ in 0..<repeats {
                if let interval, !shared.wait(interval) { return true }
                if shared.stopped.withLock({ $0 }) { return true }
                if !sendAll(chunk) { return false }
            }
            return true
        }
    }
}

extension LoopbackHTTPServer {
    /// Holds a ``Reply/paused(status:headers:body:sent:until:)`` answer
    /// until a test opens it. Opening is for good: answers that reach a
    /// gate already open go straight on.
    public final class Gate: Sendable {
        private let readEnd: Int32
        private let writeEnd: Int32
        private let isOpen = Lock(false)

        /// A closed gate.
        public init() throws {
            (readEnd, writeEnd) = try posixErrors { () throws(SystemError) in try Descriptor.wakePair() }
        }

        /// Lets every answer held at the gate go on, and any that reach it later.
        public func open() {
            let first = isOpen.withLock { open in
                defer { open = true }
                return !open
            }
            if first { Descriptor.close(writeEnd) }
        }

        /// What ended a wait at the gate.
        enum Passage {
            case opened
            /// The server stopped.
            case stopped
            /// The client closed its end.
            case clientLeft
        }

        /// Waits (on a connection's thread) until the gate opens, the
        /// server stops (`stop` is readable) or the client leaves.
        func wait(stop: Int32, client: Int32) -> Passage {
            while true {
                switch Descriptor.waitReadable([readEnd, stop, client], timeout: -1) {
                case .ready(let ready):
                    if ready[1] { return .stopped }
                    if ready[0] { return .opened }
                    // The client sends nothing more after its request: readable means it closed (or broke) the connection.
                    switch Descriptor.read(client, limit: 4_096) {
                    case .end, .failed: return .clientLeft
                    case .bytes, .again: continue
                    }
                case .failed: return .stopped
                case .timedOut, .interrupted: continue
                }
            }
        }

        deinit {
            Descriptor.close(readEnd)
            if !isOpen.withLock({ $0 }) { Descriptor.close(writeEnd) }
        }
    }
}
