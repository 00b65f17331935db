import DesktopNotifications
import ExampleSupport
import Foundation
import ServiceKit
import ShareKit
import WeiboKit
import WeiboShare

extension Session {
    /// The newest id printed of each list, per account: saved before the
    /// lines are printed, so a restart never prints one twice.
    private struct WatchMarks: Codable {
        var accounts: [String: [String: Int64]] = [:]
    }

    /// One new thing addressed to the user.
    private struct Arrival {
        let id: Int64
        let line: String
        let json: [String: Any]
        let notification: DesktopNotification
    }

    /// Polls the unread counts and prints each new mention and comment
    /// once; sends scheduled drafts at their time meanwhile.
    func watch(interval: Int, notify: Bool, once: Bool) async throws -> Int32 {
        guard let account = await accounts.current() else { throw WeiboError.notSignedIn }
        let uid = account.uid
        let cache = try await cache()
        var notifier = notify && environment["DBUS_SESSION_BUS_ADDRESS"] != nil ? DesktopNotifier() : nil
        if let found = notifier, await !found.isAvailable() { notifier = nil }
        if notify, notifier == nil { Console.error("no desktop notification server: printing only") }
        let sender = try await draftSender()
        let sending = Task { await sender.run(checkingEvery: .milliseconds(250)) }
        defer { sending.cancel() }
        if !arguments.json { Console.line("watching as \(account.screenName.oneLine) (\(uid.oneLine))") }
        try await printArrivals(account: uid, cache: cache, notifier: notifier)
        if once {
            try await sender.reconcile()
            return 0
        }
        let poller = WeiboUnreadPoller(client: client, interval: .seconds(Int64(interval)))
        for await event in poller.events(account: uid) {
            switch event {
            case .counts(let counts):
                if counts.hasNewForMe { try await printArrivals(account: uid, cache: cache, notifier: notifier) }
            case .waiting(let error, let retryIn):
                Console.error("\(error); polling again in \(Int(retryIn.components.seconds)) s")
            case .stopped(let error):
                throw error
            }
        }
        return 0
    }

    /// Refreshes the mentions and the comments to and mentioning the
    /// account, and prints (and notifies) what came since the last marks.
    private func printArrivals(account uid: String, cache: WeiboTimelineCache, notifier: DesktopNotifier?) async throws {
        let filters = try await filters()
        var found: [String: [Arrival]] = [:]
        let mentions = try await WeiboTimelineSession(client: client, cache: cache, timeline: .mentions, pageSize: 20).refresh()
        found["mentions"] = mentions.timeline.posts.filter { filters.match($0) == nil }.map { post in
            let name = post.user?.screenName ?? "someone"
            return Arrival(
                id: post.sortKey, line: "mention  \(post.id.oneLine)  @\(name.oneLine): \(post.text.oneLine)",
                json: ["kind": "mention", "post": Output.post(post)],
                notification: DesktopNotification(summary: "@\(name) mentioned you", body: post.text, appName: "weibo-client"))
        }
        for (box, key, summary) in [(WeiboCommentBox.toMe, "to_me", "commented"), (.mentions, "mention_cmt", "mentioned you in a comment")] {
            let list = try await WeiboCommentsSession(client: client, cache: cache, box: box, pageSize: 20).refresh()
            found[key] = list.comments.comments.filter { filters.match($0) == nil }.map { comment in
                Arrival(
                    id: comment.sortKey, line: "comment  \(comment.id.oneLine)  @\(comment.user.screenName.oneLine): \(comment.text.oneLine)",
                    json: ["kind": key == "to_me" ? "comment" : "commentMention", "comment": Output.comment(comment)],
                    notification: DesktopNotification(summary: "@\(comment.user.screenName) \(summary)", body: comment.text, appName: "weibo-client"))
            }
        }
        // The marks first, then the lines: a crash in between loses lines, never repeats them.
        let path = arguments.store + "/watch.json"
        let newest = found.mapValues { $0.map(\.id).max() ?? 0 }
        // File work (a lock, a read, a flushed write) runs on the execution floor's threads.
        // Marks that cannot be read (garbage, another shape) are moved aside and watching starts fresh:
        // what was already there is counted, not printed, as on a first run.
        let (before, movedAside) = try await OwnerOnlyFile.updateJSONMovingAsideUnreadable(at: path, empty: WatchMarks()) {
            (marks: inout WatchMarks) -> [String: Int64] in
            let before = marks.accounts[uid] ?? [:]
            for (key, id) in newest { marks.accounts[uid, default: [:]][key] = max(before[key] ?? 0, id) }
            return before
        }
        if let movedAside {
            Console.error(
                "warning: the watch marks at \(path.oneLine) could not be read (\(movedAside.reason.oneLine)); "
                    + "moved aside to \(movedAside.path.oneLine), watching starts fresh")
        }
        for key in ["mentions", "to_me", "mention_cmt"] {
            guard let mark = before[key] else {
                if let count = found[key]?.count, count > 0, !arguments.json {
                    Console.line("(\(count) \(key == "mentions" ? "mentions" : "comments") already there)")
                }
                continue
            }
            for arrival in (found[key] ?? []).filter({ $0.id > mark }).sorted(by: { $0.id < $1.id }) {
                if arguments.json {
                    // One JSON object a line, as they come.
                    try Output.printJSON(arrival.json)
                } else {
                    Console.line(arrival.line)
                }
                if let notifier {
                    do {
                        try await notifier.post(arrival.notification)
                    } catch {
                        Console.error("\(error)")
                    }
                }
            }
        }
    }
}
