import ExampleSupport
import Foundation

/// The parsed command line of weibo-client.
struct Arguments {
    static let usage = """
        usage: weibo-client [--api-base URL] [--store DIR] COMMAND
          login [--code CODE]            sign in (no --code: prints the authorize URL, then reads the
                                         URL the browser was sent to, or the code, from standard input)
          accounts [--json]              every signed-in account; the current one marked *
          use UID                        make UID the current account
          logout [UID]                   revoke the token, then forget the account (default: current)
          timeline [--count N] [--older] [--offline] [--json]
                                         the home timeline: newer posts merged into the local cache;
                                         --older loads the page below the oldest cached post;
                                         --offline reads the cache only
          post TEXT [IMAGE]              post a status with an optional picture
          comments ID [--json]           comments on a post
          comment ID TEXT                comment on a post
          repost ID [TEXT]               repost a post
          user UID_OR_NAME [--json]      a profile
          follow UID | unfollow UID
          search QUERY [--json]          users by name (a permission Weibo grants on application)

        The app's registration comes from the environment: PHOTODECK_WEIBO_APP_KEY,
        PHOTODECK_WEIBO_APP_SECRET, PHOTODECK_WEIBO_REDIRECT_URI; PHOTODECK_WEIBO_LINK is the
        safe-domain link `post` appends. --store (default $XDG_DATA_HOME/photodeck/weibo, else
        ~/.local/share/photodeck/weibo) holds the accounts and tokens (mode 0600) and the cache.
        --api-base points the API and the OAuth endpoints at another host.
        Exit status: 0 done, 1 failed, 3 outcome unknown (post, comment, repost, follow: it may
        have been done; do not send it again blindly).
        """

    enum Command: Equatable {
        case login(code: String?)
        case accounts
        case use(String)
        case logout(String?)
        case timeline(count: Int, older: Bool, offline: Bool)
        case post(String, image: String?)
        case comments(String)
        case comment(String, String)
        case repost(String, String?)
        case user(String)
        case follow(String)
        case unfollow(String)
        case search(String)
    }

    var command: Command
    var apiBase: URL?
    var store: String
    var json = false

    init(_ arguments: [String], environment: [String: String]) throws(CLIError) {
        var iterator = ArgumentReader(arguments)
        var positional: [String] = []
        var code: String?
        var count = 20
        var older = false
        var offline = false
        var apiBase: URL?
        var store: String?
        while let argument = iterator.next() {
            switch argument {
            case "-h", "--help": throw CLIError(Self.usage, isUsage: true)
            case "--api-base":
                let value = try iterator.value(for: argument)
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https" else { throw CLIError("--api-base needs an http(s) URL") }
                apiBase = url
            case "--store": store = try iterator.value(for: argument)
            case "--code": code = try iterator.value(for: argument)
            case "--count":
                guard let value = Int(try iterator.value(for: argument)), (1...100).contains(value) else {
                    throw CLIError("--count needs a number from 1 to 100")
                }
                count = value
            case "--older": older = true
            case "--offline": offline = true
            case "--json": json = true
            default:
                if argument.hasPrefix("--") { throw CLIError("unknown option \(argument)") }
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
        case "timeline" where rest.isEmpty: command = .timeline(count: count, older: older, offline: offline)
        case "post" where (1...2).contains(rest.count): command = .post(rest[0], image: rest.count == 2 ? rest[1] : nil)
        case "comments": command = .comments(try one("a post ID"))
        case "comment" where rest.count == 2: command = .comment(rest[0], rest[1])
        case "repost" where (1...2).contains(rest.count): command = .repost(rest[0], rest.count == 2 ? rest[1] : nil)
        case "user": command = .user(try one("a UID or a screen name"))
        case "follow": command = .follow(try one("a UID"))
        case "unfollow": command = .unfollow(try one("a UID"))
        case "search": command = .search(try one("a query"))
        case "login", "accounts", "logout", "timeline", "post", "comment", "repost":
            throw CLIError("wrong arguments for \(verb); see weibo-client --help")
        default: throw CLIError("unknown command \(verb); see weibo-client --help")
        }
        self.apiBase = apiBase
        if let store {
            self.store = store
        } else if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            self.store = data + "/photodeck/weibo"
        } else {
            self.store = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/photodeck/weibo"
        }
    }
}
