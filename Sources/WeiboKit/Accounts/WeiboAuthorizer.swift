public import Foundation
public import ServiceKit

/// Signs a user in to Weibo with OAuth 2 (authorization code): the app
/// opens ``authorizationURL(state:display:)`` in a browser, receives `code`
/// at its redirect URI, exchanges it with ``credential(forCode:)`` (which
/// verifies the token with `oauth2/get_token_info`), and signs out with
/// ``revoke(_:)``.
///
/// ```swift
/// let authorizer = WeiboAuthorizer(appKey: "123", appSecret: secret, redirectURI: URL(string: "https://example.com/cb")!)
/// openBrowser(authorizer.authorizationURL(state: nonce))
/// let credential = try await authorizer.credential(forCode: code)
/// try await store.save(credential)
/// ```
public struct WeiboAuthorizer: Sendable {
    /// The provider id credentials are saved under, `"weibo"`.
    public static let provider: ProviderID = "weibo"
    /// The app key (`client_id`).
    public let appKey: String
    private let appSecret: String
    /// The registered redirect URI.
    public let redirectURI: URL
    /// Where the OAuth endpoints live.
    public let apiBase: URL
    private let client: ServiceClient

    /// Creates an authorizer.
    public init(
        appKey: String, appSecret: String, redirectURI: URL, apiBase: URL = WeiboAPI.defaultBase,
        client: ServiceClient = ServiceClient(transport: CurlTransport())
    ) {
        self.appKey = appKey
        self.appSecret = appSecret
        self.redirectURI = redirectURI
        self.apiBase = apiBase
        self.client = client
    }

    /// How the authorize page is shown (`display`).
    public enum Display: String, Sendable {
        /// A desktop browser.
        case `default`
        /// A phone browser.
        case mobile
    }

    /// The page where the user grants access; `state` comes back with the
    /// code. `forcelogin=true` always asks for a sign-in, so a second
    /// account can be added while the browser remembers the first.
    public func authorizationURL(state: String, display: Display? = nil) -> URL {
        var query = [
            ("client_id", appKey), ("redirect_uri", redirectURI.absoluteString), ("response_type", "code"), ("state", state),
            ("forcelogin", "true"),
        ]
        if let display { query.append(("display", display.rawValue)) }
        return apiBase.appending(path: "oauth2/authorize").appendingQuery(query)
    }

