public import ShareKit

/// What WeChat's OpenSDK takes on one platform: every field's cap, whether
/// it must be given, how text is counted, and where each value comes from.
/// The one table the message types, ``WeChatSendRequest`` and
/// ``WeChatAppProvider`` check against; a bridge says its platform
/// (``ShareKit/AppBridge/platform``).
///
/// Sources, named in each ``ShareKit/FieldLimit/source``:
/// - iOS: `WXApiObject.h` of OpenSDK 1.8.7.1 to 2.0.4, which counts text in
///   bytes; it has no `WXVideoFileObject`.
/// - Android: OpenSDK 6.8.0's `checkArgs` (`WXMediaMessage`, each object),
///   which counts text with `String.length()` (UTF-16 code units), and
///   requires a mini program's `thumbData` (128 KB), a sticker's, and a
///   music video's title.
/// - WeChat's "Share and Favorites" guides for iOS and Android
///   (developers.weixin.qq.com/doc/oplatform/Mobile_App/Share_and_Favorites),
///   whose tables are stricter than the SDKs in two places PhotoDeck keeps:
///   a thumbnail of 32 KB (the SDKs check 64 KB) and, on iOS, a picture of
///   10 MB (the header allows 25 MB). On Android a picture's bytes travel
///   in a Binder transaction, which the guide caps at 1 MB; a larger one
///   goes as a file (`imagePath`, through a `FileProvider`), up to 25 MB.
///
/// ```swift
/// let android = WeChatRules.on(.android)
/// print(android.inlineDataBytes ?? 0, android.text.unit)   // 1048576 characters
/// ```
public struct WeChatRules: Hashable, Sendable {
    /// The platform.
    public let platform: AppPlatform
    /// Data larger than this is handed to WeChat as a file the bridge shares
    /// (Android's `imagePath`, `filePath`, `emojiPath` through a
    /// `FileProvider`), not in the request; `nil`: any size goes inline.
    public let inlineDataBytes: Int?

    /// `SendMessageToWXReq.text` (iOS) or `WXTextObject.text` (Android): required.
    public let text: FieldLimit
    /// `WXMediaMessage.title`.
    public let title: FieldLimit
    /// `WXMediaMessage.description`.
    public let description: FieldLimit
    /// `WXMediaMessage.thumbData` of every message but a mini program's on Android.
    public let thumbnail: FieldLimit
    /// `WXMediaMessage.messageExt`.
    public let messageExt: FieldLimit
    /// `WXImageObject.imageData` (or, on Android past ``inlineDataBytes``, the file at `imagePath`).
    public let image: FieldLimit
    /// `WXWebpageObject.webpageUrl`.
    public let webpageURL: FieldLimit
    /// `WXVideoFileObject.filePath`'s file: Android only (`nil` on iOS, whose SDK has no such object).
    public let videoFile: FieldLimit?
    /// `WXMiniProgramObject`: `webpageUrl`, `userName`, `path`, and the
    /// card's picture (`hdImageData` on iOS; on Android the message's
    /// `thumbData`, required).
    public let miniProgram: [FieldLimit]
    /// `WXMusicObject`'s four URLs.
    public let music: [FieldLimit]
    /// `WXMusicVideoObject`'s fields, in the order of ``WeChatMusicVideo``'s.
    public let musicVideo: [FieldLimit]
    /// Whether a music video needs `WXMediaMessage.title` (Android's `checkArgs` does).
    public let musicVideoNeedsTitle: Bool
    /// `WXVideoObject.videoUrl` and `videoLowBandUrl`.
    public let videoLink: [FieldLimit]
    /// `WXFileObject`: the data, and on iOS its `fileExtension` (Android names the file by its path).
    public let file: [FieldLimit]
    /// `WXEmoticonObject.emoticonData` (`WXEmojiObject` on Android).
    public let emoticon: FieldLimit
    /// Whether a sticker needs `thumbData` (Android's `checkArgs` does).
    public let emoticonNeedsThumbnail: Bool

    /// The rules of `platform`.
    public static func on(_ platform: AppPlatform) -> WeChatRules { platform == .iOS ? iOS : android }

    private static let header = "WXApiObject.h (iOS OpenSDK 1.8.7.1–2.0.4)"
    private static let checkArgs = "Android OpenSDK 6.8.0 checkArgs"
    private static let guide = "WeChat's Share and Favorites guide"
    private static let megabyte = 1_024 * 1_024

