public import ShareKit

/// What every WeChat media message shows around its object
/// (`WXMediaMessage`): a title, a description and a thumbnail.
///
/// ```swift
/// let card = WeChatCard(title: "Sunset", description: "At the pier", thumbnail: jpegUnder32KB)
/// ```
public struct WeChatCard: Hashable, Sendable {
    /// `WXMediaMessage.title`: at most 512 bytes on iOS, 512 UTF-16 units on Android.
    public var title: String?
    /// `WXMediaMessage.description`: at most 1 KB on iOS, 1,024 UTF-16 units on Android.
    public var description: String?
    /// `WXMediaMessage.thumbData`: a JPEG or PNG of at most 32 KB (``WeChatRules/thumbnail``).
    public var thumbnail: [UInt8]?

    /// Creates a card.
    public init(title: String? = nil, description: String? = nil, thumbnail: [UInt8]? = nil) {
        self.title = title
        self.description = description
        self.thumbnail = thumbnail
    }

    /// The limits of `WXMediaMessage` on `platform` (``WeChatRules``): the
    /// title, the description and the thumbnail, which a sticker needs on
    /// Android (`thumbnailRequired`) and a music video's title needs there too.
    public static func limits(on platform: AppPlatform, thumbnailRequired: Bool = false, titleRequired: Bool = false) -> [FieldLimit] {
        let rules = WeChatRules.on(platform)
        return [
            titleRequired ? WeChatFieldCheck.required(rules.title) : rules.title, rules.description,
            thumbnailRequired ? WeChatFieldCheck.required(rules.thumbnail) : rules.thumbnail,
        ]
    }

    /// The card's fields with their contents.
    func checkedFields(on rules: WeChatRules, thumbnailRequired: Bool = false, titleRequired: Bool = false) -> [(FieldLimit, WeChatFieldValue)] {
        zip(
            Self.limits(on: rules.platform, thumbnailRequired: thumbnailRequired, titleRequired: titleRequired),
            [WeChatFieldValue.text(title), .text(description), .data(thumbnail?.count)]
        ).map { ($0, $1) }
    }
}
