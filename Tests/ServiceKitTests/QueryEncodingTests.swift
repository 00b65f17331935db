import Foundation
import ServiceKit
import Testing

@Suite("Query encoding: one RFC 3986 rule for every client")
struct QueryEncodingTests {
    @Test("values with +, &, =, spaces and non-ASCII arrive as sent; an existing query is kept")
    func appendingQuery() throws {
        let base = try #require(URL(string: "https://api.example.com/2/search.json?lang=zh"))
        let url = base.appendingQuery([("q", "a+b c&d=e"), ("name", "微博~_.-"), ("key", "K/1")])
        #expect(url.absoluteString == "https://api.example.com/2/search.json?lang=zh&q=a%2Bb%20c%26d%3De&name=%E5%BE%AE%E5%8D%9A~_.-&key=K%2F1")
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.value) == ["zh", "a+b c&d=e", "微博~_.-", "K/1"])
        #expect(base.appendingQuery([]) == base)
    }

    @Test("the form body, the query and the redacted log line encode alike")
    func sameRuleEverywhere() throws {
        let pairs = [("status", "1+1 = 2 & more")]
        let query = try #require(URL(string: "https://x.example/p")).appendingQuery(pairs).query(percentEncoded: true)
        #expect(query == String(decoding: URLEncodedForm(pairs).body, as: UTF8.self))
        let logged = HTTPRequest.redact(try #require(URL(string: "https://x.example/p")).appendingQuery(pairs + [("access_token", "SECRET")]))
        #expect(logged == "https://x.example/p?status=1%2B1%20%3D%202%20%26%20more&access_token=<redacted>")
    }
}

@Suite("Rate limits in words")
struct RateLimitDescriptionTests {
    @Test("a limit reads as the service states it")
    func words() {
        #expect(RateLimit(30, per: .seconds(3_600), scope: .account).description == "30 per hour per account")
        #expect(RateLimit(10, per: .seconds(60)).description == "10 per minute")
        #expect(RateLimit(4, per: .seconds(30 * 86_400), scope: .account).description == "4 per 30 days per account")
        #expect(RateLimit(5, per: .seconds(90)).description == "5 per 90 seconds")
    }
}
