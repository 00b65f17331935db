public import Foundation
public import ShareKit

/// A music card (`WXMusicObject`): the song's web page and, for WeChat's
/// player, its audio stream. One of the two page URLs is required.
///
/// ```swift
/// let song = WeChatMusic(
///     url: URL(string: "https://music.example.com/song/7")!,
///     dataURL: URL(string: "https://cdn.example.com/7.mp3")!, card: WeChatCard(title: "Song"))
/// ```
public struct WeChatMusic: Hashable, Sendable {
    /// The song's web page (`musicUrl`).
    public var url: URL?
    /// The page for slow networks (`musicLowBandUrl`).
    public var lowBandURL: URL?
    /// The audio stream WeChat plays (`musicDataUrl`).
    public var dataURL: URL?
    /// The stream for slow networks (`musicLowBandDataUrl`).
    public var lowBandDataURL: URL?
    /// The title, description and thumbnail.
    public var card: WeChatCard

    /// Creates a music card.
    public init(url: URL? = nil, lowBandURL: URL? = nil, dataURL: URL? = nil, lowBandDataURL: URL? = nil, card: WeChatCard = WeChatCard()) {
        self.url = url
        self.lowBandURL = lowBandURL
        self.dataURL = dataURL
        self.lowBandDataURL = lowBandDataURL
        self.card = card
    }

    /// Each URL at most 10 KB on iOS, 10,240 UTF-16 units on Android
    /// (``WeChatRules/music``); `musicUrl` or `musicLowBandUrl` must be given.
    public static func limits(on platform: AppPlatform) -> [FieldLimit] { WeChatRules.on(platform).music + WeChatCard.limits(on: platform) }
}

extension WeChatMusic: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        zip(rules.music, [url, lowBandURL, dataURL, lowBandDataURL].map(WeChatFieldValue.url)).map { ($0, $1) } + card.checkedFields(on: rules)
    }

    var otherViolations: [ConstraintViolation] {
        var found: [ConstraintViolation] = url == nil && lowBandURL == nil ? [.fieldRequired(field: "WXMusicObject.musicUrl or musicLowBandUrl")] : []
        for (name, address) in zip(["musicUrl", "musicLowBandUrl", "musicDataUrl", "musicLowBandDataUrl"], [url, lowBandURL, dataURL, lowBandDataURL]) {
            found += WeChatFieldCheck.webURL(address, field: "WXMusicObject.\(name)")
        }
        return found
    }
}

/// A video by its web page (`WXVideoObject`): WeChat shows a card that
/// opens the page. One of the two URLs is required. (A video file the
/// user picked goes as ``WeChatSendRequest/Message/videoFile(path:thumbnail:)``.)
///
/// ```swift
/// let clip = WeChatVideoLink(url: URL(string: "https://video.example.com/v/9")!, card: WeChatCard(title: "Clip"))
/// ```
public struct WeChatVideoLink: Hashable, Sendable {
    /// The video's web page (`videoUrl`).
    public var url: URL?
    /// The page for slow networks (`videoLowBandUrl`).
    public var lowBandURL: URL?
    /// The title, description and thumbnail.
    public var card: WeChatCard

    /// Creates a video link.
    public init(url: URL? = nil, lowBandURL: URL? = nil, card: WeChatCard = WeChatCard()) {
        self.url = url
        self.lowBandURL = lowBandURL
        self.card = card
    }

    /// Each URL at most 10 KB (`WXApiObject.h`); one of them must be given.
    public static func limits(on platform: AppPlatform) -> [FieldLimit] { WeChatRules.on(platform).videoLink + WeChatCard.limits(on: platform) }
}

extension WeChatVideoLink: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        zip(rules.videoLink, [url, lowBandURL].map(WeChatFieldValue.url)).map { ($0, $1) } + card.checkedFields(on: rules)
    }

    var otherViolations: [ConstraintViolation] {
        var found: [ConstraintViolation] = url == nil && lowBandURL == nil ? [.fieldRequired(field: "WXVideoObject.videoUrl or videoLowBandUrl")] : []
        for (name, address) in zip(["videoUrl", "videoLowBandUrl"], [url, lowBandURL]) {
            found += WeChatFieldCheck.webURL(address, field: "WXVideoObject.\(name)")
        }
        return found
    }
}
