// The Sign in with WeChat code samples of the doc comments, compiled.

import Foundation
import ServiceKit
import ServiceKitTesting
import WeChatShare
import WeChatShareTesting
import WeiboKit

enum WeChatSignInSnippets {
    protocol AppServer { func signIn(withWeChatCode code: String) async throws }

    static func app(myWeChatBridge: any WeChatBridge, myServer: any AppServer) async throws {
        let signIn = WeChatSignIn(bridge: myWeChatBridge)
        let code = try await signIn.requestCode()  // the user agrees in WeChat
        try await myServer.signIn(withWeChatCode: code.code)
    }

    static func server(secret: String, codeFromTheApp: String) async throws {
        let authorizer = WeChatUserAuthorizer(appID: "wx1234567890abcdef", appSecret: secret)
        let token = try await authorizer.exchange(code: codeFromTheApp)
        let profile = try await authorizer.profile(token.credential)
        _ = profile
    }

    static func store(dir: String, token: WeChatUserToken, profile: WeChatUserProfile, authorizer: WeChatUserAuthorizer) async throws {
        let store = try await WeChatAccountStore.open(
            credentials: FileCredentialStore(path: dir + "/credentials.json"), indexPath: dir + "/wechat-accounts.json")
        try await store.add(token, nickname: profile.nickname)
        let credential = try await store.credential(for: token.openID, refreshingWith: authorizer)
        _ = credential
    }

    static func accounts(weiboStore: WeiboAccountStore, wechatStore: WeChatAccountStore) async {
        let all: [any SignedInAccount] = await weiboStore.accounts() + wechatStore.accounts()
        for account in all { print(account.provider, account.displayName, account.needsSignIn) }
    }

    static func fake() throws {
        let clock = TestClock()
        let wechat = try FakeWeChatSignInServer(appID: "wx1234567890abcdef", appSecret: "secret", clock: clock)
        defer { wechat.stop() }
        let code = wechat.issueCode(forOpenID: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M")
        // exchange `code` with WeChatUserAuthorizer(apiBase: wechat.baseURL, ...)
        _ = code
    }
}

extension WeChatSignInSnippets {
    /// WeChatAccountStore.open's sample.
    static func openingAccounts(credentials: any CredentialStore) async throws {
        let accounts = try await WeChatAccountStore.open(credentials: credentials, indexPath: "wechat-accounts.json")
        _ = accounts
    }
}
