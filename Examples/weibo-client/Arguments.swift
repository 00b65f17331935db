import ExampleSupport
import ExampleViewing
import Foundation
import WeiboKit

/// The parsed command line of weibo-client.
struct Arguments {
    static let usage = """
        usage: weibo-client [--api-base URL] [--store DIR] [--rip IP] COMMAND
          login [--code CODE]            sign in (no --code: prints the authorize URL, then reads the
                                         URL the browser was sent to, or the code, from standard input)
          accounts [--json]              every signed-in account; the current one marked *
          use UID                        make UID the current account
          logout [UID]                   revoke the token, then forget the account (default: current)
          timeline [--count N] [--top | --older | --fill ID] [--offline] [--pictures] [--json]
                                         the home timeline: the newest page merged into the local cache,
                                         shown from where you stopped reading, under a "N newer posts"
                                         line (--top: from the newest); a "⋯" row where posts may be
                                         missing; --fill ID loads the posts missing below post ID;
                                         --older loads below the oldest cached post; --offline reads the
                                         cache only; --pictures draws each post's pictures as thumbnails
                                         under it (kitty, iTerm2, sixel or colour blocks). The first post
                                         shown is saved as where you stopped
          read ID [--offset N] [--mentions | --favourites]
                                         save post ID (scrolled N past its top) as where you stopped
                                         reading the timeline (or the mentions, the favourites)
          mentions [--count N] [--older | --fill ID] [--offline] [--json]
                                         posts that mention you, cached like the timeline
          comments --to-me | --by-me | --mentions [--count N] [--older | --fill ID] [--offline] [--json]
                                         comments on your posts, yours, or mentioning you, cached likewise
          favourites [--count N] [--older] [--offline] [--json]
                                         the posts you keep, newest kept first
          fav ID | unfav ID              keep a post among your favourites, or drop it
          unread [--json]                what is new: posts, mentions, comments, fans (rm.api.weibo.com)
          mute [WORD [--whole-word] | --user UID | --reposts [UID]] [--json]
                                         hide posts and comments with WORD (whole word: not inside a
                                         longer word; Chinese matches anywhere), by a person, or reposts
                                         (everyone's, or one person's), in every list, leaving a
                                         "filtered: …" line; no arguments: list what is muted
          unmute WORD | --user UID | --reposts [UID]
          drafts [--json]                your drafts: text, target, pictures, state, scheduled time and,
                                         for one waiting in the outbox, why it waits
          drafts new TEXT [--picture FILE]... [--comment-on ID | --repost-of ID]
                                         a draft (saved at once); prints its ID
          drafts edit ID TEXT            replace its text (a scheduled draft is taken back first)
          drafts send ID                 send it now through the outbox (at most once; exit 3 when the
                                         outcome is unknown; a full rate window makes it wait, saying why)
          drafts schedule ID TIME        send it at TIME (ISO 8601, or +30s, +10m, +2h) from whichever
                                         process runs watch
          drafts unschedule ID | drafts delete ID
          watch [--interval SECONDS] [--no-notify] [--once] [--json]
                                         polls the unread counts (default every 3600 s: Weibo allows 100
                                         requests a day) and prints each new mention and comment once,
                                         never again after a restart; sends a desktop notification for
                                         each (D-Bus, org.freedesktop.Notifications) unless --no-notify;
                                         sends scheduled drafts at their time; --json: one object a line
          show ID [--count N] [--pictures | --no-pictures] [--json]
                                         a post's page: the post, its newest comments and reposts; then its
                                         pictures, large, in the viewer (a window, else the terminal) when
                                         standard input and output are terminals, or with --pictures
                                         or --display
          comments ID [--json]           comments on a post
          reposts ID [--json]            reposts of a post
          post TEXT [IMAGE]              post a status with an optional picture
          comment ID TEXT                comment on a post
          repost ID [TEXT]               repost a post
          user UID|@NAME [--posts [--older | --fill ID] | --topics | --follows | --fans] [--cursor N] [--json]
                                         a person's page: the profile, or their posts (cached as the
                                         timeline is), topics, whom they follow, their fans (a page at a
                                         time from --cursor; the next cursor is printed)
          follow UID|@NAME | unfollow UID|@NAME
          search QUERY [--json]          users by name (a permission Weibo grants on application)

        Viewer options (show): --display auto|window|kitty|iterm|sixel|ansi, --window WxH,
        --renderer automatic|accelerated|software, --once (draw the first picture and exit).
        Pictures are downloaded six at a time per host, at the size the screen needs (Weibo's
        thumbnail, orj360, bmiddle ... large), and kept in $XDG_CACHE_HOME/photodeck/images.

        The app's registration comes from the environment: PHOTODECK_WEIBO_APP_KEY,
        PHOTODECK_WEIBO_APP_SECRET, PHOTODECK_WEIBO_REDIRECT_URI; PHOTODECK_WEIBO_LINK is the
        safe-domain link `post` appends. --store (default $XDG_DATA_HOME/photodeck/weibo, else
        ~/.local/share/photodeck/weibo) holds the accounts and tokens (mode 0600), the cache and
        the log of requests Weibo's limits are counted against. --api-base points the API and the
        OAuth endpoints at another host; --remind-base the reminder host (unread), which is
        rm.api.weibo.com, or the --api-base host when only that is given. --rip (else PHOTODECK_WEIBO_RIP) is the end user's IP
        address Weibo asks writes to report (default: the address this device sends from).
        With no route to Weibo, timelines answer from the cache at once, saying how old it is.
        Exit status: 0 done, 1 failed, 3 outcome unknown (post, comment, repost, follow: it may
        have been done; do not send it again blindly).
        """

