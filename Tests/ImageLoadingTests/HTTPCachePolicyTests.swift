import Foundation
import ServiceKit
import Testing

@testable import ImageLoading

@Suite("HTTP caching rules (RFC 9111, private cache)")
struct HTTPCachePolicyTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func policy(_ headers: [String: String], status: Int = 200, at date: Date = now) -> HTTPCachePolicy {
        HTTPCachePolicy(HTTPResponse(status: status, headers: headers), receivedAt: date)
    }

    @Test("HTTP dates in the three forms a recipient must read; anything else is no date")
    func dates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        for bad in ["", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "-1"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("freshness: max-age, else Expires − Date, else 10% of the time since Last-Modified (a day at most), else none")
    func freshness() {
        #expect(Self.policy(["cache-control": "public, max-age=600"]).lifetime == 600)
        #expect(Self.policy(["cache-control": "s-maxage=10, max-age=\"60\""]).lifetime == 60, "s-maxage is for shared caches")
        #expect(
            Self.policy(["date": "Sun, 06 Nov 1994 08:49:37 GMT", "expires": "Sun, 06 Nov 1994 09:49:37 GMT"]).lifetime == 3_600)
        #expect(Self.policy(["expires": "0"]).lifetime == 0, "an unreadable Expires is already expired")
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(Self.policy(["date": date, "last-modified": "Fri, 04 Nov 1994 08:49:37 GMT"]).lifetime == 17_280, "10% of two days")
        #expect(Self.policy(["date": date, "last-modified": "Sun, 06 Nov 1984 08:49:37 GMT"]).lifetime == 86_400, "capped at a day")
        #expect(Self.policy([:]).lifetime == 0)
        let fresh = Self.policy(["cache-control": "max-age=600"])
        #expect(fresh.isFresh(at: Self.now.addingTimeInterval(599)) && !fresh.isFresh(at: Self.now.addingTimeInterval(600)))
        let aged = Self.policy(["cache-control": "max-age=600", "age": "500"])
        #expect(aged.isFresh(at: Self.now.addingTimeInterval(99)) && !aged.isFresh(at: Self.now.addingTimeInterval(100)), "Age counts")
    }

    @Test("no-store is not kept, Vary: * is not kept, no-cache is kept but always asked about, must-revalidate is never served stale")
    func directives() {
        #expect(!HTTPCachePolicy.isStorable(HTTPResponse(status: 200, headers: ["cache-control": "private, no-store"])))
        #expect(!HTTPCachePolicy.isStorable(HTTPResponse(status: 200, headers: ["vary": "*"])))
        #expect(!HTTPCachePolicy.isStorable(HTTPResponse(status: 206, headers: [:])), "a partial answer is not the image")
        #expect(HTTPCachePolicy.isStorable(HTTPResponse(status: 200, headers: ["vary": "Accept"])))
        let noCache = Self.policy(["cache-control": "no-cache, max-age=600", "etag": "\"v1\""])
        #expect(!noCache.isFresh(at: Self.now) && noCache.forbidsStale && noCache.hasValidators)
        #expect(Self.policy(["pragma": "no-cache"]).revalidatesAlways, "HTTP/1.0 no-cache without Cache-Control")
        #expect(!Self.policy(["pragma": "no-cache", "cache-control": "max-age=5"]).revalidatesAlways)
        #expect(Self.policy(["cache-control": "max-age=5, must-revalidate"]).forbidsStale)
        #expect(!Self.policy(["cache-control": "max-age=5"]).forbidsStale)
    }

    @Test("a 304 refreshes the fields it carries and keeps the others; the question carries the validators")
    func revalidation() {
        let stored = Self.policy(["cache-control": "max-age=60", "etag": "\"v1\"", "last-modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(stored.conditionalHeaders == ["If-None-Match": "\"v1\"", "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"])
        let later = Self.now.addingTimeInterval(3_600)
        let refreshed = stored.refreshed(by: HTTPResponse(status: 304, headers: ["etag": "\"v1\"", "content-type": "text/html"]), at: later)
        #expect(refreshed.lifetime == 60 && refreshed.isFresh(at: later.addingTimeInterval(30)), "max-age kept from the stored headers")
        #expect(refreshed.headers["content-type"] == nil, "a 304 does not say what the bytes are")
        let shorter = stored.refreshed(by: HTTPResponse(status: 304, headers: ["cache-control": "max-age=5"]), at: later)
        #expect(shorter.lifetime == 5 && shorter.etag == "\"v1\"")
    }
}
