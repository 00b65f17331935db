public import ShareKit

/// The kinds of message the WeChat app takes from another app: one per
/// OpenSDK media object (`WXMediaMessage.mediaObject`), and plain text.
///
/// Which scene takes which kind on which platform is data
/// (``acceptingScenes(on:)``), checked before the hand-off: WeChat itself
/// refuses only inside its own screens, after the app has lost the user.
///
/// ```swift
/// let scenes = WeChatMessageKind.miniProgram.acceptingScenes(on: .iOS)   // [.session]
/// let takesFiles = WeChatScene.timeline.accepts(.file, on: .android)     // false
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

    /// The fields the kind fills on `platform`, with the SDK's cap on
    /// each and where it comes from (``WeChatRules``): what
    /// ``WeChatSendRequest/init(_:scene:platform:transaction:)`` checks, as data.
    /// Empty for a kind the platform's SDK does not have (a video file on iOS).
    public func limits(on platform: AppPlatform) -> [FieldLimit] {
        let rules = WeChatRules.on(platform)
        switch self {
        case .text: return [rules.text]
        case .image: return [rules.image] + WeChatCard.limits(on: platform)
        case .webpage: return [rules.webpageURL] + WeChatCard.limits(on: platform)
        case .videoFile: return rules.videoFile.map { [$0] + WeChatCard.limits(on: platform) } ?? []
        case .miniProgram: return WeChatMiniProgram.limits(on: platform)
        case .music: return WeChatMusic.limits(on: platform)
        case .musicVideo: return WeChatMusicVideo.limits(on: platform)
        case .video: return WeChatVideoLink.limits(on: platform)
        case .file: return WeChatFile.limits(on: platform)
        case .emoticon: return WeChatEmoticon.limits(on: platform)
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

    /// The scenes that take the kind on `platform`.
    ///
    /// Sources: WeChat's "Share and Favorites" guides for iOS and Android
    /// (developers.weixin.qq.com/doc/oplatform/Mobile_App/Share_and_Favorites)
    /// say a mini program goes to a chat only ("暂不支持分享至朋友圈"); a
    /// video file (`WXVideoFileObject`), a file and a sticker are chat
    /// messages that Moments cannot show, and Favorites keeps files but not
    /// stickers, mini programs or video files. `WXVideoFileObject` exists in
    /// the Android SDK only (iOS's `WXApiObject.h` has none), so on iOS a
    /// video file goes nowhere. Everything else goes everywhere.
    public func acceptingScenes(on platform: AppPlatform) -> [WeChatScene] {
        switch self {
        case .text, .image, .webpage, .music, .video: [.session, .timeline, .favorite]
        case .musicVideo: [.session, .timeline]
        case .file: [.session, .favorite]
        case .videoFile: platform == .android ? [.session] : []
        case .miniProgram, .emoticon: [.session]
        }
    }

    /// Why a scene that does not take the kind on `platform` refuses it, in words.
    func refusal(on platform: AppPlatform) -> String {
        let places = acceptingScenes(on: platform)
        guard !places.isEmpty else { return "WeChat's \(platform) SDK has no \(sdkObject): a \(displayName) message cannot be shared from \(platform)" }
        return "WeChat takes a \(displayName) message (\(sdkObject)) only in \(places.map(\.displayName).spokenAlternatives)"
    }
}

extension WeChatScene {
    /// Whether the scene takes `kind` on `platform` (``WeChatMessageKind/acceptingScenes(on:)``).
    public func accepts(_ kind: WeChatMessageKind, on platform: AppPlatform) -> Bool { kind.acceptingScenes(on: platform).contains(self) }

    /// The scene as WeChat's screens name it: a chat, Moments, Favorites.
    var displayName: String {
        switch self {
        case .session: "a chat"
        case .timeline: "Moments"
        case .favorite: "Favorites"
        }
    }
}
