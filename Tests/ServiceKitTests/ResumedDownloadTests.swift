import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

/// A file server on loopback that cuts its first answer at half the body
/// and serves byte ranges as RFC 9110 says (`Range: bytes=N-`, honoured
/// only when `If-Range` matches the current validator).
final class RangeServer: Sendable {
    enum Quirk: Sendable {
        /// Ranges served correctly.
        case none
        /// Ranges ignored: every answer is the whole body (200).
        case ignoresRanges
        /// The resource changes after the cut: a new ETag and new bytes.
        case changesAfterCut
        /// A 206 whose range starts elsewhere than asked.
        case wrongRange
        /// 416 to any range.
        case refusesRanges
    }

    let body: [UInt8]
    let validator: (name: String, value: String)
    let quirk: Quirk
    /// The request headers, in order (shared with the server's thread).
    final class Seen: Sendable {
        let list = Mutex<[[String: String]]>([])
    }
    let seen = Seen()
    let http: LoopbackHTTPServer

    init(size: Int, validator: (name: String, value: String) = ("ETag", "\"v1\""), quirk: Quirk = .none, cutAt fraction: Double = 0.5) throws {
        var generator = SeededGenerator(seed: UInt64(size))
        let body = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.body = body
        self.validator = validator
        self.quirk = quirk
        let seen = self.seen
        let changed = body.reversed().map { $0 }
        http = try LoopbackHTTPServer { request in
            let number = seen.list.withLock { list in
                list.append(request.headers)
                return list.count
            }
            let current = number > 1 && quirk == .changesAfterCut ? (changed, "\"v2\"") : (body, validator.value)
            let headers = [validator.name: validator.name == "ETag" ? current.1 : validator.value]
            if number == 1 {
                return .truncated(status: 200, headers: headers, declaredLength: body.count, body: Array(body.prefix(Int(Double(body.count) * fraction))))
            }
            guard let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
                let start = Int(range.dropFirst(6).dropLast()), quirk != .ignoresRanges,
                request.headers["if-range"] == headers[validator.name]
            else { return .respond(status: 200, headers: headers, body: current.0) }
            switch quirk {
            case .refusesRanges:
                return .respond(status: 416, headers: ["Content-Range": "bytes */\(body.count)"])
            case .wrongRange:
                let from = max(0, start - 10)
                return .respond(
                    status: 206, headers: headers.merging(["Content-Range": "bytes \(from)-\(body.count - 1)/\(body.count)"]) { a, _ in a },
                    body: Array(body[from...]))
            default:
                return .respond(
                    status: 206, headers: headers.merging(["Content-Range": "bytes \(start)-\(body.count - 1)/\(body.count)"]) { a, _ in a },
                    body: Array(current.0[start...]))
            }
        }
    }

    deinit { http.stop() }

    var requests: [[String: String]] { seen.list.withLock { $0 } }
}

