public import Foundation
public import ShareKit

/// A mini program card (`WXMiniProgramObject`): opens the program
/// `userName` at `path`; WeChat versions too old for mini programs (and
/// WeChat on iPad) open `webpageURL` instead. To a chat only.
///
/// As OpenSDK's clients fill it (fluwx's `shareMiniProgram`) and its
/// Android `checkArgs` demands: the fallback URL and the user name are required, the type is
/// 0, 1 or 2, the HD image is the new card's picture (128 KB), the
/// thumbnail the old card's.
///
/// ```swift
/// let card = WeChatMiniProgram(
///     userName: "gh_d43f693ca31f", path: "pages/photo?id=42",
///     webpageURL: URL(string: "https://example.com/photo/42")!,
///     hdImage: cardJPEG, card: WeChatCard(title: "Sunset at the pier"))
/// ```
public struct WeChatMiniProgram: Hashable, Sendable {
    /// Which build of the program opens (`miniprogramType`).
    public enum Build: Int, Hashable, Sendable, CaseIterable {
        /// The released program (`WXMiniProgramTypeRelease`).
        case release = 0
        /// The development build (`WXMiniProgramTypeTest`).
        case test = 1
        /// The trial build (`WXMiniProgramTypePreview`).
        case preview = 2
    }

    /// The program's original ID (`gh_…`), from the Official Accounts
    /// platform (`userName`).
    public var userName: String
    /// The page and its query (`path`); the program's home page when `nil`.
    public var path: String?
    /// The web page older WeChat opens instead (`webpageUrl`): required.
    public var webpageURL: URL
    /// Which build opens.
    public var build: Build
    /// Whether the share carries a share ticket, so the program can tell
    /// the group it was shared in (`withShareTicket`).
    public var withShareTicket: Bool
    /// The card's picture in current WeChat: `hdImageData` on iOS, at most
    /// 128 KB; on Android, whose SDK has no such field, the message's
    /// `thumbData` (also 128 KB, and required there: this or the card's thumbnail).
    public var hdImage: [UInt8]?
    /// The title, description and (old WeChat's) thumbnail.
    public var card: WeChatCard

    /// Creates a mini program card.
    public init(
        userName: String, path: String? = nil, webpageURL: URL, build: Build = .release, withShareTicket: Bool = false, hdImage: [UInt8]? = nil,
        card: WeChatCard = WeChatCard()
    ) {
        self.userName = userName
        self.path = path
        self.webpageURL = webpageURL
        self.build = build
        self.withShareTicket = withShareTicket
        self.hdImage = hdImage
        self.card = card
    }

    /// The object's limits on `platform` (``WeChatRules/miniProgram``)
    /// and its card's: on iOS the fallback URL 1 KB, `hdImageData` 128 KB,
    /// and the old card's 32 KB thumbnail; on Android, whose SDK has no
    /// `hdImageData`, the message's `thumbData` is the card's picture,
    /// required and at most 128 KB (``hdImage``, else the card's thumbnail).
    public static func limits(on platform: AppPlatform) -> [FieldLimit] {
        let rules = WeChatRules.on(platform)
        return rules.miniProgram + (platform == .iOS ? WeChatCard.limits(on: platform) : [rules.title, rules.description])
    }
}

extension WeChatMiniProgram: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        let picture = rules.platform == .iOS ? hdImage : hdImage ?? card.thumbnail
        let own = zip(rules.miniProgram, [WeChatFieldValue.url(webpageURL), .text(userName), .text(path), .data(picture?.count)]).map { ($0, $1) }
        guard rules.platform == .iOS else { return own + [(rules.title, .text(card.title)), (rules.description, .text(card.description))] }
        return own + card.checkedFields(on: rules)
    }

    var otherViolations: [ConstraintViolation] {
        var found = WeChatFieldCheck.webURL(webpageURL, field: "WXMiniProgramObject.webpageUrl")
        if userName.contains(where: { $0.isWhitespace }) {
            found.append(.fieldInvalid(field: "WXMiniProgramObject.userName", reason: "an original ID (gh_…) has no spaces"))
        }
        return found
    }
}
