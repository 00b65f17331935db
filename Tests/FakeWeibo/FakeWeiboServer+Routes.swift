import Foundation
import ServiceKit
public import ServiceKitTesting
import Synchronization

extension FakeWeiboServer {
    typealias Reply = LoopbackHTTPServer.Reply

    static func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> Reply {
        .respond(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: value.encoded())
    }

    /// Weibo's error JSON.
    static func error(_ code: Int, _ message: String, path: String, status: Int = 400, headers: [String: String] = [:]) -> Reply {
        json(["error": .string(message), "error_code": .number(Double(code)), "request": .string(path)], status: status, headers: headers)
    }

    /// The fields of a form body, or of the query for a GET.
    public static func fields(of request: LoopbackHTTPServer.Request) -> [String: String] {
        if request.method == "GET" { return request.queryItems }
        if let type = request.headers["content-type"], type.hasPrefix("multipart/") {
            let parts = MultipartForm.parts(of: request.body, contentType: type) ?? []
            // "#multipart" records the encoding, for the routes that care.
            return Dictionary(
                parts.map { ($0.name, String(decoding: $0.data, as: UTF8.self)) } + [("#multipart", "1")], uniquingKeysWith: { first, _ in first })
        }
        let components = URLComponents(string: "http://localhost/?\(String(decoding: request.body, as: UTF8.self))")
        return Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    static func answer(_ request: LoopbackHTTPServer.Request, state: StateBox) -> Reply {
        let path = request.path
        let fields = fields(of: request)
        // Test switches first.
        if state.mutex.withLock({ $0.offline }) { return .dropConnection }
        let (lose, malformed, limited, failure) = state.mutex.withLock { state in
            (
                state.loseAnswer.remove(path) != nil, state.malformed.removeValue(forKey: path), state.rateLimited.remove(path) != nil,
                state.failures.removeValue(forKey: path)
            )
        }
        if let malformed { return .respond(status: 200, headers: ["Content-Type": "application/json"], body: malformed) }
        if limited { return error(10023, "User requests out of rate limit!", path: path, status: 403) }
        if let code = state.mutex.withLock({ $0.rateLimitCodes.removeValue(forKey: path) }) { return rateLimitError(code, path: path) }
        if let failure { return error(failure.code, failure.message, path: path) }
        let reply: Reply = state.mutex.withLock { state in
            switch (request.method, path) {
            case ("GET", "/oauth2/authorize"): return authorize(fields, state: &state)
            case ("POST", "/oauth2/access_token"): return accessToken(fields, state: &state)
            case ("POST", "/oauth2/get_token_info"): return tokenInfo(fields, state: &state)
            case ("POST", "/oauth2/revokeoauth2"), ("GET", "/oauth2/revokeoauth2"):
                guard let token = fields["access_token"], let known = state.tokens[token], !known.revoked else {
                    return error(21332, "invalid_access_token", path: path, status: 401)
                }
                state.tokens[token]?.revoked = true
                return json(["result": "true"])
            default: break
            }
            // Everything under /2/ needs a live token.
            switch tokenOwner(request, fields: fields, path: path, state: state) {
            case .failure(let box): return box.reply
            case .success(let uid): return api(request.method, path, fields, uid: uid, state: &state)
            }
        }
        if lose { return .dropConnection }
        return reply
    }

    /// Weibo's rate-limit refusal: HTTP 403 with the error JSON and no `Retry-After`.
    static func rateLimitError(_ code: Int, path: String) -> Reply {
        let endpoint = path.dropFirst(3).replacingOccurrences(of: ".json", with: "")
        let message = code == 10024 ? "User requests for (\(endpoint)) out of rate limit!" : "User requests out of rate limit!"
        return error(code, message, path: path, status: 403)
    }

    /// The user a request's token belongs to, or the error Weibo answers.
    static func tokenOwner(_ request: LoopbackHTTPServer.Request, fields: [String: String], path: String, state: State) -> Result<String, ReplyBox> {
        let token = request.headers["authorization"].flatMap { $0.hasPrefix("OAuth2 ") ? String($0.dropFirst(7)) : nil } ?? fields["access_token"]
        guard let token, let known = state.tokens[token], !known.revoked else {
            return .failure(ReplyBox(error(21332, "invalid_access_token", path: path, status: 401)))
        }
        if known.expired { return .failure(ReplyBox(error(21327, "expired_token", path: path, status: 401))) }
        return .success(known.uid)
    }

    /// A reply as an error value.
    struct ReplyBox: Error {
        let reply: Reply
        init(_ reply: Reply) { self.reply = reply }
    }

    /// The reminder host: `remind/unread_count` only, with the API's token.
    static func answerRemind(_ request: LoopbackHTTPServer.Request, state: StateBox) -> Reply {
        let path = request.path
        let fields = fields(of: request)
        if state.mutex.withLock({ $0.offline }) { return .dropConnection }
        if let code = state.mutex.withLock({ $0.rateLimitCodes.removeValue(forKey: path) }) { return rateLimitError(code, path: path) }
        return state.mutex.withLock { state in
            guard request.method == "GET", path == "/2/remind/unread_count.json" else {
                return error(10021, "HTTP method is not suported for this request!", path: path, status: 405)
            }
            let uid: String
            switch tokenOwner(request, fields: fields, path: path, state: state) {
            case .failure(let box): return box.reply
            case .success(let owner): uid = owner
            }
            guard let asked = fields["uid"] else { return error(10016, "miss required parameter (uid)", path: path) }
            guard asked == uid else { return error(21335, "Request uid's value must be the current user", path: path, status: 403) }
            return json(unreadCounts(of: uid, state: state))
        }
    }

    private static func authorize(_ fields: [String: String], state: inout State) -> Reply {
        guard fields["client_id"] == appKey else { return error(21323, "invalid_client", path: "/oauth2/authorize") }
        guard fields["redirect_uri"] == redirectURI else { return error(21322, "redirect_uri_mismatch", path: "/oauth2/authorize") }
        // The "browser" signs in the first user; tests use issueCode(for:) to choose.
        let code = "code-browser-\(state.codes.count + 1)"
        state.codes[code] = "1750000001"
        var location = URLComponents(string: redirectURI)!
        location.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: fields["state"] ?? "")]
        return .respond(status: 302, headers: ["Location": location.string!], body: [])
    }

    private static func accessToken(_ fields: [String: String], state: inout State) -> Reply {
        let path = "/oauth2/access_token"
        guard fields["client_id"] == appKey, fields["client_secret"] == appSecret else { return error(21324, "invalid_client", path: path) }
        guard fields["grant_type"] == "authorization_code" else { return error(21328, "unsupported_grant_type", path: path) }
        guard fields["redirect_uri"] == redirectURI else { return error(21322, "redirect_uri_mismatch", path: path) }
        guard let code = fields["code"], let uid = state.codes.removeValue(forKey: code) else { return error(21325, "invalid_grant", path: path) }
        let token = "2.00\(uid)t\(state.tokens.count + 1)"
        state.tokens[token] = Token(uid: uid)
        state.users[uid]?.authorizedApp = true
        return json(["access_token": .string(token), "expires_in": 157_679_999, "remind_in": "157679999", "uid": .string(uid), "isRealName": "true"])
    }

    private static func tokenInfo(_ fields: [String: String], state: inout State) -> Reply {
        let path = "/oauth2/get_token_info"
        guard let token = fields["access_token"], let known = state.tokens[token], !known.revoked else {
            return error(21332, "invalid_access_token", path: path, status: 401)
        }
        if known.expired { return error(21327, "expired_token", path: path, status: 401) }
        return json([
            "uid": .number(Double(known.uid) ?? 0), "appkey": .string(appKey), "scope": .null, "create_at": 1_780_000_000,
            "expire_in": 157_679_000,
        ])
    }
}
