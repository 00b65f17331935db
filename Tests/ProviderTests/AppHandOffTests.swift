import Foundation
import ProviderTestSupport
import QQShare
import QQShareTesting
import ShareKit
import ShareKitTesting
import Testing
import WeChatShare
import WeChatShareTesting

/// The WeChat and QQ app providers stand on one hand-off core: the same
/// status gives the same availability and the same refusal, in each app's name.
@Suite("One hand-off core for app providers")
struct AppHandOffTests {
    static let text = PreparedContent(text: "hi", images: [], link: nil, thumbnail: nil)

    /// What a share ends as, in words, for comparing providers.
    static func ending(_ share: () async throws(ShareError) -> ShareOutcome) async -> String {
        do {
            return "\(try await share())"
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "each status: the same availability for WeChat and QQ, and the same refusal naming the app",
        arguments: [
            AppStatus.available, .notInstalled, .notRegistered("the SDK was not registered at launch"),
        ])
    func statuses(status: AppStatus) async {
        let wechat = WeChatAppProvider(bridge: FakeWeChatBridge(status: status, answer: .errCode(-2), platform: .iOS))
        let qq = QQProvider(bridge: FakeQQBridge(status: status, answer: .result("-4"), platform: .iOS))
        #expect(await wechat.availability(credential: nil) == qq.availability(credential: nil))
        let wechatEnding = await Self.ending { () throws(ShareError) in try await wechat.share(Self.text, to: .session, credential: nil) }
        let qqEnding = await Self.ending { () throws(ShareError) in try await qq.share(Self.text, to: .session, credential: nil) }
        switch status {
        case .available:
            // Both users gave up in the app: the same typed answer.
            #expect(wechatEnding == "\(ShareError.cancelled)" && qqEnding == wechatEnding)
        case .notInstalled:
            #expect(wechatEnding == "\(ShareError.unavailable(reason: "WeChat is not installed on this device"))")
            #expect(qqEnding == "\(ShareError.unavailable(reason: "QQ is not installed on this device"))")
        case .notRegistered(let reason):
            #expect(wechatEnding == "\(ShareError.unavailable(reason: "the app is not registered with WeChat: \(reason)"))")
            #expect(qqEnding == "\(ShareError.unavailable(reason: "the app is not registered with QQ: \(reason)"))")
        }
    }

    @Test("no bridge: not configured, and a share says which bridge the host must add; an unknown destination is a typed error")
    func noBridge() async {
        let wechat = WeChatAppProvider(bridge: nil)
        let qq = QQProvider(bridge: nil)
        let expected = ProviderAvailability(isConfigured: false, isAuthorized: true, isReachable: false)
        #expect(await wechat.availability(credential: nil) == expected)
        #expect(await qq.availability(credential: nil) == expected)
        #expect(await Self.ending { () throws(ShareError) in try await wechat.share(Self.text, to: .session, credential: nil) }.contains("WeChatBridge"))
        #expect(await Self.ending { () throws(ShareError) in try await qq.share(Self.text, to: .session, credential: nil) }.contains("QQBridge"))
        let story = ShareDestination("story")
        #expect(
            await Self.ending { () throws(ShareError) in try await wechat.share(Self.text, to: story, credential: nil) }
                == "\(ShareError.unknownTarget(ShareTarget(provider: "wechat", destination: story, displayName: "WeChat")))")
        #expect(
            await Self.ending { () throws(ShareError) in try await qq.share(Self.text, to: story, credential: nil) }
                == "\(ShareError.unknownTarget(ShareTarget(provider: "qq", destination: story, displayName: "QQ")))")
    }
}

@Suite("Vendor-neutral app doubles")
struct FakeAppBridgeTests {
    struct Request: Sendable { var transaction: String }
    struct Response: Sendable, Equatable {
        var code: Int
        var transaction: String?
    }

    @Test("an Android double names the transaction in its answer, an iOS one does not; a refused send is recorded and never answered")
    func answers() async {
        for platform in [AppPlatform.android, .iOS] {
            let app = FakeAppBridge<Request, Response, Bool>(sendResult: true, platform: platform, isTaken: { $0 })
            app.setResponse { request in Response(code: 0, transaction: app.answerTransaction(for: request.transaction)) }
            let answers = app.responses()
            #expect(app.handOff(Request(transaction: "t1")))
            app.setSendResult(false)
            #expect(!app.handOff(Request(transaction: "t2")))
            app.deliver(Response(code: -9, transaction: nil))
            var seen: [Response] = []
            for await answer in answers {
                seen.append(answer)
                if seen.count == 2 { break }
            }
            #expect(seen == [Response(code: 0, transaction: platform == .android ? "t1" : nil), Response(code: -9, transaction: nil)])
            #expect(app.requests.map(\.transaction) == ["t1", "t2"])
        }
    }

    @Test("a sign-in double's routes answer from one state at the clock's time, as JSON or JSONP")
    func signInServer() async throws {
        let clock = TestClock()
        let server = try FakeSignInServer(state: 0, clock: clock, routes: [("GET", "/count")]) { request, now, count in
            count += 1
            return .json(["count": .number(Double(count)), "at": .number(now.timeIntervalSince1970)], callback: request.queryItems["fmt"] != "json")
        }
        defer { server.stop() }
        server.withState { $0 = 41 }
        let transport = CurlTransport()
        let jsonp = try await transport.send(HTTPRequest(method: "GET", url: server.baseURL.appendingPathComponent("count")))
        let json = try await transport.send(HTTPRequest(method: "GET", url: URL(string: server.baseURL.absoluteString + "count?fmt=json")!))
        #expect(String(decoding: jsonp.body, as: UTF8.self).hasPrefix("callback( {"))
        let answer = try JSONValue(parsing: json.body)
        #expect(answer["count"]?.intValue == 43)
        #expect(answer["at"]?.intValue == Int(clock.now.timeIntervalSince1970))
        #expect(server.requests.count == 2)
    }
}
