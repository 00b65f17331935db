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
    /// The card's picture in current WeChat (`hdImageData`): at most 128 KB.
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

    /// The SDK's limits on the object's own fields (`WXApiObject.h`;
    /// the Android SDK's `checkArgs`): the fallback URL 10 KB and required,
    /// the user name required, the HD image 128 KB.
    public static let limits = [
        FieldLimit("WXMiniProgramObject.webpageUrl", limit: WeChatSendRequest.Limits.urlBytes, isRequired: true),
        FieldLimit("WXMiniProgramObject.userName", limit: nil, isRequired: true),
        FieldLimit("WXMiniProgramObject.path", limit: nil),
        FieldLimit("WXMiniProgramObject.hdImageData", limit: WeChatSendRequest.Limits.miniProgramImageBytes),
    ]
}

extension WeChatMiniProgram: WeChatCheckedObject {
    var checkedFields: [(FieldLimit, Int?)] {
        zip(Self.limits, [WeChatFieldCheck.bytes(webpageURL), WeChatFieldCheck.bytes(userName), WeChatFieldCheck.bytes(path), hdImage?.count])
            .map { ($0, $1) } + card.checkedFields()
    }

    var otherViolations: [ConstraintViolation] {
        var found = WeChatFieldCheck.webURL(webpageURL, field: "WXMiniProgramObject.webpageUrl")
        if userName.contains(where: { $0.isWhitespace }) {
            found.append(.fieldInvalid(field: "WXMiniProgramObject.userName", reason: "an original ID (gh_…) has no spaces"))
        }
        return found
    }
}
