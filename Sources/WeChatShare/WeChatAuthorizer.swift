public import Foundation
public import ShareKit
public import ShareKitHTTP

/// Gets an Official Account's access token (`cgi-bin/stable_token`, the
/// documented way: repeated calls return the same token until it nears
/// expiry, so it is safe to retry) as a ``Credential`` with its expiry.
///
/// ```swift
/// let authorizer = WeChatAuthorizer(appID: "wx123", appSecret: secret)
/// try await store.save(try await authorizer.credential())
/// ```
public struct WeChatAuthorizer: Sendable {
    /// The Official Account's app id.
    public let appID: String
    private let appSecret: String
    /// Where the API lives.
    public let apiBase: URL
    private let client: ProviderHTTPClient

    /// Creates an authorizer.
    public init(
        appID: String, appSecret: String, apiBase: URL = WeChatOfficialAccountProvider.defaultAPIBase,
        client: ProviderHTTPClient = ProviderHTTPClient(transport: URLSessionTransport())
    ) {
        self.appID = appID
        self.appSecret = appSecret
        self.apiBase = apiBase
        self.client = client
    }

    /// A current access token; `forceRefresh` asks for a new one (rate-limited by WeChat).
    public func credential(forceRefresh: Bool = false) async throws(ShareError) -> Credential {
        let body: JSONValue = [
            "grant_type": "client_credential", "appid": .string(appID), "secret": .string(appSecret), "force_refresh": .bool(forceRefresh),
        ]
        do throws(ShareError) {
            let response = try await client.send(.json(apiBase.appending(path: "cgi-bin/stable_token"), body, idempotent: true))
            let json = try TencentAnswer.check(response, provider: WeChatOfficialAccountProvider.id, step: "stable_token")
            guard let token = json["access_token"]?.stringValue, !token.isEmpty else {
                throw ShareError.server(status: response.status, message: "stable_token: the answer has no access_token")
            }
            let expiry = json["expires_in"]?.intValue.flatMap { $0 > 0 ? client.clock.now.addingTimeInterval(TimeInterval($0)) : nil }
            return Credential(provider: WeChatOfficialAccountProvider.id, account: appID, accessToken: token, expiresAt: expiry)
        } catch {
            throw error.redacting([appSecret])
        }
    }
}
