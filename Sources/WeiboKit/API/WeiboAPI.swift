public import Foundation
public import ServiceKit

/// Weibo's REST API with a token in hand: builds each documented request,
/// sends it through the toolkit's client (reads retried, writes sent once)
/// and reads the answer into model types or a typed ``WeiboError``.
/// ``WeiboClient`` adds accounts on top; use this directly when the app
/// keeps tokens itself.
///
/// ```swift
/// let api = WeiboAPI(http: ServiceClient(transport: CurlTransport()))
/// let page = try await api.homeTimeline(.latest, count: 50, token: token)
/// ```
public struct WeiboAPI: Sendable {
    /// Where Weibo's API and OAuth endpoints live: `https://api.weibo.com`.
    public static let defaultBase = URL(string: "https://api.weibo.com")!
    /// The most posts `home_timeline` returns in one page.
    public static let maxPageSize = 100
    /// The longest comment or repost text, in Weibo characters.
    public static let maxTextLength = 140

    /// Where Weibo's reminder API lives (`remind/unread_count`): `https://rm.api.weibo.com`.
    public static let defaultRemindBase = URL(string: "https://rm.api.weibo.com")!

    /// Where the API lives (tests point this at a loopback server).
    public let base: URL
    /// Where the reminder API lives: a host of its own, which takes the same token.
    public let remindBase: URL
    /// Sends the requests, with the retry rule and the log.
    public let http: ServiceClient
    /// The end user's address every write reports (`rip`) unless the call gives one.
    public let endUserAddress: WeiboEndUserAddress

    /// Creates the API over `http`.
    public init(
        base: URL = WeiboAPI.defaultBase, remindBase: URL = WeiboAPI.defaultRemindBase, http: ServiceClient,
        endUserAddress: WeiboEndUserAddress = .thisDevice
    ) {
        self.base = base
        self.remindBase = remindBase
        self.http = http
        self.endUserAddress = endUserAddress
    }

    // MARK: Sending

    /// A request to `path` with the token in the `Authorization: OAuth2`
    /// header, so it is in no URL and no log line.
    func request(
        _ method: String, _ path: String, on host: URL? = nil, query: [(String, String)] = [], form: URLEncodedForm? = nil, token: String?
    ) -> HTTPRequest {
        let url = (host ?? base).appending(path: path).appendingQuery(query)
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "OAuth2 \(token)" }
        if form != nil { headers["Content-Type"] = URLEncodedForm.contentType }
        return HTTPRequest(method: method, url: url, headers: headers, body: form?.body ?? [], isIdempotent: method == "GET")
    }

    /// Sends a read (retried under the client's policy) and returns its
    /// successful answer; an error answer is thrown as a ``WeiboError``.
    func read(_ request: HTTPRequest, endpoint: String, uid: String?) async throws(WeiboError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            throw Self.weiboError(error, sending: request)
        }
        try Self.check(response, endpoint: endpoint, uid: uid)
        return response
    }

    /// Sends a write once. A lost answer is `nil` with the reason in
    /// `unknown`; an error answer is thrown.
    func write(_ request: HTTPRequest, endpoint: String, uid: String?, sentText: String? = nil) async throws(WeiboError) -> Result<
        HTTPResponse, UnknownOutcome
    > {
        switch try await publish(request) {
        case .unknown(let reason): return .failure(UnknownOutcome(reason: reason))
        case .answered(let response):
            try Self.check(response, endpoint: endpoint, uid: uid, sentText: sentText)
            return .success(response)
        }
    }

    /// Sends a write once through the toolkit's client.
    func publish(_ request: HTTPRequest) async throws(WeiboError) -> ServiceClient.PublishAttempt {
        do {
            return try await http.publish(request)
        } catch {
            throw Self.weiboError(error, sending: request)
        }
    }

    /// Why a write's outcome is unknown.
    struct UnknownOutcome: Error {
        let reason: String
    }

    /// Sends a write and decodes its answer; a 2xx answer that cannot be
    /// read means Weibo acted but said something unexpected: outcome unknown.
    func write<Value: Sendable & Hashable>(
        _ request: HTTPRequest, endpoint: String, uid: String?, sentText: String? = nil,
        decode: ([UInt8]) throws(WeiboDecodingError) -> Value
    ) async throws(WeiboError) -> WeiboWriteOutcome<Value> {
        switch try await write(request, endpoint: endpoint, uid: uid, sentText: sentText) {
        case .failure(let unknown): return .outcomeUnknown(reason: unknown.reason)
        case .success(let response):
            do {
                return .done(try decode(response.body))
            } catch {
                return .outcomeUnknown(reason: "Weibo answered \(endpoint) with HTTP \(response.status) but \(error); it may have been done")
            }
        }
    }

    /// Decodes a read's answer, naming the endpoint in the error.
    func decode<Value>(_ response: HTTPResponse, endpoint: String, _ decode: ([UInt8]) throws(WeiboDecodingError) -> Value) throws(WeiboError) -> Value {
        do {
            return try decode(response.body)
        } catch {
            throw .malformed(endpoint: endpoint, error)
        }
    }

    /// Throws the typed error an answer carries: Weibo's error JSON, or a
    /// non-2xx status without one.
    static func check(_ response: HTTPResponse, endpoint: String, uid: String?, sentText: String? = nil) throws(WeiboError) {
        if let answer = WeiboErrorAnswer(response) {
            throw answer.error(endpoint: endpoint, uid: uid, sentText: sentText, maxTextLength: maxTextLength)
        }
        guard (200..<300).contains(response.status) else {
            if response.status == 429 { throw .rateLimited(code: 429, retryAfter: response.retryAfter) }
            let message: String
            do {
                _ = try response.json()
                message = "Weibo answered without an error code: \(JSONValue.snippet(of: response.body))"
            } catch {
                message = "Weibo answered \(error)"
            }
            throw .server(status: response.status, code: nil, message: message)
        }
    }

    /// The ``WeiboError`` for a transport failure of `request`: a
    /// cancellation is ``WeiboError/cancelled``, anything else
    /// ``WeiboError/network(_:)`` with the method and path (never the
    /// query).
    static func weiboError(_ error: TransportError, sending request: HTTPRequest) -> WeiboError {
        error == .cancelled ? .cancelled : .network(UnderlyingError(error, sending: request))
    }

    /// Checks a text against Weibo's 140-character rule before sending it.
    static func checkLength(_ text: String, allowEmpty: Bool = false) throws(WeiboError) {
        guard allowEmpty || !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidArgument("the text is empty")
        }
        let length = TextCounting.weibo.length(of: text)
        if length > maxTextLength { throw .textTooLong(length: length, maxLength: maxTextLength) }
    }

    /// Checks an id before it goes into a request.
    static func checkID(_ id: String, _ what: String) throws(WeiboError) {
        guard WeiboIdentifier.isValid(id) else { throw .invalidArgument("\(what) \"\(id.prefix(40))\" is not a Weibo id (digits)") }
    }
}
