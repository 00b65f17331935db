public import Foundation
public import ShareKit
public import ShareKitHTTP

/// Signs a user in to Weibo with OAuth 2 (authorization code): the app
/// opens ``authorizationURL(state:)`` in a browser, receives `code` at its
/// redirect URI, and exchanges it for a ``Credential`` with an expiry.
///
/// ```swift
/// let authorizer = WeiboAuthorizer(appKey: "123", appSecret: secret, redirectURI: URL(string: "https://example.com/cb")!)
/// openBrowser(authorizer.authorizationURL(state: nonce))
/// let credential = try await authorizer.credential(forCode: code)
/// try await store.save(credential)
/// ```
public struct WeiboAuthorizer: Sendable {
    /// The app key (`client_id`).
    public let appKey: String
    private let appSecret: String
    /// The registered redirect URI.
    public let redirectURI: URL
    /// Where the API lives.
    public let apiBase: URL
    private let client: ProviderHTTPClient

    /// Creates an authorizer.
    public init(
        appKey: String, appSecret: String, redirectURI: URL, apiBase: URL = WeiboProvider.defaultAPIBase,
        client: ProviderHTTPClient = ProviderHTTPClient(transport: URLSessionTransport())
    ) {
        self.appKey = appKey
        self.appSecret = appSecret
        self.redirectURI = redirectURI
        self.apiBase = apiBase
        self.client = client
    }

    /// The page where the user grants access; `state` comes back with the code.
    public func authorizationURL(state: String) -> URL {
        var components = URLComponents(url: apiBase.appending(path: "oauth2/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "client_id", value: appKey), URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "state", value: state),
        ]
        return components.url!
    }

    /// Exchanges an authorization code for a credential (`oauth2/access_token`).
    /// A code works once, so the request is never retried.
    public func credential(forCode code: String) async throws(ShareError) -> Credential {
        let form = URLEncodedForm([
            ("client_id", appKey), ("client_secret", appSecret), ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", redirectURI.absoluteString),
        ])
        let request = HTTPRequest(
            method: "POST", url: apiBase.appending(path: "oauth2/access_token"), headers: ["Content-Type": URLEncodedForm.contentType],
            body: form.body, isIdempotent: false)
        let response: HTTPResponse
        switch try await client.publish(request) {
        case .unknown(let reason): throw .network(UnderlyingError(message: reason))
        case .answered(let answer): response = answer
        }
        do throws(ShareError) {
            return try Self.credential(from: response, issuedAt: client.clock.now)
        } catch {
            throw error.redacting([appSecret, code])
        }
    }

    /// Reads `{"access_token": "...", "expires_in": 157679999, "uid": "12341234"}`.
    package static func credential(from response: HTTPResponse, issuedAt now: Date) throws(ShareError) -> Credential {
        let json: JSONValue
        do {
            json = try response.json()
        } catch {
            throw .server(status: response.status, message: "Weibo's token endpoint answered \(error)")
        }
        if let code = json["error_code"]?.intValue {
            throw .rejected(reason: "\(json["error_description"]?.stringValue ?? json["error"]?.stringValue ?? "error") (Weibo error \(code))")
        }
        guard (200..<300).contains(response.status), let token = json["access_token"]?.stringValue, !token.isEmpty,
            let uid = json["uid"]?.stringValue, !uid.isEmpty
        else {
            throw .server(status: response.status, message: "Weibo's token endpoint answered without access_token and uid")
        }
        let expiry = json["expires_in"]?.intValue.flatMap { $0 > 0 ? now.addingTimeInterval(TimeInterval($0)) : nil }
        return Credential(provider: WeiboProvider.id, account: uid, accessToken: token, expiresAt: expiry)
    }
}