    /// iOS: bytes, `WXApiObject.h`, the guide's 32 KB thumbnail and 10 MB picture.
    public static let iOS: WeChatRules = {
        let h = header
        func bytes(_ field: String, _ limit: Int?, required: Bool = false, _ source: String = h) -> FieldLimit {
            FieldLimit(field, limit: limit, unit: .bytes, isRequired: required, source: source)
        }
        let url = 10 * 1_024
        return WeChatRules(
            platform: .iOS, inlineDataBytes: nil,
            text: bytes("SendMessageToWXReq.text", url, required: true, "\(h): more than 0 and less than 10K"),
            title: bytes("WXMediaMessage.title", 512), description: bytes("WXMediaMessage.description", 1_024),
            thumbnail: bytes("WXMediaMessage.thumbData", 32 * 1_024, "\(guide) (the header allows 64 KB)"),
            messageExt: bytes("WXMediaMessage.messageExt", 2 * 1_024, "\(guide) (the header states no cap)"),
            image: bytes("WXImageObject.imageData", 10 * megabyte, required: true, "\(guide) (the header allows 25 MB)"),
            webpageURL: bytes("WXWebpageObject.webpageUrl", url, required: true),
            videoFile: nil,
            miniProgram: [
                bytes("WXMiniProgramObject.webpageUrl", 1_024, required: true), bytes("WXMiniProgramObject.userName", nil, required: true),
                bytes("WXMiniProgramObject.path", nil), bytes("WXMiniProgramObject.hdImageData", 128 * 1_024),
            ],
            music: ["musicUrl", "musicLowBandUrl", "musicDataUrl", "musicLowBandDataUrl"].map { bytes("WXMusicObject.\($0)", url) },
            musicVideo: [
                bytes("WXMusicVideoObject.musicUrl", url, required: true), bytes("WXMusicVideoObject.musicDataUrl", url, required: true),
                bytes("WXMusicVideoObject.singerName", 1_024, required: true), bytes("WXMusicVideoObject.songLyric", 32 * 1_024),
                bytes("WXMusicVideoObject.hdAlbumThumbData", megabyte), bytes("WXMusicVideoObject.albumName", 1_024),
                bytes("WXMusicVideoObject.musicGenre", 1_024), bytes("WXMusicVideoObject.identification", 1_024),
                bytes("WXMusicVideoObject.musicOperationUrl", nil), bytes("WXMediaMessage.messageExt", 2 * 1_024, "\(guide) (the header states no cap)"),
            ],
            musicVideoNeedsTitle: false,
            videoLink: ["videoUrl", "videoLowBandUrl"].map { bytes("WXVideoObject.\($0)", url) },
            file: [bytes("WXFileObject.fileData", 10 * megabyte, required: true), bytes("WXFileObject.fileExtension", 64, required: true)],
            emoticon: bytes("WXEmoticonObject.emoticonData", 10 * megabyte, required: true),
            emoticonNeedsThumbnail: false)
    }()

    /// Android: UTF-16 code units for text, OpenSDK 6.8.0's `checkArgs`, the
    /// guide's 32 KB thumbnail and 1 MB of data inline.
    public static let android: WeChatRules = {
        let a = checkArgs
        func characters(_ field: String, _ limit: Int?, required: Bool = false, _ source: String = a) -> FieldLimit {
            FieldLimit(field, limit: limit, unit: .characters, isRequired: required, source: source)
        }
        func bytes(_ field: String, _ limit: Int?, required: Bool = false, _ source: String = a) -> FieldLimit {
            FieldLimit(field, limit: limit, unit: .bytes, isRequired: required, source: source)
        }
        let url = 10_240
        return WeChatRules(
            platform: .android, inlineDataBytes: megabyte,
            text: characters("WXTextObject.text", url, required: true),
            title: characters("WXMediaMessage.title", 512), description: characters("WXMediaMessage.description", 1_024),
            thumbnail: bytes("WXMediaMessage.thumbData", 32 * 1_024, "\(guide) (checkArgs allows 64 KB)"),
            messageExt: characters("WXMediaMessage.messageExt", 2_048),
            image: bytes("WXImageObject.imageData", 25 * megabyte, required: true, "\(a); \(guide): 1 MB as imageData, 25 MB as a file at imagePath"),
            webpageURL: characters("WXWebpageObject.webpageUrl", url, required: true),
            videoFile: bytes("WXVideoFileObject.filePath", 100 * megabyte, required: true, "PhotoDeck's cap for a chat's video (\(a) allows 1 GB)"),
            miniProgram: [
                characters("WXMiniProgramObject.webpageUrl", nil, required: true), characters("WXMiniProgramObject.userName", nil, required: true),
                characters("WXMiniProgramObject.path", nil),
                bytes("WXMediaMessage.thumbData", 128 * 1_024, required: true, "\(a): a mini program's thumbData, required, at most 128 KB"),
            ],
            music: ["musicUrl", "musicLowBandUrl", "musicDataUrl", "musicLowBandDataUrl"].map { characters("WXMusicObject.\($0)", url) },
            musicVideo: [
                characters("WXMusicVideoObject.musicUrl", url, required: true), characters("WXMusicVideoObject.musicDataUrl", url, required: true),
                characters("WXMusicVideoObject.singerName", 1_024, required: true), characters("WXMusicVideoObject.songLyric", 32_768),
                bytes("WXMusicVideoObject.hdAlbumThumbFilePath", 10 * megabyte, "\(a): the file at hdAlbumThumbFilePath"),
                characters("WXMusicVideoObject.albumName", nil), characters("WXMusicVideoObject.musicGenre", 1_024),
                characters("WXMusicVideoObject.identification", 1_024), characters("WXMusicVideoObject.musicOperationUrl", url),
                characters("WXMediaMessage.messageExt", 2_048),
            ],
            musicVideoNeedsTitle: true,
            videoLink: ["videoUrl", "videoLowBandUrl"].map { characters("WXVideoObject.\($0)", url) },
            file: [bytes("WXFileObject.fileData", 1_920_991_232, required: true, "\(a): fileData or the file at filePath")],
            emoticon: bytes("WXEmojiObject.emojiData", 10 * megabyte, required: true),
            emoticonNeedsThumbnail: true)
    }()
}
