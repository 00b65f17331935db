import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing
import WeChatShare
import WeiboKit
import WeiboShare

/// Shares with real tokens and a webhook key against servers that fail in
/// every way, and that echo the request (URL, headers, body) back in their
/// error messages, then scans every log line, error and outcome for the secrets.
@Suite("Secrets never reach logs, errors or outcomes")
struct SecretsTests {
    static let weiboToken = "2.00SECRETweiboTOKEN77"
    static let wechatToken = "SECRETwechatTOKEN_88_abcdef"
    static let wecomKey = "SECRET-wecom-key-99-0ec2"
    static let appSecret = "SECRETappSECRET1234"
    static let secrets = [weiboToken, wechatToken, wecomKey, appSecret]

    enum Fault: CaseIterable {
        case echoError, echo500, drop, truncated, notJSON, expired, ok
    }

    /// A server answering every request with `fault`, echoing what it received.
    static func server(_ fault: Fault) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let echo = "\(request.method) \(request.target) \(request.headers) \(String(decoding: request.body.prefix(300), as: UTF8.self))"
            switch fault {
            case .echoError: return ok(["errcode": 40035, "errmsg": .string("invalid args: \(echo)"), "error_code": 20003, "error": .string(echo)])
            case .echo500: return .respond(status: 500, body: Array("Internal error while handling \(echo)".utf8))
            case .drop: return .dropConnection
            case .truncated: return .truncated(status: 200, declaredLength: 1000, body: Array(echo.utf8.prefix(100)))
            case .notJSON: return .respond(status: 200, body: Array("<html>\(echo)</html>".utf8))
            case .expired: return ok(["errcode": 42001, "errmsg": .string("access_token expired \(echo)"), "error_code": 21327, "error": .string(echo)])
            case .ok:
                return ok([
                    "errcode": 0, "errmsg": "ok", "idstr": "1", "media_id": "M", "url": "http://x/y", "publish_id": "P", "publish_status": 0,
                    "article_id": "A", "access_token": "NEW", "uid": "1", "expires_in": 7200,
                ])
            }
        }
    }

    @Test("every provider, destination and fault", arguments: Fault.allCases)
    func scan(fault: Fault) async throws {
        let server = try Self.server(fault)
        defer { server.stop() }
        let clock = TestClock()
        let log = InMemoryServiceLog()
        let client = testClient(clock: clock, log: log, timeout: .seconds(2))
        let base = server.url(path: "")
        let store = InMemoryCredentialStore([
            credential(WeiboProvider.id, token: Self.weiboToken, clock: clock),
            credential(WeChatOfficialAccountProvider.id, token: Self.wechatToken, clock: clock),
        ])
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        await center.register(
            WeiboProvider(configuration: .init(appKey: "k", safeDomainLink: URL(string: "https://photodeck.example")!, apiBase: base), client: client))
        await center.register(
            WeChatOfficialAccountProvider(
                configuration: .init(
                    appID: "wx1", messageRecipient: "oUSER", broadcastAudience: .allFollowers, apiBase: base, publishPolls: 1, publishPollInterval: .zero),
                client: client))
        await center.register(WeComWebhookProvider(configuration: .init(webhookKey: Self.wecomKey, apiBase: base), client: client))

        let content = ShareContent(
            text: "secret scan", images: [.encoded(try noiseJPEG())],
            link: nil)
        var seen: [String] = []
        let targets = await center.targets(for: content)
        #expect(targets.map(\.description) == ["weibo/timeline", "wechat-oa/message", "wechat-oa/article", "wechat-oa/broadcast", "wecom/session"])
        for target in targets {
            let operation = await center.startShare(content, to: target)
            for await event in operation.events { seen.append("\(event)") }
            do throws(ShareError) {
                let outcome = try await operation.outcome()
                seen += ["\(outcome)", String(reflecting: outcome)]
            } catch {
                seen += [error.description, String(reflecting: error), "\(error)"]
            }
        }
        // The authorizers' errors too.
        do throws(ShareError) {
            _ = try await WeChatAuthorizer(appID: "wx1", appSecret: Self.appSecret, apiBase: base, client: client).credential()
        } catch {
            seen += [error.description, String(reflecting: error)]
        }
        do throws(WeiboError) {
            _ = try await WeiboAuthorizer(
                appKey: "k", appSecret: Self.appSecret, redirectURI: URL(string: "https://photodeck.example/cb")!, apiBase: base, client: client
            )
            .credential(forCode: "code-abc")
        } catch {
            seen += [error.description, String(reflecting: error)]
        }
        seen += log.records.map(\.description)
        #expect(log.records.count >= 4)
        #expect(server.requests.count >= 4)
        for line in seen {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "a secret leaked: \(line)")
            }
        }
        // The secrets did reach the server: the scan is not vacuous.
        let sent = server.requests.map { "\($0.target) \($0.headers) \(String(decoding: $0.body, as: UTF8.self))" }.joined()
        #expect(sent.contains(Self.weiboToken) && sent.contains(Self.wechatToken) && sent.contains(Self.wecomKey))
    }
}
