public import ShareKit

/// The kinds of message the QQ app takes from another app, and which
/// destination takes which: data, checked before the hand-off.
///
/// ```swift
/// let places = QQMessageKind.file.acceptingDestinations(on: .iOS)   // [.dataline]
/// ```
public enum QQMessageKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Text (`QQApiTextObject`; in Qzone a mood, `QQApiImageArrayForQZoneObject` without pictures).
    case text
    /// One picture (`QQApiImageObject`; in Qzone `QQApiImageArrayForQZoneObject`).
    case image
    /// Several pictures (`QQApiImageObject.imageDataArray` for Favorites,
    /// `QQApiImageArrayForQZoneObject` for Qzone).
    case images
    /// A link card (`QQApiNewsObject`).
    case news
    /// An audio card (`QQApiAudioObject`).
    case audio
    /// A video by its web page (`QQApiVideoObject`; QQ's header recommends a news card instead).
    case videoLink
    /// A video file for Qzone (`QQApiVideoForQZoneObject`).
    case videoFile
    /// A file (`QQApiFileObject`), to the dataline only.
    case file
    /// A QQ mini program card (`QQApiMiniProgramObject`, QQ 8.0.8 and later).
    case miniProgram

    public var description: String { rawValue }

    /// The kind in words.
    public var displayName: String {
        switch self {
        case .text: "text"
        case .image: "picture"
        case .images: "several pictures"
        case .news: "link"
        case .audio: "audio"
        case .videoLink: "video link"
        case .videoFile: "video file"
        case .file: "file"
        case .miniProgram: "mini program"
        }
    }

    /// The destinations that take the kind. From `QQApiInterfaceObject.h`:
    /// several pictures go to Favorites only ("多图暂只支持分享到手机QQ收藏")
    /// or to Qzone through its own object; a file to the dataline only
    /// ("暂只支持分享到手机QQ数据线"); a video file to Qzone only
    /// (`QQApiVideoForQZoneObject`); a single text or picture object is
    /// refused by Qzone (`EQQAPIQZONENOTSUPPORTTEXT`, `…IMAGE`), so those
    /// go there as a Qzone mood. Mini programs go to a chat. On Android,
    /// Tencent's SDK shares no plain text to a chat, Favorites or My
    /// Computer (`shareToQQ` takes a picture, a link, audio, an app or a
    /// mini program, never text alone): there text goes to Qzone only, as
    /// a mood (`publishToQzone`).
    public func acceptingDestinations(on platform: AppPlatform) -> [QQDestination] {
        switch self {
        case .text: platform == .android ? [.qzone] : [.friend, .qzone, .favorites, .dataline]
        case .image: [.friend, .qzone, .favorites, .dataline]
        case .news: [.friend, .qzone, .favorites, .dataline]
        case .audio, .videoLink: [.friend, .qzone, .favorites]
        case .images: [.qzone, .favorites]
        case .videoFile: [.qzone]
        case .file: [.dataline]
        case .miniProgram: [.friend]
        }
    }

    /// The SDK object that carries the kind to `destination`.
    public func sdkObject(for destination: QQDestination) -> String {
        switch self {
        case .text: destination == .qzone ? "QQApiImageArrayForQZoneObject" : "QQApiTextObject"
        case .image: destination == .qzone ? "QQApiImageArrayForQZoneObject" : "QQApiImageObject"
        case .images: destination == .qzone ? "QQApiImageArrayForQZoneObject" : "QQApiImageObject.imageDataArray"
        case .news: "QQApiNewsObject"
        case .audio: "QQApiAudioObject"
        case .videoLink: "QQApiVideoObject"
        case .videoFile: "QQApiVideoForQZoneObject"
        case .file: "QQApiFileObject"
        case .miniProgram: "QQApiMiniProgramObject"
        }
    }

    /// Why a destination that does not take the kind on `platform` refuses it.
    func refusal(on platform: AppPlatform) -> String {
        let places = acceptingDestinations(on: platform).map(\.displayName).spokenAlternatives
        let android = platform == .android && self == .text ? " (Tencent's Android SDK shares no plain text elsewhere)" : ""
        return "QQ takes a \(displayName) message only in \(places)\(android)"
    }
}

extension QQDestination {
    /// Whether the destination takes `kind` on `platform`.
    public func accepts(_ kind: QQMessageKind, on platform: AppPlatform) -> Bool { kind.acceptingDestinations(on: platform).contains(self) }
}
