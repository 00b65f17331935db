public import ShareKit

/// A file for a chat or Favorites (`WXFileObject`): its bytes, at most
/// 10 MB, and its extension (`pdf`, at most 64 bytes), which WeChat uses to
/// pick an icon and an app that opens it.
///
/// ```swift
/// let report = WeChatFile(data: pdfBytes, fileExtension: "pdf", card: WeChatCard(title: "Report.pdf"))
/// ```
public struct WeChatFile: Hashable, Sendable {
    /// The file's contents (`fileData`; the Android bridge writes them to a
    /// file it offers through its `FileProvider`).
    public var data: [UInt8]
    /// The extension without the dot (`fileExtension`).
    public var fileExtension: String
    /// The title (the name WeChat shows), description and thumbnail.
    public var card: WeChatCard

    /// Creates a file message.
    public init(data: [UInt8], fileExtension: String, card: WeChatCard = WeChatCard()) {
        self.data = data
        self.fileExtension = fileExtension
        self.card = card
    }

    /// On iOS `fileData` 10 MB and `fileExtension` 64 bytes (`WXApiObject.h`),
    /// both required; on Android the file (data or a path) up to the SDK's
    /// 1,920,991,232 bytes, named by its path (the bridge names it with
    /// ``fileExtension``). ``WeChatRules/file``, and the card's.
    public static func limits(on platform: AppPlatform) -> [FieldLimit] { WeChatRules.on(platform).file + WeChatCard.limits(on: platform) }
}

extension WeChatFile: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        zip(rules.file, [WeChatFieldValue.data(data.count), .text(fileExtension)]).map { ($0, $1) } + card.checkedFields(on: rules)
    }

    var otherViolations: [ConstraintViolation] {
        let allowed = fileExtension.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        return fileExtension.isEmpty || allowed
            ? [] : [.fieldInvalid(field: "WXFileObject.fileExtension", reason: "letters and digits only, without the dot")]
    }
}

/// An animated sticker for a chat (`WXEmoticonObject`; `WXEmojiObject` on
/// Android): a GIF of at most 10 MB, and a thumbnail, which the Android
/// SDK requires for a sticker (its `checkArgs` refuses one without).
///
/// ```swift
/// let sticker = WeChatEmoticon(data: gifBytes, card: WeChatCard(thumbnail: firstFrameJPEG))
/// ```
public struct WeChatEmoticon: Hashable, Sendable {
    /// The GIF (`emoticonData`).
    public var data: [UInt8]
    /// The thumbnail (required) and, rarely shown, a title and description.
    public var card: WeChatCard

    /// Creates a sticker.
    public init(data: [UInt8], card: WeChatCard) {
        self.data = data
        self.card = card
    }

    /// The sticker's data, 10 MB and required on both platforms
    /// (``WeChatRules/emoticon``), and its card's: Android requires the thumbnail.
    public static func limits(on platform: AppPlatform) -> [FieldLimit] {
        let rules = WeChatRules.on(platform)
        return [rules.emoticon] + WeChatCard.limits(on: platform, thumbnailRequired: rules.emoticonNeedsThumbnail)
    }
}

extension WeChatEmoticon: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        [(rules.emoticon, .data(data.count))] + card.checkedFields(on: rules, thumbnailRequired: rules.emoticonNeedsThumbnail)
    }

    var otherViolations: [ConstraintViolation] {
        data.starts(with: Array("GIF8".utf8)) || data.isEmpty
            ? [] : [.fieldInvalid(field: "WXEmoticonObject.emoticonData", reason: "a sticker is a GIF (it starts with GIF87a or GIF89a)")]
    }
}
