// The WeiboShare and WeChatShare code samples of the README and the doc
// comments, compiled.

import Foundation
import ServiceKit
import ShareKit
import WeChatShare
import WeiboKit
import WeiboShare

enum ProviderSnippets {
    static func query(base: URL, postID: String) -> URL {
        let url = base.appending(path: "2/statuses/show.json").appendingQuery([("id", postID)])
        return url
    }

    static func readme(
        center: ShareCenter, credentials: any CredentialStore, myLogHandler: any ServiceLogHandler, key: String, appLink: URL, openID: String,
        robotKey: String, secret: String, myWeChatBridge: any WeChatBridge
    ) async throws {
        await center.register(WeChatAppProvider(bridge: myWeChatBridge))  // the WeChat app, through your OpenSDK bridge
        let client = ServiceClient(transport: CurlTransport(), log: myLogHandler)  // retries, redacted logging
        await center.register(WeiboProvider(configuration: .init(appKey: key, safeDomainLink: appLink), client: client))
        await center.register(WeChatOfficialAccountProvider(configuration: .init(appID: "wx...", messageRecipient: openID), client: client))
        await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey), client: client))  // 20 messages a minute, applied
        try await credentials.save(try await WeChatAuthorizer(appID: "wx...", appSecret: secret).credential())
    }

    static func wechatAuthorizer(store: any CredentialStore, secret: String) async throws {
        let authorizer = WeChatAuthorizer(appID: "wx123", appSecret: secret)
        try await store.save(try await authorizer.credential())
    }

    static func officialAccount(center: ShareCenter, credentials: any CredentialStore, followerOpenID: String, secret: String) async throws {
        let wechat = WeChatOfficialAccountProvider(configuration: .init(appID: "wx123", messageRecipient: followerOpenID))
        await center.register(wechat)
        try await credentials.save(try await WeChatAuthorizer(appID: "wx123", appSecret: secret).credential())
    }

    static func wecom(center: ShareCenter, key: String) async {
        let wecom = WeComWebhookProvider(configuration: .init(webhookKey: key))
        await center.register(wecom)
    }

    static func weiboAuthorizer(store: any CredentialStore, secret: String, nonce: String, code: String, openBrowser: (URL) -> Void) async throws {
        let authorizer = WeiboAuthorizer(appKey: "123", appSecret: secret, redirectURI: URL(string: "https://example.com/cb")!)
        openBrowser(authorizer.authorizationURL(state: nonce))
        let credential = try await authorizer.credential(forCode: code)
        try await store.save(credential)
    }

    static func weibo(center: ShareCenter, credentials: any CredentialStore, secret: String, redirect: URL, code: String) async throws {
        let weibo = WeiboProvider(configuration: .init(appKey: "123", safeDomainLink: URL(string: "https://example.com/app")!))
        await center.register(weibo)
        try await credentials.save(try await WeiboAuthorizer(appKey: "123", appSecret: secret, redirectURI: redirect).credential(forCode: code))
    }
}

extension ProviderSnippets {
    static func wechatApp(center: ShareCenter, myBridge: any WeChatBridge) async {
        let wechat = WeChatAppProvider(bridge: myBridge)
        await center.register(wechat)
        // a share ends .outcomeUnknown (handed over), .cancelled, or a typed failure
    }

    static func relay() {
        let relay = WeChatResponseRelay()
        let answers = relay.stream()  // the provider's subscription
        relay.deliver(WeChatResponse(errCode: -2, transaction: "t1"))  // from onResp
        _ = answers
    }

    static func weiboEndUserIP(request: (clientIP: String, Void), center: ShareCenter, content: ShareContent, weiboTarget: ShareTarget) async throws {
        let outcome = try await WeiboProvider.$endUserIP.withValue(request.clientIP) {
            try await center.share(content, to: weiboTarget)
        }
        _ = outcome
    }
}