    /// The `code` in the URL the browser was sent back to, after checking
    /// its `state`; `input` may also be the bare code. Weibo's refusal
    /// (`error=access_denied`) is an error.
    public func code(fromRedirect input: String, expectedState: String?) throws(WeiboError) -> String {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.contains("?") || text.contains("://"), let components = URLComponents(string: text) else {
            guard !text.isEmpty,
                text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) })
            else {
                throw .invalidArgument("paste the URL the browser was sent to, or the code in it")
            }
            return text
        }
        let items = components.queryItems ?? []
        if let error = items.first(where: { $0.name == "error" })?.value {
            let reason = items.first { $0.name == "error_description" }?.value
            throw .invalidArgument("Weibo refused the sign-in: \(error)\(reason.map { " (\($0))" } ?? "")")
        }
        if let expectedState, items.first(where: { $0.name == "state" })?.value != expectedState {
            throw .invalidArgument("the redirect's state does not match this sign-in; start again")
        }
        guard let code = items.first(where: { $0.name == "code" })?.value, !code.isEmpty else {
            throw .invalidArgument("the redirect URL has no code")
        }
        return code
    }

    /// Exchanges an authorization code for a credential
    /// (`oauth2/access_token`, sent once: a code works once), then asks
    /// `oauth2/get_token_info` whose token it is: the uid saved is the one
    /// Weibo states for the token, and a token issued to another app is refused.
    public func credential(forCode code: String) async throws(WeiboError) -> Credential {
        let form = URLEncodedForm([
            ("client_id", appKey), ("client_secret", appSecret), ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", redirectURI.absoluteString),
        ])
        let request = HTTPRequest(
            method: "POST", url: apiBase.appending(path: "oauth2/access_token"), headers: ["Content-Type": URLEncodedForm.contentType],
            body: form.body, isIdempotent: false)
        let attempt: ServiceClient.PublishAttempt
        do {
            attempt = try await client.publish(request)
        } catch {
            // The code and secret travel in the body, never in the path the
            // error names; redacting keeps it so if a transport's reason
            // ever quotes the request.
            switch WeiboAPI.weiboError(error, sending: request) {
            case .network(let cause): throw .network(cause.redacting([appSecret, code]))
            case let other: throw other
            }
        }
        let response: HTTPResponse
        switch attempt {
        case .unknown(let reason): throw .network(UnderlyingError(message: Self.redact(reason, [appSecret, code])))
        case .answered(let answer): response = answer
        }
        let issued = try Self.credential(from: response, issuedAt: client.clock.now, secrets: [appSecret, code])
        let info = try await tokenInfo(issued.accessToken)
        guard info.appKey == appKey else {
            throw .invalidArgument("Weibo issued the token to app \(info.appKey), not to \(appKey)")
        }
        return Credential(
            provider: Self.provider, account: info.uid, accessToken: issued.accessToken,
            expiresAt: info.expiresIn > 0 ? client.clock.now.addingTimeInterval(info.expiresIn) : issued.expiresAt)
    }

    /// What Weibo says about `token` (`oauth2/get_token_info`): its user,
    /// app and remaining life.
    public func tokenInfo(_ token: String) async throws(WeiboError) -> WeiboTokenInfo {
        let request = HTTPRequest(
            method: "POST", url: apiBase.appending(path: "oauth2/get_token_info"), headers: ["Content-Type": URLEncodedForm.contentType],
            body: URLEncodedForm([("access_token", token)]).body, isIdempotent: true)
        let api = WeiboAPI(base: apiBase, http: client)
        let response = try await api.read(request, endpoint: "oauth2/get_token_info", uid: nil)
        return try api.decode(response, endpoint: "oauth2/get_token_info", WeiboDecoder.tokenInfo)
    }

    /// Revokes `credential`'s token (`oauth2/revokeoauth2`). A token Weibo
    /// already considers dead counts as revoked.
    public func revoke(_ credential: Credential) async throws(WeiboError) {
        let request = HTTPRequest(
            method: "POST", url: apiBase.appending(path: "oauth2/revokeoauth2"), headers: ["Content-Type": URLEncodedForm.contentType],
            body: URLEncodedForm([("access_token", credential.accessToken)]).body, isIdempotent: true)
        do {
            _ = try await WeiboAPI(base: apiBase, http: client).read(request, endpoint: "oauth2/revokeoauth2", uid: credential.account)
        } catch .needsSignIn {
            return
        }
    }

    /// Reads `{"access_token": "...", "expires_in": 157679999, "uid": "12341234"}`.
    package static func credential(from response: HTTPResponse, issuedAt now: Date, secrets: [String] = []) throws(WeiboError) -> Credential {
        if let answer = WeiboErrorAnswer(response) {
            throw .rejected(endpoint: "oauth2/access_token", code: answer.code, message: redact(answer.message, secrets))
        }
        let json: JSONValue
        do {
            json = try response.json()
        } catch {
            throw .malformed(endpoint: "oauth2/access_token", WeiboDecodingError(path: "", expected: "JSON", found: redact(error.description, secrets)))
        }
        guard (200..<300).contains(response.status), let token = json["access_token"]?.stringValue, !token.isEmpty,
            let uid = json["uid"]?.stringValue, !uid.isEmpty
        else {
            throw .server(status: response.status, code: nil, message: "the token endpoint answered without access_token and uid")
        }
        let expiry = json["expires_in"]?.intValue.flatMap { $0 > 0 ? now.addingTimeInterval(TimeInterval($0)) : nil }
        return Credential(provider: Self.provider, account: uid, accessToken: token, expiresAt: expiry)
    }

    private static func redact(_ text: String, _ secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
    }
}
