public import Foundation
public import ServiceKit
public import ShareKit
import SystemSupport

/// Gets an Official Account's access token (`cgi-bin/stable_token`, the
/// documented way: repeated calls return the same token until it nears
/// expiry, so it is safe to retry) as a ``ServiceKit/Credential`` with its expiry.
///
/// `force_refresh` (a new token, invalidating the old one) is limited by
/// WeChat; the authorizer never sends it twice within 30 seconds and asks
/// for the current token instead. A wrong AppSecret (errcode 40001 or
/// 40125 from this endpoint) is ``ShareKit/ShareError/rejected(reason:)`` saying so,
/// never an "expired token" that signing in again could fix.
///
/// ```swift
/// let authorizer = WeChatAuthorizer(appID: "wx123", appSecret: secret)
/// try await store.save(try await authorizer.credential())
/// ```
public final class WeChatAuthorizer: Sendable {
    /// The Official Account's app id.
    public let appID: String
    private let appSecret: String
    /// Where the API lives.
    public let apiBase: URL
    private let client: ServiceClient
    /// When `force_refresh` was last sent.
    private let lastForcedRefresh = Lock<Date?>(nil)

    /// The shortest time between two forced refreshes.
    public static let forcedRefreshInterval: TimeInterval = 30

    /// Creates an authorizer.
    public init(
        appID: String, appSecret: String, apiBase: URL = WeChatOfficialAccountProvider.defaultAPIBase,
        client: ServiceClient = ServiceClient(transport: CurlTransport())
    ) {
        self.appID = appID
        self.appSecret = appSecret
        self.apiBase = apiBase
        self.client = client
    }

    /// A current access token; `forceRefresh` asks for a new one (at most
    /// once in 30 seconds: a second request within that asks for the
    /// current token).
    public func credential(forceRefresh: Bool = false) async throws(ShareError) -> Credential {
        let now = client.clock.now
        let force =
            forceRefresh
            && lastForcedRefresh.withLock { last in
                guard last.map({ now.timeIntervalSince($0) >= Self.forcedRefreshInterval }) ?? true else { return false }
                last = now
                return true
            }
        let body: JSONValue = [
            "grant_type": "client_credential", "appid": .string(appID), "secret": .string(appSecret), "force_refresh": .bool(force),
        ]
        do throws(ShareError) {
            let response = try await client.sendForShare(.json(apiBase.appending(path: "cgi-bin/stable_token"), body, idempotent: true))
            if let code = TencentAnswer.errorCode(of: response), code == 40001 || code == 40125 {
                throw ShareError.rejected(
                    reason: "stable_token: WeChat refused the app's AppSecret (errcode \(code)); check the AppSecret and the IP allow-list")
            }
            let json = try TencentAnswer.check(response, provider: WeChatOfficialAccountProvider.id, step: "stable_token", now: now)
            guard let token = json["access_token"]?.stringValue, !token.isEmpty else {
                throw ShareError.server(status: response.status, message: "stable_token: the answer has no access_token")
            }
            let expiry = json["expires_in"]?.intValue.flatMap { $0 > 0 ? now.addingTimeInterval(TimeInterval($0)) : nil }
            return Credential(provider: WeChatOfficialAccountProvider.id, account: appID, accessToken: token, expiresAt: expiry)
        } catch {
            throw error.redacting([appSecret])
        }
    }
}
