public import Foundation
import ImageCore
public import ShareKit

/// Where the WeChat app puts a message: OpenSDK's `WXScene`.
public enum WeChatScene: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A chat the user picks in WeChat (`WXSceneSession`).
    case session = 0
    /// The user's Moments (`WXSceneTimeline`).
    case timeline = 1
    /// The user's Favorites (`WXSceneFavorite`).
    case favorite = 2

    /// The share destination of the scene.
    public var destination: ShareDestination {
        switch self {
        case .session: .session
        case .timeline: .timeline
        case .favorite: .favorites
        }
    }

    /// The scene of a destination, if it has one.
    public init?(_ destination: ShareDestination) {
        guard let scene = Self.allCases.first(where: { $0.destination == destination }) else { return nil }
        self = scene
    }

    public var description: String {
        switch self {
        case .session: "session"
        case .timeline: "timeline"
        case .favorite: "favorite"
        }
    }
}

/// What the OpenSDK's `SendMessageToWXReq` carries: a text message
/// (`bText`), or a media message (`WXMediaMessage`) holding an image
/// (`WXImageObject`) or a web page (`WXWebpageObject`), for one scene.
/// A ``WeChatBridge`` turns it into the SDK's request object.
///
/// Every field is within the SDK's documented limits (``Limits``): a
/// request is only ever built through ``init(content:scene:transaction:)``,
/// which checks them to the byte.
public struct WeChatSendRequest: Hashable, Sendable {
    /// The SDK's limits, in bytes (`WXApiObject.h`).
    public enum Limits {
        /// `SendMessageToWXReq.text`: more than 0 and at most 10 KB.
        public static let textBytes = 10 * 1024
        /// `WXMediaMessage.title`: 512 bytes.
        public static let titleBytes = 512
        /// `WXMediaMessage.description`: 1 KB.
        public static let descriptionBytes = 1024
        /// `WXMediaMessage.thumbData`: 32 KB.
        public static let thumbnailBytes = 32 * 1024
        /// `WXImageObject.imageData`: 10 MB.
        public static let imageBytes = 10 * 1024 * 1024
        /// `WXWebpageObject.webpageUrl`: 10 KB.
        public static let urlBytes = 10 * 1024
        /// `WXVideoFileObject`'s file: 100 MB (its `FILE_SIZE_LIMIT`).
        public static let videoFileBytes = 100 * 1024 * 1024
        /// `WXMiniProgramObject.hdImageData`: 128 KB (`WXApiObject.h`; fluwx
        /// compresses to 120 KB to stay clear of it).
        public static let miniProgramImageBytes = 128 * 1024
        /// `WXFileObject.fileData`: 10 MB.
        public static let fileBytes = 10 * 1024 * 1024
        /// `WXFileObject.fileExtension`: 64 bytes.
        public static let fileExtensionBytes = 64
        /// `WXEmoticonObject.emoticonData`: 10 MB.
        public static let emoticonBytes = 10 * 1024 * 1024
        /// `WXMusicVideoObject`'s names (singer, genre, identification): 1 KB.
        public static let musicVideoNameBytes = 1024
        /// `WXMusicVideoObject.songLyric`: 32 KB.
        public static let lyricBytes = 32 * 1024
        /// `WXMusicVideoObject`'s HD album picture: 10 MB.
        public static let albumImageBytes = 10 * 1024 * 1024
        /// `WXMediaMessage.messageExt`: 2 KB.
        public static let messageExtBytes = 2 * 1024
    }