@Suite("Downloads that resume")
struct ResumedDownloadTests {
    static let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(1))

    static func download(_ server: RangeServer, resumingFrom partial: PartialDownload? = nil) async -> DownloadOutcome {
        let request = HTTPRequest(url: server.http.url(path: "/photo.jpg"), timeout: .seconds(60), isIdempotent: true, deadline: .seconds(120))
        return await CurlTransport().download(request, resumingFrom: partial, retrying: policy)
    }

    @Test("cut at half, the rest is asked for with Range and If-Range and joined: 2 MB sent once, not 1.5 times")
    func resumesAfterCut() async throws {
        let server = try RangeServer(size: 2 << 20)
        guard case .complete(let response) = await Self.download(server) else {
            Issue.record("the download failed")
            return
        }
        #expect(response.status == 200)
        #expect(response.body == server.body)
        #expect(response.headers["content-length"] == String(server.body.count))
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0]["range"] == nil)
        #expect(requests[1]["range"] == "bytes=\(1 << 20)-" && requests[1]["if-range"] == "\"v1\"")
        // Counted at the server, headers included: 100.0x% of the body, where starting over is 150%.
        let ratio = Double(server.http.bytesSent) / Double(server.body.count)
        #expect(ratio <= 1.02, "sent \(server.http.bytesSent) bytes for \(server.body.count)")
    }

    @Test("Last-Modified is the validator when there is no strong ETag")
    func lastModified() async throws {
        let server = try RangeServer(size: 300_000, validator: ("Last-Modified", "Wed, 02 Dec 2026 10:00:00 GMT"))
        guard case .complete(let response) = await Self.download(server) else {
            Issue.record("failed")
            return
        }
        #expect(response.body == server.body)
        #expect(server.requests[1]["if-range"] == "Wed, 02 Dec 2026 10:00:00 GMT")
    }

    @Test(
        "a server that changed, ignores ranges, answers a range elsewhere or refuses it gives the whole body, never a mix",
        arguments: [RangeServer.Quirk.changesAfterCut, .ignoresRanges, .wrongRange, .refusesRanges])
    func startsOver(_ quirk: RangeServer.Quirk) async throws {
        let server = try RangeServer(size: 200_000, quirk: quirk)
        guard case .complete(let response) = await Self.download(server) else {
            Issue.record("failed")
            return
        }
        #expect(response.status == 200)
        let expected = quirk == .changesAfterCut ? Array(server.body.reversed()) : server.body
        #expect(response.body == expected)
        #expect(response.headers["content-range"] == nil)
    }

    @Test("no validator, or only a weak ETag: nothing is kept, the retry asks for the whole")
    func notResumable() async throws {
        let weak = try RangeServer(size: 100_000, validator: ("ETag", "W/\"v1\""))
        guard case .complete(let response) = await Self.download(weak) else {
            Issue.record("failed")
            return
        }
        #expect(response.body == weak.body)
        #expect(weak.requests[1]["range"] == nil)
        #expect(PartialDownload(status: 200, headers: ["ETag": "W/\"x\""], bytes: [1]) == nil)
        #expect(PartialDownload(status: 200, headers: ["Content-Encoding": "gzip", "ETag": "\"x\""], bytes: [1]) == nil)
        #expect(PartialDownload(status: 206, headers: ["ETag": "\"x\""], bytes: [1]) == nil)
        #expect(PartialDownload(status: 200, headers: ["ETag": "\"x\r\nX-Evil: 1\""], bytes: [1]) == nil)
        #expect(PartialDownload(status: 200, headers: ["etag": "\"x\""], bytes: [1])?.rangeHeaders == ["Range": "bytes=1-", "If-Range": "\"x\""])
    }

    @Test("out of attempts, the failure carries what arrived; a later download resumes from it")
    func keptAcrossDownloads() async throws {
        let server = try RangeServer(size: 400_000)
        let once = HTTPRequest(url: server.http.url(path: "/photo.jpg"), timeout: .seconds(60), isIdempotent: true, deadline: .seconds(120))
        guard case .failed(let error, let partial) = await CurlTransport().download(once, resumingFrom: nil, retrying: .never) else {
            Issue.record("one attempt of a cut answer cannot complete")
            return
        }
        #expect(error.isRetryable)
        let kept = try #require(partial)
        #expect(kept.bytes == Array(server.body.prefix(200_000)) && kept.validator == "\"v1\"")
        guard case .complete(let response) = await CurlTransport().download(once, resumingFrom: kept, retrying: .never) else {
            Issue.record("the resumption failed")
            return
        }
        #expect(response.body == server.body)
        #expect(server.requests.count == 2 && server.requests[1]["range"] == "bytes=200000-")
    }

    @Test("Content-Range is parsed strictly")
    func contentRange() {
        #expect(ContentRange("bytes 10-19/20").map { [$0.first, $0.last, $0.total ?? -1] } == [10, 19, 20])
        #expect(ContentRange("bytes 10-19/*").map { [$0.first, $0.last, $0.total ?? -1] } == [10, 19, -1])
        for bad in ["bytes 19-10/20", "bytes 10-19/19", "bytes -1-5/9", "items 1-2/3", "bytes 1-2", "bytes 99999999999999999999-1/2", ""] {
            #expect(ContentRange(bad) == nil, "\(bad)")
        }
    }
}
