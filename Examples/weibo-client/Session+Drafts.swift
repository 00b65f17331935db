import ExampleSupport
import Foundation
import ServiceKit
import ShareKit
import WeiboKit
import WeiboShare

extension Session {
    /// The drafts, the outbox that sends them, and the sender between.
    func draftSender() async throws -> WeiboDraftSender {
        let drafts = try await WeiboDraftStore.open(path: arguments.store + "/drafts.sqlite")
        let outbox = try await Outbox.open(path: arguments.store + "/outbox.sqlite", center: await shareCenter(), network: monitor)
        return WeiboDraftSender(drafts: drafts, outbox: outbox)
    }

    func drafts(_ command: Arguments.DraftCommand) async throws -> Int32 {
        guard let uid = await accounts.current()?.uid else { throw WeiboError.notSignedIn }
        let sender = try await draftSender()
        let drafts = sender.drafts
        try await sender.reconcile()
        switch command {
        case .list:
            return try await listDrafts(sender, account: uid)
        case .new(let text, let pictures, let target):
            let bytes = try pictures.map { try readInputFile($0) }
            var draft = try await drafts.create(account: uid, text: text, target: target)
            for picture in bytes { draft = try await drafts.addPicture(picture, to: draft.id) }
            Console.line("draft \(draft.id.uuidString.lowercased())")
            return 0
        case .edit(let id, let text):
            let draft = try await find(id, in: drafts, account: uid)
            guard try await sender.takeBack(draft.id) else { throw CLIError("the draft is being sent or was sent; it cannot be edited now") }
            try await drafts.setText(text, of: draft.id)
            if draft.state == .queued, draft.scheduledAt != nil, let time = draft.scheduledAt {
                try await sender.schedule(draft.id, at: time)
            }
            Console.line("saved \(draft.id.uuidString.lowercased())")
            return 0
        case .send(let id):
            let draft = try await find(id, in: drafts, account: uid)
            if draft.scheduledAt != nil {
                guard try await sender.takeBack(draft.id) else { throw CLIError("the draft is being sent or was sent") }
                try await drafts.setSchedule(nil, of: draft.id)
            }
            return report(try await sender.send(draft.id))
        case .schedule(let id, let time):
            let draft = try await find(id, in: drafts, account: uid)
            try await sender.schedule(draft.id, at: time)
            Console.line("scheduled \(draft.id.uuidString.lowercased()) for \(Output.iso8601(time)); `weibo-client watch` sends it then")
            return 0
        case .unschedule(let id):
            let draft = try await find(id, in: drafts, account: uid)
            guard try await sender.takeBack(draft.id) else { throw CLIError("the draft is being sent or was sent") }
            try await drafts.setSchedule(nil, of: draft.id)
            Console.line("unscheduled \(draft.id.uuidString.lowercased())")
            return 0
        case .delete(let id):
            let draft = try await find(id, in: drafts, account: uid)
            guard try await sender.takeBack(draft.id) else { throw CLIError("the draft is being sent or was sent") }
            try await drafts.delete(draft.id)
            Console.line("deleted \(draft.id.uuidString.lowercased())")
            return 0
        }
    }

    /// The account's draft whose id is, or starts with, `prefix` (at least 4 characters, one match).
    private func find(_ prefix: String, in drafts: WeiboDraftStore, account: String) async throws -> WeiboDraft {
        let wanted = prefix.lowercased()
        let matches = try await drafts.drafts(account: account).filter { $0.id.uuidString.lowercased().hasPrefix(wanted) }
        guard wanted.count >= 4, matches.count == 1 else {
            throw CLIError(matches.isEmpty || wanted.count < 4 ? "no draft \(prefix.oneLine)" : "\(prefix.oneLine) names more than one draft")
        }
        return matches[0]
    }

    private func report(_ result: WeiboDraftSender.SendState) -> Int32 {
        switch result {
        case .posted(let id):
            Console.line("posted \(id?.oneLine ?? "(id not yet known)")")
            return 0
        case .waiting(let until, let reason):
            Console.line("waiting\(until.map { " until \(Output.iso8601($0))" } ?? "")\(reason.map { ": \($0.oneLine)" } ?? "")")
            return 0
        case .outcomeUnknown(let reason):
            Console.line("outcome unknown: \(reason.oneLine)")
            return 3
        case .returned(let reason):
            Console.error("not sent: \(reason.oneLine)")
            return 1
        }
    }

    private func listDrafts(_ sender: WeiboDraftSender, account: String) async throws -> Int32 {
        let drafts = try await sender.drafts.drafts(account: account)
        let entries = Dictionary(try await sender.outbox.entries().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if arguments.json {
            try Output.printJSON(drafts.map { Output.draft($0, entry: $0.outboxID.flatMap { entries[$0] }) })
            return 0
        }
        if drafts.isEmpty { Console.line("no drafts") }
        for draft in drafts {
            let entry = draft.outboxID.flatMap { entries[$0] }
            var line = "\(draft.id.uuidString.lowercased().prefix(8))  \(Output.describe(draft.target))  \(draft.state.rawValue)"
            if let time = draft.scheduledAt { line += "  at \(Output.iso8601(time))" }
            if !draft.pictures.isEmpty { line += "  \(draft.pictures.count) picture\(draft.pictures.count == 1 ? "" : "s")" }
            Console.line(line)
            Console.line("  \(draft.text.oneLine)")
            if let why = entry?.lastError ?? draft.lastError { Console.line("  waits: \(why.oneLine)") }
        }
        return 0
    }
}