    /// The message.
    public enum Message: Hashable, Sendable {
        /// Plain text (`bText = YES`).
        case text(String)
        /// A picture: `WXImageObject.imageData`, and `thumbData`.
        case image(data: [UInt8], thumbnail: [UInt8]?)
        /// A web page card: `WXWebpageObject.webpageUrl`, `title`,
        /// `description` and `thumbData`.
        case webpage(url: String, title: String?, description: String?, thumbnail: [UInt8]?)
        /// A video file for a chat: `WXVideoFileObject.filePath` (an MP4
        /// made for this share, H.264 and AAC, at most 100 MB), and
        /// `thumbData` (its first frame). The bridge makes the file
        /// readable by WeChat (a `FileProvider` URI on Android) before it
        /// hands the request off; the file is removed when the share ends.
        case videoFile(path: String, thumbnail: [UInt8]?)
        /// A mini program card, to a chat only.
        case miniProgram(WeChatMiniProgram)
        /// A music card.
        case music(WeChatMusic)
        /// A music video card for WeChat's player.
        case musicVideo(WeChatMusicVideo)
        /// A video by its web page.
        case video(WeChatVideoLink)
        /// A file.
        case file(WeChatFile)
        /// An animated sticker.
        case emoticon(WeChatEmoticon)
    }

    /// The scene.
    public let scene: WeChatScene
    /// The message.
    public let message: Message
    /// An identifier the bridge passes as the request's `transaction` (the
    /// Android SDK returns it in the response); matches the response to
    /// the request.
    public let transaction: String

    /// The SDK's limits as ShareKit rules: one picture without text, a link
    /// as a web page card (never with pictures), counted in UTF-8 bytes. A
    /// card's thumbnail is a 240x240 square cropped by
    /// ``ImageCore/CropStrategy/attention`` (WeChat shows it square, so
    /// a wider picture would lose its sides wherever the subject is).
    /// ``WeChatAppProvider`` offers these for every scene, and in a chat
    /// a video file too (``constraints(for:)``).
    public static let constraints = ShareConstraints(
        text: .init(maxLength: Limits.textBytes, counting: .utf8Bytes),
        images: .init(maxCount: 1, maxBytes: Limits.imageBytes, formats: [.jpeg, .png], acceptsText: false),
        thumbnail: .init(maxBytes: Limits.thumbnailBytes, maxSize: PixelSize(width: 240, height: 240), format: .jpeg, crop: .attention),
        links: .object(maxTitleLength: Limits.titleBytes, maxSummaryLength: Limits.descriptionBytes), allowsMixedContent: false,
        linkCounting: .utf8Bytes, maxLinkBytes: Limits.urlBytes)

    /// The rules of `scene`: ``constraints``, and in a chat (the only
    /// scene `WXVideoFileObject` goes to) a video file, H.264 and AAC in MP4
    /// up to 100 MB, with a 32 KB thumbnail of its first frame.
    public static func constraints(for scene: WeChatScene) -> ShareConstraints {
        var rules = constraints
        if scene == .session {
            rules.videos = .init(
                maxBytes: Limits.videoFileBytes, videoCodecs: ["h264"], audioCodecs: ["aac"], acceptsText: false,
                thumbnail: .init(maxBytes: Limits.thumbnailBytes, maxSize: PixelSize(width: 240, height: 240), format: .jpeg))
        }
        return rules
    }

    /// The request for prepared content: a link makes a web page card, a
    /// picture an image message, text alone a text message. Throws
    /// ``ShareKit/ShareError/invalidContent(_:)`` for anything over a limit, and for
    /// content that is none of these (text with a picture).
    public init(content: PreparedContent, scene: WeChatScene, transaction: String = UUID().uuidString) throws(ShareError) {
        // The rules every destination is checked by (what may go together,
        // counts, the URL, the text), then the byte caps on what adaptation made.
        var violations = Self.constraints(for: scene).violations(of: ShareContent(content))
        let thumbnail = content.thumbnail?.bytes
        if let thumbnail, thumbnail.count > Limits.thumbnailBytes {
            violations.append(.thumbnailUnavailable("it is \(thumbnail.count) bytes; WeChat takes at most \(Limits.thumbnailBytes)"))
        }
        let message: Message
        if let link = content.link {
            // The card's description is the link's summary, or the text.
            let description = link.summary ?? content.text
            for (field, limit) in [(link.title, Limits.titleBytes), (description, Limits.descriptionBytes)] {
                if let bytes = field?.utf8.count, bytes > limit { violations.append(.textTooLong(length: bytes, maxLength: limit)) }
            }
            message = .webpage(url: link.url.absoluteString, title: link.title, description: description, thumbnail: thumbnail)
        } else if let video = content.video {
            if video.byteCount > Limits.videoFileBytes { violations.append(.videoTooLarge(maxBytes: Limits.videoFileBytes)) }
            let thumbnail = video.thumbnail?.bytes
            if let thumbnail, thumbnail.count > Limits.thumbnailBytes {
                violations.append(.thumbnailUnavailable("it is \(thumbnail.count) bytes; WeChat takes at most \(Limits.thumbnailBytes)"))
            }
            message = .videoFile(path: video.path, thumbnail: thumbnail)
        } else if let image = content.images.first {
            if image.bytes.count > Limits.imageBytes { violations.append(.imageTooLarge(index: 0, maxBytes: Limits.imageBytes)) }
            message = .image(data: image.bytes, thumbnail: thumbnail)
        } else {
            message = .text(content.text ?? "")
        }
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.scene = scene
        self.message = message
        self.transaction = transaction
    }