    /// Which part of a person's page.
    enum PersonPart: Equatable {
        case profile, posts, topics, follows, fans
    }

    /// Which page of a timeline.
    enum TimelinePage: Equatable {
        case newest, older
        case fill(String)
    }

    /// What `mute` and `unmute` name.
    enum MuteTarget: Equatable {
        case word(String, wholeWord: Bool)
        case user(String)
        /// Reposts: everyone's (`nil`) or one person's.
        case reposts(String?)
    }

    enum Command: Equatable {
        case login(code: String?)
        case accounts
        case use(String)
        case logout(String?)
        case timeline(TimelinePage, offline: Bool)
        case show(String)
        case comments(String)
        case reposts(String)
        case post(String, image: String?)
        case comment(String, String)
        case repost(String, String?)
        case user(String, PersonPart, TimelinePage)
        case follow(String)
        case unfollow(String)
        case search(String)
        case list(WeiboTimelineID, TimelinePage, offline: Bool)
        case read(String, offset: Double, WeiboTimelineID)
        case favourite(String, keep: Bool)
        case unread
        case mute(MuteTarget?)
        case unmute(MuteTarget)
        case drafts(DraftCommand)
        case watch(interval: Int, notify: Bool, once: Bool)
    }

    /// A `drafts` subcommand.
    enum DraftCommand: Equatable {
        case list
        case new(String, pictures: [String], target: WeiboDraft.Target)
        case edit(String, String)
        case send(String)
        case schedule(String, Date)
        case unschedule(String)
        case delete(String)
    }

    /// The `drafts` subcommand in `words` (after `drafts`).
    static func draftCommand(_ words: [String], pictures: [String], target: WeiboDraft.Target) throws(CLIError) -> DraftCommand {
        guard let verb = words.first else { return .list }
        let rest = Array(words.dropFirst())
        if verb != "new", !pictures.isEmpty || target != .post { throw CLIError("--picture, --comment-on and --repost-of go with drafts new") }
        switch (verb, rest.count) {
        case ("new", 1): return .new(rest[0], pictures: pictures, target: target)
        case ("edit", 2): return .edit(rest[0], rest[1])
        case ("send", 1): return .send(rest[0])
        case ("schedule", 2): return .schedule(rest[0], try time(rest[1]))
        case ("unschedule", 1): return .unschedule(rest[0])
        case ("delete", 1): return .delete(rest[0])
        default: throw CLIError("drafts takes new TEXT, edit ID TEXT, send ID, schedule ID TIME, unschedule ID or delete ID")
        }
    }

