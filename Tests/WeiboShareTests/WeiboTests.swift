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

@testable import WeiboShare

@Suite("Weibo provider against a loopback server")
struct WeiboTests {
    static let token = "2.00WeiboTokenSecretXyz"

    func provider(_ server: LoopbackHTTPServer, clock: TestClock, log: InMemoryServiceLog = InMemoryServiceLog(), timeout: Duration = .seconds(5))
        -> WeiboProvider
    {
        WeiboProvider(
            configuration: .init(appKey: "12345", safeDomainLink: URL(string: "https://photodeck.example/s")!, apiBase: server.url(path: "")),
            client: testClient(clock: clock, log: log, timeout: timeout))
    }

    @Test("a status with a picture goes to statuses/share.json with the token in the header and the safe-domain link appended")
    func postsStatus() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["idstr": "4900000000000001", "id": 4_900_000_000_000_001, "user": ["idstr": "1750000001"]]) }
        defer { server.stop() }
        let clock = TestClock()
        let jpeg = try noiseJPEG()
        let outcome = try await provider(server, clock: clock).share(
            prepared(text: "海边的日落 sunset", images: [jpeg]), to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
        #expect(outcome == .posted(ShareReceipt(postID: "4900000000000001", url: URL(string: "https://weibo.com/1750000001/4900000000000001"))))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.route == "POST /2/statuses/share.json")
        #expect(request.headers["authorization"] == "OAuth2 \(Self.token)")
        #expect(!request.target.contains(Self.token))
        let parts = request.formParts
        // Raw UTF-8 bytes, not percent-encoded.
        #expect(parts["status"] == Array("海边的日落 sunset https://photodeck.example/s".utf8))
        #expect(parts["pic"] == jpeg)
        // No end-user IP configured: the address this device sends from toward the API.
        #expect(parts["rip"] == Array("127.0.0.1".utf8))
    }

    @Test("a shared link's picture is the status's picture (a status has no card), when the status has none of its own")
    func linkPicture() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["idstr": "78", "user": ["idstr": "9"]]) }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(
            credentials: InMemoryCredentialStore([credential(WeiboProvider.id, token: Self.token, clock: clock)]), clock: clock, adapter: .media)
        await center.register(provider(server, clock: clock))
        let cover = try noiseJPEG()
        let gallery = URL(string: "https://photodeck.example/g/lisbon/")!
        let link = ShareContent(text: "Lisbon", link: ShareLink(url: gallery, title: "Lisbon", thumbnail: .encoded(cover)))
        let target = try #require(await center.targets(for: link).first { $0.provider == WeiboProvider.id })
        _ = try await center.share(link, to: target)
        let parts = try #require(server.requests.last?.formParts)
        #expect(parts["status"] == Array("Lisbon https://photodeck.example/g/lisbon/".utf8))
        let picture = try #require(parts["pic"])
        #expect(picture.starts(with: [0xFF, 0xD8, 0xFF]) && picture.count > 500, "a JPEG: \(picture.prefix(4))")
        // A picture of its own goes instead; a link without one brings none.
        let own = try noiseJPEG(seed: 9)
        var both = link
        both.images = [.encoded(own)]
        _ = try await center.share(both, to: target)
        #expect(server.requests.last?.formParts["pic"] == own)
        _ = try await center.share(ShareContent(text: "Lisbon", link: ShareLink(url: gallery)), to: target)
        #expect(server.requests.last?.formParts["pic"] == nil)
        #expect(server.requests.count == 3)
    }

    @Test("a text that already links to the safe domain is left alone; the constraints keep room for the link")
    func safeDomainLink() throws {
        let weibo = WeiboProvider(configuration: .init(appKey: "1", safeDomainLink: URL(string: "https://photodeck.example/s")!))
        #expect(weibo.status(for: "see https://photodeck.example/p/1") == "see https://photodeck.example/p/1")
        #expect(weibo.status(for: nil) == "https://photodeck.example/s")
        let constraints = try #require(weibo.constraints(for: .timeline))
        #expect(constraints.text?.maxLength == 140 - TextCounting.weibo.length(of: " https://photodeck.example/s"))
        #expect(constraints.images?.maxBytes == 5 * 1024 * 1024)
        #expect(weibo.constraints(for: .session) == nil)
    }

    @Test("Weibo takes no video: its rules say so, and the center does not offer it for a video while WeCom is offered")
    func noVideo() async throws {
        let server = try LoopbackHTTPServer { _ in ok([:]) }
        defer { server.stop() }
        let clock = TestClock()
        let weibo = provider(server, clock: clock)
        #expect(weibo.constraints(for: .timeline)?.videos == nil)
        let content = ShareContent(video: ShareVideo(path: try TestVideos.h264()))
        #expect(weibo.constraints(for: .timeline)?.violations(of: content) == [.videoNotAccepted])
        let center = ShareCenter(adapter: .media)
        await center.register(weibo)
        await center.register(WeComWebhookProvider(configuration: .init(webhookKey: "k", apiBase: server.url(path: ""))))
        #expect(await center.targets(for: content).map(\.provider) == ["wecom"])
        #expect(server.requests.isEmpty)
    }

    @Test("availability: configured by its app key, authorised until the token expires, reachable per the network monitor")
    func availability() async throws {
        let clock = TestClock()
        let network = FakeNetworkMonitor(.wifi)
        let weibo = WeiboProvider(
            configuration: .init(appKey: "1", safeDomainLink: URL(string: "https://photodeck.example")!),
            client: testClient(clock: clock).monitoring(network))
        let token = credential(WeiboProvider.id, token: Self.token, clock: clock)
        #expect(await weibo.availability(credential: token).isAvailable)
        #expect(await weibo.availability(credential: nil).isAuthorized == false)
        clock.advance(by: .seconds(3600))
        #expect(await weibo.availability(credential: token).isAuthorized == false, "expired")
        network.set(.unreachable)
        #expect(await weibo.availability(credential: nil).isReachable == false)
        let unconfigured = WeiboProvider(configuration: .init(appKey: "", safeDomainLink: URL(string: "https://photodeck.example")!))
        #expect(await unconfigured.availability(credential: token).isConfigured == false)
    }

    @Test(
        "error answers map to typed errors",
        arguments: [
            (400, #"{"error":"expired_token","error_code":21327,"request":"/2/statuses/share.json"}"#, ShareError.authorizationExpired("weibo")),
            (403, #"{"error":"invalid_access_token","error_code":"21332"}"#, .authorizationExpired("weibo")),
            (403, #"{"error":"User requests out of rate limit!","error_code":10023}"#, .rateLimited(retryAfter: nil)),
            (400, #"{"error":"repeat content!","error_code":20019}"#, .rejected(reason: "duplicate status: repeat content! (Weibo error 20019)")),
            (500, #"{"error":"system error!","error_code":10001}"#, .server(status: 500, message: "system error! (Weibo error 10001)")),
            (
                400, #"{"error":"text too long","error_code":20012}"#,
                .rejected(reason: "text too long (Weibo error 20012): the status is longer than Weibo's 140 characters; shorten it")
            ),
            (500, "<html>Internal Server Error</html>", .server(status: 500, message: "Weibo answered not JSON")),
            (404, "", .server(status: 404, message: "Weibo answered not JSON")),
        ])
    func errorMapping(status: Int, body: String, expected: ShareError) {
        let response = HTTPResponse(status: status, body: Array(body.utf8))
        do throws(ShareError) {
            let outcome = try WeiboResponse.outcome(of: response)
            Issue.record("expected \(expected), got \(outcome)")
        } catch {
            if case .server(let gotStatus, let message) = error, case .server(let wantStatus, let prefix) = expected {
                #expect(gotStatus == wantStatus && message.hasPrefix(prefix))
            } else {
                #expect(error == expected)
            }
        }
    }

    @Test("answers that do not prove a post are 'outcome unknown'; 20032 counts as posted")
    func unknownOutcomes() throws {
        let notJSON = try WeiboResponse.outcome(of: HTTPResponse(status: 200, body: Array("<html>ok".utf8)))
        #expect({ if case .outcomeUnknown = notJSON { true } else { false } }())
        let noID = try WeiboResponse.outcome(of: HTTPResponse(status: 200, body: Array(#"{"text":"hi"}"#.utf8)))
        #expect({ if case .outcomeUnknown = noID { true } else { false } }())
        let delayed = try WeiboResponse.outcome(of: HTTPResponse(status: 200, body: Array(#"{"error":"synced later","error_code":20032}"#.utf8)))
        #expect(delayed == .posted(ShareReceipt()))
    }

    @Test(
        "a post whose answer is lost is never sent twice and ends 'outcome unknown'",
        arguments: ["drop", "truncated", "timeout", "gateway"])
    func lostAnswers(fault: String) async throws {
        let server = try LoopbackHTTPServer { _ in
            switch fault {
            case "drop": .dropConnection
            case "truncated": .truncated(status: 200, declaredLength: 500, body: Array(#"{"idstr":"49"#.utf8))
            // Far beyond the 1 s timeout, so that a loaded machine's late timer still fires first (stop() ends the wait).
            case "timeout": .delayed(.seconds(60), status: 200, body: Array(#"{"idstr":"1"}"#.utf8))
            default: .respond(status: 504, body: Array("Gateway Timeout".utf8))
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let outcome = try await provider(server, clock: clock, timeout: .seconds(1)).share(
            prepared(text: "hello"), to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected outcome unknown, got \(outcome)")
            return
        }
        #expect(reason.contains("may or may not"))
        #expect(server.requests.count == 1)
    }

    @Test("a refused connection is a network error (nothing was sent)")
    func refused() async throws {
        let closed = try ClosedPort()
        let url = closed.url
        let clock = TestClock()
        let weibo = WeiboProvider(
            configuration: .init(appKey: "1", safeDomainLink: URL(string: "https://photodeck.example/s")!, apiBase: url), client: testClient(clock: clock))
        await #expect(throws: ShareError.self) {
            try await weibo.share(prepared(text: "hi"), to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
        }
        do throws(ShareError) {
            _ = try await weibo.share(prepared(text: "hi"), to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
            Issue.record("a refused connection must fail")
        } catch {
            #expect({ if case .network = error { true } else { false } }())
        }
    }

    @Test("through the center: an expired token holds the share; after signing in again it resumes and posts once")
    func expiryAndResume() async throws {
        let server = try LoopbackHTTPServer { request in
            request.headers["authorization"] == "OAuth2 fresh-token-123"
                ? ok(["idstr": "77", "user": ["idstr": "9"]])
                : .respond(status: 400, body: json(["error": "expired_token", "error_code": 21327]))
        }
        defer { server.stop() }
        let clock = TestClock()
        let store = InMemoryCredentialStore([credential(WeiboProvider.id, token: "old-token-456", clock: clock)])
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        await center.register(provider(server, clock: clock))
        let content = ShareContent(text: String(repeating: "长", count: 200), images: [.encoded(try noiseJPEG())])
        let target = try #require(await center.targets(for: content).first)
        await #expect(throws: ShareError.authorizationExpired("weibo")) { try await center.share(content, to: target) }
        let pending = try #require(await center.pendingShares().first)
        await store.save(credential(WeiboProvider.id, token: "fresh-token-123", clock: clock))
        let outcome = try await #require(await center.resume(pending)).outcome()
        #expect(outcome == .posted(ShareReceipt(postID: "77", url: URL(string: "https://weibo.com/9/77"))))
        // The 200-character text was trimmed so that text + link count at most 140.
        let status = try #require(server.requests.last?.formParts["status"]).withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        #expect(TextCounting.weibo.length(of: status) <= 140)
        #expect(server.requests.count == 2)
    }

    @Test("the OAuth code exchange gives a credential with uid and expiry; an error never shows the secret or the code")
    func authorizer() async throws {
        let server = try LoopbackHTTPServer { request in
            let form = String(decoding: request.body, as: UTF8.self)
            if request.path == "/oauth2/get_token_info" {
                return form == "access_token=2.00abc"
                    ? ok(["uid": 1_750_000_001, "appkey": "12345", "scope": .null, "create_at": 1_780_000_000, "expire_in": 157_679_999])
                    : .respond(status: 401, body: json(["error": "invalid_access_token", "error_code": 21332]))
            }
            return form.contains("code=good-code")
                ? ok(["access_token": "2.00abc", "expires_in": 157_679_999, "remind_in": "157679999", "uid": "1750000001"])
                : .respond(status: 400, body: json(["error": "invalid_grant: \(form)", "error_code": 21325]))
        }
        defer { server.stop() }
        let clock = TestClock()
        let authorizer = WeiboAuthorizer(
            appKey: "12345", appSecret: "app-secret-value", redirectURI: URL(string: "https://photodeck.example/cb")!, apiBase: server.url(path: ""),
            client: testClient(clock: clock))
        #expect(authorizer.authorizationURL(state: "n1").query?.contains("client_id=12345") == true)
        let credential = try await authorizer.credential(forCode: "good-code")
        #expect(credential.account == "1750000001" && credential.accessToken == "2.00abc")
        #expect(credential.expiresAt == clock.now.addingTimeInterval(157_679_999))
        #expect(authorizer.authorizationURL(state: "n1").query?.contains("forcelogin=true") == true)
        do throws(WeiboError) {
            _ = try await authorizer.credential(forCode: "bad-code-999")
            Issue.record("a bad code must fail")
        } catch {
            #expect(!error.description.contains("app-secret-value") && !error.description.contains("bad-code-999"))
            #expect(error.description.contains("21325"))
        }
    }
}
