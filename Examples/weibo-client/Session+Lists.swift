import ExampleSupport
import Foundation
import ServiceKit
import WeiboKit

extension Session {
    /// The account's filters store: beside the accounts, the user's alone.
    var filterStore: WeiboFilterStore { WeiboFilterStore(path: arguments.store + "/filters.json") }

    /// The current account's filters (none when no account is signed in).
    func filters() async throws -> WeiboFilters {
        guard let uid = await accounts.current()?.uid else { return WeiboFilters() }
        let filters = try await filterStore.filters(account: uid)
        if filters.ignoredWordCount > 0 {
            Console.error(
                "note: \(filters.ignoredWordCount) muted words in \(filterStore.path.oneLine) are ignored (empty, longer than "
                    + "\(WeiboMutedWord.maxLength) characters, or past \(WeiboFilters.maxMutedWords) words or \(WeiboFilters.maxMutedCharacters) characters in all)"
            )
        }
        return filters
    }

    /// A list addressed to the account: mentions and favourites as
    /// timelines, the comment lists as comments.
    func list(_ id: WeiboTimelineID, page: Arguments.TimelinePage, offline: Bool) async throws -> Int32 {
        guard case .comments(let box) = id else { return try await timeline(id, page: page, offline: offline) }
        return try await comments(box, page: page, offline: offline)
    }

    /// Comments to, by or mentioning the account, cached with the timeline's gap rule.
    func comments(_ box: WeiboCommentBox, page: Arguments.TimelinePage, offline: Bool) async throws -> Int32 {
        let session = WeiboCommentsSession(client: client, cache: try await cache(), box: box, pageSize: arguments.count)
        let reachable = offline ? false : await canReachWeibo()
        var snapshot: WeiboCommentsSnapshot
        if !reachable {
            snapshot = try await session.cached()
            if !offline { snapshot.failure = .network(UnderlyingError(message: "no route to \(client.api.base.host ?? "Weibo")")) }
        } else {
            switch page {
            case .newest: snapshot = try await session.refresh()
            case .older: snapshot = try await session.loadOlder()
            case .fill(let above):
                guard let gap = try await session.cached().comments.gaps.first(where: { $0.newerThan == above }) else {
                    throw CLIError("no gap below comment \(above.oneLine)")
                }
                snapshot = try await session.fill(gap)
            }
        }
        reportSkipped(snapshot.page?.skipped ?? [], dropped: snapshot.page?.droppedFields ?? [], what: "comments")
        if snapshot.isOffline || !reachable {
            let age = snapshot.comments.refreshedAt.map { "from \(Output.age(Date().timeIntervalSince($0))) ago" } ?? "never refreshed"
            Console.error("offline\(snapshot.failure.map { ": \($0)" } ?? ""); showing \(snapshot.comments.comments.count) cached comments \(age)")
        }
        let items = snapshot.comments.filtered(by: try await filters()).items.prefix(page == .newest ? arguments.count : .max)
        if arguments.json {
            try Output.printJSON(items.map { Output.item($0) })
            return 0
        }
        for item in items {
            switch item {
            case .entry(let comment): Console.line(Output.describe(comment, withPost: true))
            case .gap(let gap): Console.line("  ⋯ more comments here: weibo-client \(Self.fillCommand(.comments(box), gap))")
            case .filtered(let marker): Console.line(Output.describe(marker))
            }
        }
        return 0
    }

    /// Saves `postID` as where reading stopped in list `id`.
    func markRead(_ postID: String, offset: Double, in id: WeiboTimelineID) async throws -> Int32 {
        guard let uid = await accounts.current()?.uid else { throw WeiboError.notSignedIn }
        try await cache().saveReadingPosition(WeiboReadingPosition(postID: postID, offset: offset), timeline: id, account: uid)
        Console.line("reading \(Self.topCommand(id).split(separator: " ")[0]) from post \(postID.oneLine)")
        return 0
    }