    /// A time: ISO 8601 (`2026-12-05T20:00:00Z`, `2026-12-05T20:00:00+08:00`) or `+N` seconds, `+Nm`, `+Nh` from now.
    static func time(_ text: String, now: Date = Date()) throws(CLIError) -> Date {
        if text.hasPrefix("+") {
            let body = text.dropFirst()
            let unit: Double = body.hasSuffix("h") ? 3_600 : body.hasSuffix("m") ? 60 : 1
            let digits = body.last.map { $0.isLetter } == true ? body.dropLast() : body
            guard let amount = Int(digits), (0...31_536_000).contains(amount), !(body.last?.isLetter == true && !"smh".contains(body.last!)) else {
                throw CLIError("a relative time is +N, +Ns, +Nm or +Nh, up to a year")
            }
            return now.addingTimeInterval(Double(amount) * unit)
        }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? Date(text, strategy: .iso8601)) ?? (try? fractional.parse(text)) else {
            throw CLIError("\(text.oneLine) is not a time like 2026-12-05T20:00:00+08:00 or +10m")
        }
        return date
    }

    var command: Command
    var apiBase: URL?
    var store: String
    var endUserIP: String?
    var json = false
    var count = 20
    var cursor = 0
    /// --pictures (`true`), --no-pictures (`false`), or neither.
    var pictures: Bool?
    /// The viewer's flags (show).
    var viewer = ViewerOptions()
    /// The reminder host (unread counts).
    var remindBase: URL?
    /// --top: the timeline from its newest post rather than where reading stopped.
    var fromTop = false

    init(_ arguments: [String], environment: [String: String]) throws(CLIError) {
        var iterator = ArgumentReader(arguments)
        var positional: [String] = []
        var code: String?
        var page = TimelinePage.newest
        var offline = false
        var part: PersonPart?
        var store: String?
        var box: WeiboCommentBox?
        var listFlag: WeiboTimelineID?
        var wholeWord = false
        var muteUser: String?
        var muteReposts = false
        var offset = 0.0
        var pictureFiles: [String] = []
        var draftTarget = WeiboDraft.Target.post
        var interval = 3_600
        var notify = true
        while let argument = iterator.next() {
            switch argument {
            case "-h", "--help": throw CLIError(Self.usage, isUsage: true)
            case "--api-base":
                let value = try iterator.value(for: argument)
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw CLIError("--api-base needs an http(s) URL")
                }
                apiBase = url
            case "--remind-base":
                let value = try iterator.value(for: argument)
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw CLIError("--remind-base needs an http(s) URL")
                }
                remindBase = url
            case "--to-me", "--by-me":
                guard box == nil else { throw CLIError("give one of --to-me, --by-me and --mentions") }
                box = argument == "--to-me" ? .toMe : .byMe
            case "--mentions":
                guard box == nil, listFlag == nil else { throw CLIError("give one of --to-me, --by-me and --mentions") }
                box = .mentions
                listFlag = .mentions
            case "--favourites": listFlag = .favourites
            case "--whole-word": wholeWord = true
            case "--user": muteUser = try iterator.value(for: argument)
            case "--reposts": muteReposts = true
            case "--top": fromTop = true
            case "--picture": pictureFiles.append(try iterator.value(for: argument))
            case "--comment-on", "--repost-of":
                let id = try iterator.value(for: argument)
                guard !id.isEmpty, id.utf8.count <= 20, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw CLIError("\(argument) needs a post ID (digits)")
                }
                guard draftTarget == .post else { throw CLIError("give one of --comment-on and --repost-of") }
                draftTarget = argument == "--comment-on" ? .comment(on: id) : .repost(of: id)
            case "--interval": interval = try iterator.number(for: argument, in: 1...86_400)
            case "--no-notify": notify = false
            case "--offset": offset = Double(try iterator.number(for: argument, in: 0...1_000_000))
            case "--store": store = try iterator.value(for: argument)
            case "--rip": endUserIP = try iterator.value(for: argument)
            case "--code": code = try iterator.value(for: argument)
            case "--count": count = try iterator.number(for: argument, in: 1...100)
            case "--cursor": cursor = try iterator.number(for: argument, in: 0...Int(Int32.max))
            case "--older": page = .older
            case "--fill": page = .fill(try iterator.value(for: argument))
            case "--offline": offline = true
            case "--json": json = true
            case "--pictures": pictures = true
            case "--no-pictures": pictures = false
            case "--display", "--window", "--renderer", "--once": _ = try viewer.read(argument, from: &iterator)
            case "--posts", "--topics", "--follows", "--fans":
                guard part == nil else { throw CLIError("give one of --posts, --topics, --follows and --fans") }
                part = ["--posts": .posts, "--topics": .topics, "--follows": .follows][argument] ?? .fans
            default:
                if argument.hasPrefix("--") { throw CLIError("unknown option \(argument.oneLine)") }
                positional.append(argument)
            }
        }
        guard let verb = positional.first else { throw CLIError(Self.usage, isUsage: true) }
        let rest = Array(positional.dropFirst())
        func one(_ what: String) throws(CLIError) -> String {
            guard rest.count == 1 else { throw CLIError("\(verb) needs \(what)") }
            return rest[0]
        }
        switch verb {
        case "login" where rest.isEmpty: command = .login(code: code)
        case "accounts" where rest.isEmpty: command = .accounts
        case "use": command = .use(try one("a UID"))
        case "logout" where rest.count <= 1: command = .logout(rest.first)
        case "timeline" where rest.isEmpty: command = .timeline(page, offline: offline)
        case "show": command = .show(try one("a post ID"))
        case "comments" where box == nil && !rest.isEmpty: command = .comments(try one("a post ID"))
        case "reposts": command = .reposts(try one("a post ID"))
        case "post" where (1...2).contains(rest.count): command = .post(rest[0], image: rest.count == 2 ? rest[1] : nil)
        case "comment" where rest.count == 2: command = .comment(rest[0], rest[1])
        case "repost" where (1...2).contains(rest.count): command = .repost(rest[0], rest.count == 2 ? rest[1] : nil)
        case "user":
            if page != .newest, part != .posts { throw CLIError("--older and --fill go with user --posts") }
            command = .user(try one("a UID or @name"), part ?? .profile, page)
        case "follow": command = .follow(try one("a UID or @name"))
        case "unfollow": command = .unfollow(try one("a UID or @name"))
        case "search": command = .search(try one("a query"))
        case "comments" where rest.isEmpty:
            guard let box else { throw CLIError("comments needs a post ID, or --to-me, --by-me or --mentions") }
            command = .list(.comments(box), page, offline: offline)
        case "comments": throw CLIError("comments takes a post ID or one of --to-me, --by-me and --mentions, not both")
        case "mentions" where rest.isEmpty: command = .list(.mentions, page, offline: offline)
        case "favourites" where rest.isEmpty:
            if case .fill = page { throw CLIError("favourites has no --fill: --older loads the pages below again until they meet") }
            command = .list(.favourites, page, offline: offline)
        case "fav": command = .favourite(try one("a post ID"), keep: true)
        case "unfav": command = .favourite(try one("a post ID"), keep: false)
        case "unread" where rest.isEmpty: command = .unread
        case "read": command = .read(try one("a post ID"), offset: offset, listFlag ?? .home)
        case "drafts": command = .drafts(try Self.draftCommand(rest, pictures: pictureFiles, target: draftTarget))
        case "watch" where rest.isEmpty: command = .watch(interval: interval, notify: notify, once: viewer.once)
        case "mute", "unmute":
            let target: MuteTarget?
            switch (rest.count, muteUser, muteReposts) {
            case (0, nil, false): target = nil
            case (1, nil, false): target = .word(rest[0], wholeWord: wholeWord)
            case (0, let user?, false): target = .user(user)
            case (0, nil, true): target = .reposts(nil)
            case (1, nil, true): target = .reposts(rest[0])
            default: throw CLIError("\(verb) takes one of WORD, --user UID and --reposts [UID]")
            }
            if verb == "mute" {
                command = .mute(target)
            } else {
                guard let target else { throw CLIError("unmute needs WORD, --user UID or --reposts [UID]") }
                command = .unmute(target)
            }
        case "login", "accounts", "logout", "timeline", "post", "comment", "repost", "mentions", "favourites", "unread":
            throw CLIError("wrong arguments for \(verb.oneLine); see weibo-client --help")
        default: throw CLIError("unknown command \(verb.oneLine); see weibo-client --help")
        }
        if pictures != nil, !["timeline", "show", "user"].contains(verb) { throw CLIError("--pictures goes with timeline, user --posts or show") }
        if pictures == true, json { throw CLIError("--pictures draws on the terminal; it does not go with --json") }
        if part != nil, verb != "user" { throw CLIError("--posts, --topics, --follows and --fans go with user") }
        let lists = ["timeline", "user", "mentions", "comments", "favourites"]
        if page != .newest, !lists.contains(verb) { throw CLIError("--older and --fill go with timeline, mentions, comments, favourites or user --posts") }
        if box != nil, !["comments", "read"].contains(verb) { throw CLIError("--to-me, --by-me and --mentions go with comments") }
        if wholeWord || muteUser != nil || muteReposts, !["mute", "unmute"].contains(verb) {
            throw CLIError("--whole-word, --user and --reposts go with mute and unmute")
        }
        if fromTop, verb != "timeline" { throw CLIError("--top goes with timeline") }
        if !pictureFiles.isEmpty || draftTarget != .post, verb != "drafts" { throw CLIError("--picture, --comment-on and --repost-of go with drafts new") }
        if let store {
            self.store = store
        } else if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            self.store = data + "/photodeck/weibo"
        } else {
            self.store = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/photodeck/weibo"
        }
    }
}
