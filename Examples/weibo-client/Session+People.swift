import ExampleSupport
import Foundation
import WeiboKit

extension Session {
    /// A person's page: the profile, their posts (cached like the home
    /// timeline), their topics, whom they follow, or their fans.
    func person(_ who: WeiboUserReference, _ part: Arguments.PersonPart, page: Arguments.TimelinePage) async throws -> Int32 {
        switch part {
        case .profile:
            let user = try await client.user(who)
            if arguments.json {
                try Output.printJSON(Output.user(user))
            } else {
                Console.line("\(user.screenName.oneLine) (\(user.id.oneLine))\(user.following ? "  · following" : "")")
                Console.line("followers \(user.followersCount) · following \(user.friendsCount) · posts \(user.statusesCount)")
                if !user.description.isEmpty { Console.line(user.description) }
            }
            return 0
        case .posts:
            return try await timeline(.user(try await uid(of: who)), page: page, offline: false)
        case .topics:
            let topics = try await client.topics(of: try await uid(of: who), count: arguments.count)
            if arguments.json {
                try Output.printJSON(topics.map(Output.topic))
            } else {
                for topic in topics { Console.line("#\(topic.name.oneLine)#  \(topic.postCount) posts") }
            }
            return 0
        case .follows, .fans:
            let users =
                part == .follows ? try await client.follows(of: who, cursor: arguments.cursor) : try await client.fans(of: who, cursor: arguments.cursor)
            reportSkipped(users.skipped, dropped: users.droppedFields, what: "people")
            if arguments.json {
                try Output.printJSON(["users": users.users.map(Output.user), "nextCursor": users.nextCursor, "totalCount": users.totalCount])
            } else {
                for user in users.users {
                    Console.line("\(user.id.oneLine)  \(user.screenName.oneLine)\(user.following ? "  · following" : "")  \(user.followersCount) followers")
                }
                Console.line(
                    "\(users.users.count) shown of \(users.totalCount)"
                        + (users.hasMore ? "; more: --cursor \(users.nextCursor)" : "; the end")
                        + " (Weibo shows only people who also use this app)")
            }
            return 0
        }
    }

    /// The uid `who` names: itself, or the profile's for a screen name.
    func uid(of who: WeiboUserReference) async throws -> String {
        switch who {
        case .id(let id): id
        case .screenName: try await client.user(who).id
        }
    }
}
