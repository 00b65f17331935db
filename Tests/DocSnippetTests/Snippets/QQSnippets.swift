// The QQShare, FieldLimit and AnswerRelay code samples of the doc comments
// and DocC pages, compiled.

import Foundation
import QQShare
import QQShareTesting
import ServiceKit
import ServiceKitTesting
import ShareKit
import Testing
import WeChatShare

enum QQSnippets {
    static func kinds() {
        let places = QQMessageKind.file.acceptingDestinations(on: .iOS)  // [.dataline]
        _ = places
    }

    static func fieldLimit() {
        let title = FieldLimit("QQApiObject.title", limit: 128, unit: .characters)
        let problems = title.violations(size: title.size(of: "日落"))  // []
        _ = problems
    }

    static func card(jpegUnder1MB: [UInt8]) {
        let card = QQCard(title: "日落", summary: "码头", previewImage: jpegUnder1MB)
        _ = card
    }

    static func request() throws(ShareError) {
        let request = try QQSendRequest(
            .news(url: URL(string: "https://example.com/p")!, card: QQCard(title: "日落")), to: .qzone, platform: .iOS)
        _ = request
    }

    static func provider(myQQBridge: any QQBridge, center: ShareCenter, pageURL: URL) async throws {
        let qq = QQProvider(bridge: myQQBridge)
        await center.register(qq)
        let outcome = try await qq.send(.news(url: pageURL, card: QQCard(title: "日落")), to: .timeline)
        _ = outcome
    }

    static func fake() {
        let bridge = FakeQQBridge(answer: .result("-4"))  // the user gives up
        let qq = QQProvider(bridge: bridge)
        // ... the app shares ...
        #expect(bridge.requests.first?.destination == .qzone)
        _ = qq
    }

    static func article() async throws {
        let bridge = FakeQQBridge(answer: .result("0"))
        let qq = QQProvider(bridge: bridge)
        _ = try await qq.send(.news(url: URL(string: "https://example.com/")!, card: QQCard(title: "日落")), to: .timeline)
        #expect(bridge.requests.first?.sdkObject == "QQApiNewsObject")
    }

    static func relay() {
        let relay = AnswerRelay<String>()
        let answers = relay.stream()  // a provider's subscription
        relay.deliver("0")  // from the SDK's callback
        _ = answers
    }

    static func wechatRelay() {
        let relay = WeChatResponseRelay()
        let answers = relay.stream()  // the provider's subscription
        relay.deliver(WeChatResponse(errCode: -2, transaction: "t1"))  // from onResp
        _ = answers
    }
}

enum QQSignInSnippets {
    protocol AppServer { func signIn(withQQToken token: String, openID: String) async throws }

    static func app(myQQBridge: any QQBridge, myServer: any AppServer) async throws {
        let signIn = QQSignIn(bridge: myQQBridge, clock: SystemClock())
        let claim = try await signIn.authorize()
        try await myServer.signIn(withQQToken: claim.accessToken, openID: claim.openID)
    }

    static func server(tokenFromTheApp: String, openIDFromTheApp: String) async throws {
        let verifier = QQUserVerifier(appID: "1105384223")
        let user = try await verifier.verify(accessToken: tokenFromTheApp, openID: openIDFromTheApp)
        _ = user
    }

    static func fake() throws {
        let qq = try FakeQQConnectServer(clock: TestClock())
        defer { qq.stop() }
        let token = qq.issueToken(appID: "1105384223", openID: "B08D412EEC4000FFC37CAABBDC1234CC")
        // verify `token` with QQUserVerifier(appID: "1105384223", apiBase: qq.baseURL, ...)
        _ = token
    }
}
