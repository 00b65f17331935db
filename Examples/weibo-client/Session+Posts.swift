import ExampleSupport
import Foundation
import ImageCodecs
import ServiceKit
import ShareKit
import ShareMedia
import WeiboKit
import WeiboShare

extension Session {
    /// A post's page: the post, its newest comments and reposts.
    func show(_ id: String) async throws -> Int32 {
        let page = try await client.postPage(id, count: arguments.count)
        reportSkipped(
            page.comments.skipped + page.reposts.skipped, dropped: page.comments.droppedFields + page.reposts.droppedFields, what: "comments or reposts")
        if arguments.json {
            try Output.printJSON([
                "post": Output.post(page.post), "comments": page.comments.comments.map(Output.comment), "commentsCount": page.comments.totalCount,
                "reposts": page.reposts.posts.map { Output.post($0) }, "repostsCount": page.reposts.totalCount ?? page.post.repostsCount,
            ])
            return 0
        }
        Console.line(Output.describe(page.post))
        Console.line("comments (\(page.comments.totalCount)):")
        for comment in page.comments.comments { Console.line(Output.describe(comment)) }
        Console.line("reposts (\(page.reposts.totalCount ?? page.post.repostsCount)):")
        for repost in page.reposts.posts { Console.line("  ↻ \(repost.id.oneLine)  @\(repost.user?.screenName.oneLine ?? "?"): \(repost.text.oneLine)") }
        return opensViewer ? try await showPictures(of: page.post) : 0
    }

    func comments(_ id: String) async throws -> Int32 {
        let page = try await client.comments(on: id, count: arguments.count)
        reportSkipped(page.skipped, dropped: page.droppedFields, what: "comments")
        if arguments.json {
            try Output.printJSON(page.comments.map(Output.comment))
        } else {
            Console.line("\(page.totalCount) comments")
            for comment in page.comments { Console.line(Output.describe(comment)) }
        }
        return 0
    }

    func reposts(_ id: String) async throws -> Int32 {
        let page = try await client.reposts(of: id, count: arguments.count)
        reportSkipped(page.skipped, dropped: page.droppedFields, what: "reposts")
        if arguments.json {
            try Output.printJSON(page.posts.map { Output.post($0) })
        } else {
            Console.line("\(page.totalCount.map(String.init) ?? "?") reposts")
            for repost in page.posts { Console.line("\(repost.id.oneLine)  @\(repost.user?.screenName.oneLine ?? "?"): \(repost.text.oneLine)") }
        }
        return 0
    }

    /// A share center with the Weibo provider, counting posts against
    /// Weibo's hourly limit in the store's request log.
    func shareCenter() async -> ShareCenter {
        let weibo = WeiboEnvironment(environment)
        let provider = WeiboProvider(
            configuration: .init(
                appKey: weibo.appKey ?? "", safeDomainLink: weibo.safeDomainLink, apiBase: client.api.base,
                endUserIP: arguments.endUserIP ?? weibo.endUserIP),
            client: http)
        let center = ShareCenter(credentials: credentials, adapter: .media, rateLimitLedger: ledger)
        await center.register(provider)
        return center
    }

    /// Posts through ShareKit's Weibo provider, whose center counts posts
    /// against Weibo's hourly limit in the store's request log.
    func post(_ text: String, image: String?) async throws -> Int32 {
        guard let account = await accounts.current() else { throw WeiboError.notSignedIn }
        _ = try await accounts.credential(for: account.uid)  // needs sign-in: refuse before preparing anything
        let center = await shareCenter()
        var images: [ShareImage] = []
        if let image {
            images.append(.encoded(try readInputFile(image)))
        }
        let target = ShareTarget(provider: WeiboProvider.id, destination: .timeline, displayName: "Weibo")
        let outcome: ShareOutcome
        do {
            outcome = try await center.share(ShareContent(text: text, images: images), to: target, account: account.uid)
        } catch {
            if case .authorizationExpired = error {
                try await accounts.markNeedsSignIn(account.uid)
                throw WeiboError.needsSignIn(uid: account.uid)
            }
            throw error
        }
        switch outcome {
        case .posted(let receipt):
            Console.line("posted \(receipt.postID?.oneLine ?? "(id not yet known)")\(receipt.url.map { " \($0.absoluteString.oneLine)" } ?? "")")
            return 0
        case .outcomeUnknown(let reason):
            Console.line("outcome unknown: \(reason)")
            return 3
        }
    }
}
