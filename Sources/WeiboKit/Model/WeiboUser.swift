public import Foundation

/// A Weibo user: a post's author, a profile (`users/show`), or who was
/// followed.
public struct WeiboUser: Hashable, Sendable, Codable, Identifiable {
    /// The user's id (`idstr`), ASCII digits.
    public var id: String
    /// The name shown (`screen_name`).
    public var screenName: String
    /// The profile text.
    public var description: String
    /// The avatar.
    public var avatar: URL?
    /// Followers.
    public var followersCount: Int
    /// People this user follows (`friends_count`).
    public var friendsCount: Int
    /// Posts.
    public var statusesCount: Int
    /// Whether the signed-in user follows this user.
    public var following: Bool
    /// Whether Weibo verified the account.
    public var isVerified: Bool

    /// Creates a user.
    public init(
        id: String, screenName: String, description: String = "", avatar: URL? = nil, followersCount: Int = 0, friendsCount: Int = 0,
        statusesCount: Int = 0, following: Bool = false, isVerified: Bool = false
    ) {
        self.id = id
        self.screenName = screenName
        self.description = description
        self.avatar = avatar
        self.followersCount = followersCount
        self.friendsCount = friendsCount
        self.statusesCount = statusesCount
        self.following = following
        self.isVerified = isVerified
    }
}

/// Who a people request is about: a uid or a screen name.
public enum WeiboUserReference: Hashable, Sendable, CustomStringConvertible {
    /// A user id.
    case id(String)
    /// A screen name.
    case screenName(String)

    /// Digits are an id, anything else a screen name; a leading `@`
    /// always means a screen name (for a name made of digits).
    ///
    /// ```swift
    /// let someone = WeiboUserReference(parsing: "1404376560")   // .id("1404376560")
    /// let other = WeiboUserReference(parsing: "@新浪新闻")         // .screenName("新浪新闻")
    /// ```
    public init(parsing text: String) {
        if text.hasPrefix("@") {
            self = .screenName(String(text.dropFirst()))
        } else {
            self = WeiboIdentifier.isValid(text) ? .id(text) : .screenName(text)
        }
    }

    /// Throws when the reference could not name anyone: an id that is not
    /// digits, an empty or overlong screen name.
    func check() throws(WeiboError) {
        switch self {
        case .id(let id):
            guard WeiboIdentifier.isValid(id) else { throw .invalidArgument("user id \"\(id.prefix(40))\" is not a Weibo id (digits)") }
        case .screenName(let name):
            guard !name.isEmpty, name.count <= 64, !name.contains(where: \.isNewline) else {
                throw .invalidArgument("\"\(name.prefix(40))\" is not a Weibo screen name")
            }
        }
    }

    /// The query item the people APIs take (`uid` or `screen_name`).
    var queryItem: (String, String) {
        switch self {
        case .id(let id): ("uid", id)
        case .screenName(let name): ("screen_name", name)
        }
    }

    public var description: String {
        switch self {
        case .id(let id): "user \(id)"
        case .screenName(let name): "@\(name)"
        }
    }
}

/// One answer of the user search (`search/suggestions/users`).
public struct WeiboUserSuggestion: Hashable, Sendable, Codable {
    /// The user's id.
    public var id: String
    /// The name shown.
    public var screenName: String
    /// Followers.
    public var followersCount: Int

    /// Creates a suggestion.
    public init(id: String, screenName: String, followersCount: Int) {
        self.id = id
        self.screenName = screenName
        self.followersCount = followersCount
    }
}

/// What Weibo ids look like.
enum WeiboIdentifier {
    /// Ids are 1 to 19 ASCII digits (they fit an `Int64`).
    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 19 && text.utf8.allSatisfy { (48...57).contains($0) } && Int64(text) != nil
    }
}