    /// The unread counts, from the reminder host.
    func unread() async throws -> Int32 {
        let counts = try await client.unreadCounts()
        if arguments.json {
            try Output.printJSON([
                "newPosts": counts.newPosts, "mentionPosts": counts.mentionPosts, "comments": counts.comments,
                "mentionComments": counts.mentionComments, "newFans": counts.newFans, "directMessages": counts.directMessages,
            ])
        } else {
            Console.line(
                "new posts \(counts.newPosts) · mentions \(counts.mentionPosts) · comments \(counts.comments) · "
                    + "comments mentioning you \(counts.mentionComments) · new fans \(counts.newFans)")
        }
        return 0
    }

    /// Mutes a word, a person or reposts; with nothing named, lists what is muted.
    func mute(_ target: Arguments.MuteTarget?) async throws -> Int32 {
        guard let uid = await accounts.current()?.uid else { throw WeiboError.notSignedIn }
        let filters: WeiboFilters
        if let target {
            if case .word(let word, let wholeWord) = target {
                var alone = WeiboFilters()
                guard alone.mute(word: word, wholeWord: wholeWord) else {
                    throw CLIError("a muted word has 1 to \(WeiboMutedWord.maxLength) characters (besides spaces at its ends)")
                }
            }
            let person = try await personID(in: target)
            filters = try await filterStore.update(account: uid) { filters in
                switch target {
                case .word(let word, let wholeWord): filters.mute(word: word, wholeWord: wholeWord)
                case .user: if let person { filters.mutedUsers.insert(person) }
                case .reposts: if let person { filters.mutedReposters.insert(person) } else { filters.mutesAllReposts = true }
                }
            }
            if case .word(let word, _) = target, !filters.mutedWords.contains(where: { $0.text == word }) {
                throw CLIError(
                    "the muted words are full (\(WeiboFilters.maxMutedWords) words, \(WeiboFilters.maxMutedCharacters) characters in all): unmute some first")
            }
        } else {
            filters = try await filterStore.filters(account: uid)
        }
        return try printFilters(filters)
    }

    /// Unmutes a word, a person or reposts.
    func unmute(_ target: Arguments.MuteTarget) async throws -> Int32 {
        guard let uid = await accounts.current()?.uid else { throw WeiboError.notSignedIn }
        let person = try await personID(in: target)
        let filters = try await filterStore.update(account: uid) { filters in
            switch target {
            case .word(let word, _): filters.unmute(word: word)
            case .user: if let person { filters.mutedUsers.remove(person) }
            case .reposts: if let person { filters.mutedReposters.remove(person) } else { filters.mutesAllReposts = false }
            }
        }
        return try printFilters(filters)
    }

    /// The uid a mute names: digits as they are, `@name` looked up.
    private func personID(in target: Arguments.MuteTarget) async throws -> String? {
        let named: String?
        switch target {
        case .word: return nil
        case .user(let who): named = who
        case .reposts(let who): named = who
        }
        guard let named else { return nil }
        let reference = WeiboUserReference(parsing: named)
        if case .id(let uid) = reference { return uid }
        return try await client.user(reference).id
    }

    private func printFilters(_ filters: WeiboFilters) throws -> Int32 {
        if arguments.json {
            try Output.printJSON([
                "words": filters.mutedWords.map { ["word": $0.text, "wholeWord": $0.wholeWord] as [String: Any] },
                "users": filters.mutedUsers.sorted(), "reposters": filters.mutedReposters.sorted(), "allReposts": filters.mutesAllReposts,
            ])
            return 0
        }
        if filters.isEmpty { Console.line("nothing is muted") }
        for word in filters.mutedWords { Console.line("word \(word.text.oneLine)\(word.wholeWord ? " (whole word)" : "")") }
        for user in filters.mutedUsers.sorted() { Console.line("user \(user.oneLine)") }
        if filters.mutesAllReposts { Console.line("reposts (everyone's)") }
        for user in filters.mutedReposters.sorted() { Console.line("reposts by \(user.oneLine)") }
        return 0
    }
}