    /// A request for a message the app built itself: any kind, checked
    /// against the scene (``WeChatMessageKind/acceptingScenes``) and every
    /// field's limit to the byte before anything is handed over. Throws
    /// ``ShareKit/ShareError/invalidContent(_:)`` naming each broken rule
    /// (``ShareKit/ConstraintViolation/kindNotAccepted(kind:destination:reason:)``,
    /// ``ShareKit/ConstraintViolation/fieldTooLarge(field:size:limit:unit:)``, …).
    ///
    /// ```swift
    /// let request = try WeChatSendRequest(.miniProgram(card), scene: .session)
    /// ```
    public init(_ message: Message, scene: WeChatScene, transaction: String = UUID().uuidString) throws(ShareError) {
        let kind = message.kind
        var violations: [ConstraintViolation] = []
        if !scene.accepts(kind) { violations.append(.kindNotAccepted(kind: kind.displayName, destination: scene.destination, reason: kind.refusal)) }
        violations += message.violations
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.scene = scene
        self.message = message
        self.transaction = transaction
    }

    /// What kind of message it is: `text`, `image`, `webpage`, `videoFile`,
    /// `miniProgram`, `music`, `musicVideo`, `video`, `file` or `emoticon`.
    public var kind: String { message.kind.rawValue }
}

extension WeChatSendRequest.Message {
    /// The message's kind.
    public var kind: WeChatMessageKind {
        switch self {
        case .text: .text
        case .image: .image
        case .webpage: .webpage
        case .videoFile: .videoFile
        case .miniProgram: .miniProgram
        case .music: .music
        case .musicVideo: .musicVideo
        case .video: .video
        case .file: .file
        case .emoticon: .emoticon
        }
    }

    /// Every limit of the SDK the message breaks.
    var violations: [ConstraintViolation] {
        switch self {
        case .text(let text):
            return WeChatMessageKind.text.limits[0].violations(size: text.utf8.count)
        case .image(let data, let thumbnail):
            return WeChatMessageKind.image.limits[0].violations(size: data.count)
                + WeChatCard(thumbnail: thumbnail).checkedFields().flatMap { $0.0.violations(size: $0.1) }
        case .webpage(let url, let title, let description, let thumbnail):
            let address = URL(string: url)
            return WeChatMessageKind.webpage.limits[0].violations(size: url.utf8.count)
                + (address == nil && !url.isEmpty
                    ? [.fieldInvalid(field: "WXWebpageObject.webpageUrl", reason: "not a URL")]
                    : WeChatFieldCheck.webURL(address, field: "WXWebpageObject.webpageUrl"))
                + WeChatCard(title: title, description: description, thumbnail: thumbnail).checkedFields().flatMap { $0.0.violations(size: $0.1) }
        case .videoFile(let path, let thumbnail):
            return WeChatMessageKind.videoFile.limits[0].violations(size: path.utf8.count)
                + WeChatCard(thumbnail: thumbnail).checkedFields().flatMap { $0.0.violations(size: $0.1) }
        case .miniProgram(let object): return object.violations
        case .music(let object): return object.violations
        case .musicVideo(let object): return object.violations
        case .video(let object): return object.violations
        case .file(let object): return object.violations
        case .emoticon(let object): return object.violations
        }
    }
}
