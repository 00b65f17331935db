import ExampleSupport
import Foundation
import WeiboKit

extension Session {
    func authorizer() throws -> WeiboAuthorizer {
        let weibo = WeiboEnvironment(environment)
        guard let key = weibo.appKey, let secret = weibo.appSecret, let redirect = weibo.redirectURI else {
            throw CLIError("set PHOTODECK_WEIBO_APP_KEY, PHOTODECK_WEIBO_APP_SECRET and PHOTODECK_WEIBO_REDIRECT_URI to the app's registration")
        }
        return WeiboAuthorizer(appKey: key, appSecret: secret, redirectURI: redirect, apiBase: arguments.apiBase ?? WeiboAPI.defaultBase, client: http)
    }

    func login(code: String?) async throws -> Int32 {
        let authorizer = try authorizer()
        let code =
            try code
            ?? {
                let state = UUID().uuidString
                // Written at once, unbuffered: a program driving this through a pipe sees the URL before it must answer.
                Console.line("Open this page, sign in, then paste the address you were sent to (or its code):")
                Console.line(authorizer.authorizationURL(state: state).absoluteString)
                guard let line = readLine(strippingNewline: true) else { throw CLIError("no redirect URL or code on standard input") }
                return try authorizer.code(fromRedirect: line, expectedState: state)
            }()
        let credential = try await authorizer.credential(forCode: code)
        let profile = try await client.api.user(.id(credential.account), token: credential.accessToken, uid: credential.account)
        try await accounts.add(credential, screenName: profile.screenName)
        Console.line("signed in as \(profile.screenName.oneLine) (\(profile.id.oneLine))")
        return 0
    }

    func listAccounts() async throws -> Int32 {
        let all = await accounts.accounts()
        let current = await accounts.current()?.uid
        if arguments.json {
            try Output.printJSON(all.map { Output.account($0, current: $0.uid == current) })
            return 0
        }
        if all.isEmpty { Console.line("no accounts; run weibo-client login") }
        for account in all {
            let expiry = account.expiresAt.map { "expires \(Output.iso8601($0))" } ?? ""
            Console.line(
                "\(account.uid == current ? "*" : " ") \(account.uid.oneLine)  \(account.screenName.oneLine)  \(expiry)\(account.needsSignIn ? "  (needs sign-in)" : "")"
            )
        }
        return 0
    }

    func logout(_ uid: String?) async throws -> Int32 {
        guard let account = await accounts.account(uid) else { throw WeiboError.notSignedIn }
        if let credential = try await credentials.credential(for: WeiboAuthorizer.provider, account: account.uid) {
            try await authorizer().revoke(credential)
        }
        try await accounts.remove(account.uid)
        try await cache().removeAll(account: account.uid)
        Console.line("signed out \(account.screenName.oneLine) (\(account.uid.oneLine))")
        return 0
    }
}
