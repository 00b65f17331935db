public import ShareKit

/// What every WeChat media message shows around its object
/// (`WXMediaMessage`): a title, a description and a thumbnail.
///
/// ```swift
/// let card = WeChatCard(title: "Sunset", description: "At the pier", thumbnail: jpegUnder32KB)
/// ```
public struct WeChatCard: Hashable, Sendable {
    /// `WXMediaMessage.title`: at most 512 bytes.
    public var title: String?
    /// `WXMediaMessage.description`: at most 1 KB.
    public var description: String?
    /// `WXMediaMessage.thumbData`: a JPEG or PNG of at most 32 KB.
    public var thumbnail: [UInt8]?

    /// Creates a card.
    public init(title: String? = nil, description: String? = nil, thumbnail: [UInt8]? = nil) {
        self.title = title
        self.description = description
        self.thumbnail = thumbnail
    }

    /// The limits of `WXMediaMessage` (WeChat's "Share and Favorites"
    /// guides; `WXApiObject.h`). The thumbnail is required for a sticker only.
    public static func limits(thumbnailRequired: Bool = false) -> [FieldLimit] {
        [
            FieldLimit("WXMediaMessage.title", limit: WeChatSendRequest.Limits.titleBytes),
            FieldLimit("WXMediaMessage.description", limit: WeChatSendRequest.Limits.descriptionBytes),
            FieldLimit("WXMediaMessage.thumbData", limit: WeChatSendRequest.Limits.thumbnailBytes, isRequired: thumbnailRequired),
        ]
    }

    /// The card's fields with their sizes.
    func checkedFields(thumbnailRequired: Bool = false) -> [(FieldLimit, Int?)] {
        zip(Self.limits(thumbnailRequired: thumbnailRequired), [WeChatFieldCheck.bytes(title), WeChatFieldCheck.bytes(description), thumbnail?.count])
            .map { ($0, $1) }
    }
}
