// photo-share: share photos to Weibo, WeChat or WeCom from the command line.
// Any failure prints one line starting with "error:" and exits with status 1;
// an unknown outcome exits with status 3.

import ExampleSupport
import Foundation
import ImageCodecs
import ShareKit
import ShareKitHTTP
import WeChatShare
import WeiboShare

#if canImport(Glibc)
    import Glibc
#endif

@main
struct PhotoShareCommand {
    static func main() async {
        await runCommandLineTool { arguments in try await run(try Arguments(arguments)) }
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let log: any ShareLogHandler = arguments.verbose ? StandardErrorLog() : SilentShareLog()
        let transport: any HTTPTransport = arguments.dryRun ? DryRunTransport(output: { print($0) }) : URLSessionTransport()
        let client = ProviderHTTPClient(transport: transport, log: log)
        // Credentials live in memory for this run: read from --credentials
        // (never written back) and from the environment; a dry run fills the gaps with placeholders.
        let credentials = InMemoryCredentialStore()
        let file = arguments.credentialsFile.map { FileCredentialStore(path: $0) }
        for (provider, variable) in [(WeiboProvider.id, "PHOTODECK_WEIBO_TOKEN"), (WeChatOfficialAccountProvider.id, "PHOTODECK_WECHAT_TOKEN")] {
            if let token = environment[variable], !token.isEmpty {
                await credentials.save(Credential(provider: provider, account: "environment", accessToken: token))
            } else if let stored = try await file?.credential(for: provider, account: nil) {
                await credentials.save(stored)
            } else if arguments.dryRun {
                await credentials.save(Credential(provider: provider, account: "dry-run", accessToken: "dry-run-token"))
            }
        }
        let center = ShareCenter(credentials: credentials)
        for provider in providers(environment: environment, apiBase: arguments.apiBase, client: client, dryRun: arguments.dryRun) {
            await center.register(provider)
        }

        var images: [ShareImage] = []
        for path in arguments.images {
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
            images.append(.encoded([UInt8](data)))
        }
        let content = ShareContent(text: arguments.text, images: images, link: arguments.link)

        switch arguments.command {
        case .targets:
            let targets = await center.targets(for: content)
            if targets.isEmpty { print("no registered provider can take this content") }
            for target in targets { print("\(target.provider)/\(target.destination)\t\(target.displayName)") }
            return 0
        case .share(let target):
            let operation = await center.startShare(content, to: target)
            for await event in operation.events {
                if case .finished = event, arguments.verbose { try? FileHandle.standardError.write(contentsOf: Data("finished sharing to \(target)\n".utf8)) }
            }
            switch try await operation.outcome() {
            case .posted(let receipt):
                if arguments.dryRun {
                    print("dry run: nothing was sent")
                } else {
                    print("posted\(receipt.postID.map { " \($0)" } ?? "")\(receipt.url.map { " \($0)" } ?? "")")
                }
                return 0
            case .outcomeUnknown(let reason):
                print("outcome unknown: \(reason)")
                return 3
            }
        }
    }

    /// Every provider this environment configures (all of them in a dry run).
    static func providers(environment: [String: String], apiBase: URL?, client: ProviderHTTPClient, dryRun: Bool) -> [any ShareProvider] {
        var providers: [any ShareProvider] = []
        let weiboKey = environment["PHOTODECK_WEIBO_APP_KEY"] ?? (dryRun ? "dry-run" : nil)
        if let weiboKey {
            let link = environment["PHOTODECK_WEIBO_LINK"].flatMap(URL.init(string:)) ?? URL(string: "https://photodeck.example/s")!
            providers.append(
                WeiboProvider(
                    configuration: .init(appKey: weiboKey, safeDomainLink: link, apiBase: apiBase ?? WeiboProvider.defaultAPIBase), client: client))
        }
        let appID = environment["PHOTODECK_WECHAT_APP_ID"] ?? (dryRun ? "dry-run" : nil)
        if let appID {
            let recipient = environment["PHOTODECK_WECHAT_TO"] ?? (dryRun ? "dry-run-follower" : nil)
            providers.append(
                WeChatOfficialAccountProvider(
                    configuration: .init(appID: appID, sessionRecipient: recipient, apiBase: apiBase ?? WeChatOfficialAccountProvider.defaultAPIBase),
                    client: client))
        }
        let key = environment["PHOTODECK_WECOM_KEY"] ?? (dryRun ? "dry-run-key" : nil)
        if let key {
            providers.append(
                WeComWebhookProvider(configuration: .init(webhookKey: key, apiBase: apiBase ?? WeComWebhookProvider.defaultAPIBase), client: client))
        }
        return providers
    }
}
