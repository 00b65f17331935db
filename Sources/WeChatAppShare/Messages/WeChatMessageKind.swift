public import ShareKit

/// The kinds of message the WeChat app takes from another app: one per
/// OpenSDK media object (`WXMediaMessage.mediaObject`), and plain text.
///
/// Which scene takes which kind is data (``acceptingScenes``), checked
/// before the hand-off: WeChat itself refuses only inside its own screens,
/// after the app has lost the user.
///
/// ```swift
/// let scenes = WeChatMessageKind.miniProgram.acceptingScenes  // [.session]
/// let takesFiles = WeChatScene.timeline.accepts(.file)        // false
/// ```
public enum WeChatMessageKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain text (`SendMessageToWXReq.bText`).
    case text
    /// A picture (`WXImageObject`).
    case image
    /// A web page card (`WXWebpageObject`).
    case webpage
    /// A video file made for the share (`WXVideoFileObject`).
    case videoFile
    /// A mini program card (`WXMiniProgramObject`).
    case miniProgram
    /// A music card (`WXMusicObject`).
    case music
    /// A music video card played in WeChat's player (`WXMusicVideoObject`).
    case musicVideo
    /// A video by its web page (`WXVideoObject`).
    case video
    /// A file (`WXFileObject`).
    case file
    /// An animated sticker, a GIF (`WXEmoticonObject`; `WXEmojiObject` on Android).
    case emoticon

    /// The kind's name, as ``WeChatSendRequest/kind`` gives it.
    public var description: String { rawValue }

    /// The OpenSDK object that carries the kind.
    public var sdkObject: String {
        switch self {
        case .text: "SendMessageToWXReq.text"
        case .image: "WXImageObject"
        case .webpage: "WXWebpageObject"
        case .videoFile: "WXVideoFileObject"
        case .miniProgram: "WXMiniProgramObject"
        case .music: "WXMusicObject"
        case .musicVideo: "WXMusicVideoObject"
        case .video: "WXVideoObject"
        case .file: "WXFileObject"
        case .emoticon: "WXEmoticonObject"
        }
    }

    /// The fields the kind fills, with the SDK's cap on each: what
    /// ``WeChatSendRequest/init(_:scene:transaction:)`` checks, as data.
    public var limits: [FieldLimit] {
        typealias Limits = WeChatSendRequest.Limits
        switch self {
        case .text: return [FieldLimit("SendMessageToWXReq.text", limit: Limits.textBytes, isRequired: true)]
        case .image: return [FieldLimit("WXImageObject.imageData", limit: Limits.imageBytes, isRequired: true)] + WeChatCard.limits()
        case .webpage: return [FieldLimit("WXWebpageObject.webpageUrl", limit: Limits.urlBytes, isRequired: true)] + WeChatCard.limits()
        case .videoFile: return [FieldLimit("WXVideoFileObject.filePath", limit: nil, isRequired: true)] + WeChatCard.limits()
        case .miniProgram: return WeChatMiniProgram.limits + WeChatCard.limits()
        case .music: return WeChatMusic.limits + WeChatCard.limits()
        case .musicVideo: return WeChatMusicVideo.limits + WeChatCard.limits()
        case .video: return WeChatVideoLink.limits + WeChatCard.limits()
        case .file: return WeChatFile.limits + WeChatCard.limits()
        case .emoticon: return WeChatEmoticon.limits + WeChatCard.limits(thumbnailRequired: true)
        }
    }

    /// The kind in words: "mini program", "music video", "sticker".
    public var displayName: String {
        switch self {
        case .text: "text"
        case .image: "picture"
        case .webpage: "web page"
        case .videoFile: "video file"
        case .miniProgram: "mini program"
        case .music: "music"
        case .musicVideo: "music video"
        case .video: "video link"
        case .file: "file"
        case .emoticon: "sticker"
        }
    }

    /// The scenes that take the kind.
    ///
    /// Sources: WeChat's "Share and Favorites" guides for iOS and Android
    /// (developers.weixin.qq.com/doc/oplatform/Mobile_App/Share_and_Favorites)
    /// say a mini program goes to a chat only ("暂不支持分享至朋友圈"); a
    /// video file (`WXVideoFileObject`), a file and a sticker are chat
    /// messages that Moments cannot show, and Favorites keeps files but not
    /// stickers, mini programs or video files. Everything else goes
    /// everywhere.
    public var acceptingScenes: [WeChatScene] {
        switch self {
        case .text, .image, .webpage, .music, .video: [.session, .timeline, .favorite]
        case .musicVideo: [.session, .timeline]
        case .file: [.session, .favorite]
        case .videoFile, .miniProgram, .emoticon: [.session]
        }
    }

    /// Why a scene that does not take the kind refuses it, in words.
    var refusal: String {
        let places = acceptingScenes.map(\.displayName).spokenAlternatives
        return "WeChat takes a \(displayName) message (\(sdkObject)) only in \(places)"
    }
}

extension WeChatScene {
    /// Whether the scene takes `kind` (``WeChatMessageKind/acceptingScenes``).
    public func accepts(_ kind: WeChatMessageKind) -> Bool { kind.acceptingScenes.contains(self) }

    /// The scene as WeChat's screens name it: a chat, Moments, Favorites.
    var displayName: String {
        switch self {
        case .session: "a chat"
        case .timeline: "Moments"
        case .favorite: "Favorites"
        }
    }
}
