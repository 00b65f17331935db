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
/// (`bText`), or a media message (`WXMediaMessage`) holding one object, for
/// one scene, on one platform. A ``WeChatBridge`` turns it into the SDK's
/// request object.
///
/// Every field is within the SDK's limits on the request's platform
/// (``WeChatRules``): a request is only ever built through
/// ``init(content:scene:platform:transaction:)`` or
/// ``init(_:scene:platform:transaction:)``, which check them to the byte
/// (or, on Android, to the UTF-16 code unit).
public struct WeChatSendRequest: Hashable, Sendable {
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
    /// The platform whose rules it was checked against (the bridge's).
    public let platform: AppPlatform
    /// Whether the message's data (a picture, a file, a sticker) is larger
    /// than the platform hands over inline (``WeChatRules/inlineDataBytes``):
    /// an Android bridge then writes it to a file it shares through its
    /// `FileProvider` and sets the object's path (`imagePath`, `filePath`,
    /// `emojiPath`) instead of its data, as WeChat's Android guide says.
    public let dataGoesAsFile: Bool
    /// The message.
    public let message: Message
    /// An identifier the bridge passes as the request's `transaction` (the
    /// Android SDK returns it in the response); matches the response to
    /// the request.
    public let transaction: String

    /// The SDK's limits on `platform` as ShareKit rules, for `scene`: one
    /// picture without text, a link as a web page card (never with
    /// pictures), text counted as the platform's SDK counts it (UTF-8 bytes
    /// on iOS, UTF-16 code units on Android). A card's thumbnail is a
    /// 240x240 square cropped by ``ImageCore/CropStrategy/attention``
    /// (WeChat shows it square, so a wider picture would lose its sides
    /// wherever the subject is). On Android, in a chat (the only scene
    /// `WXVideoFileObject` goes to), a video file too: H.264 and AAC in MP4
    /// up to 100 MB, with a thumbnail of its first frame; iOS's SDK has no
    /// such object.
    public static func constraints(for scene: WeChatScene, on platform: AppPlatform) -> ShareConstraints {
        let rules = WeChatRules.on(platform)
        let counting: TextCounting = rules.text.unit == .bytes ? .utf8Bytes : .utf16
        let thumbnail = ShareConstraints.Thumbnail(
            maxBytes: rules.thumbnail.limit ?? 32 * 1_024, maxSize: PixelSize(width: 240, height: 240), format: .jpeg, crop: .attention)
        var constraints = ShareConstraints(
            text: .init(maxLength: rules.text.limit ?? 10_240, counting: counting),
            images: .init(maxCount: 1, maxBytes: rules.image.limit ?? 10 << 20, formats: [.jpeg, .png], acceptsText: false), thumbnail: thumbnail,
            links: .object(maxTitleLength: rules.title.limit ?? 512, maxSummaryLength: rules.description.limit ?? 1_024), allowsMixedContent: false,
            linkCounting: counting, maxLinkBytes: rules.webpageURL.limit)
        if scene == .session, let videoFile = rules.videoFile {
            constraints.videos = .init(
                maxBytes: videoFile.limit ?? 100 << 20, videoCodecs: ["h264"], audioCodecs: ["aac"], acceptsText: false,
                thumbnail: .init(maxBytes: rules.thumbnail.limit ?? 32 * 1_024, maxSize: PixelSize(width: 240, height: 240), format: .jpeg))
        }
        return constraints
    }

    /// The request for prepared content on `platform`: a link makes a web
    /// page card, a picture an image message, a video file a video message
    /// (Android), text alone a text message. Throws
    /// ``ShareKit/ShareError/invalidContent(_:)`` for anything over a limit,
    /// and for content that is none of these (text with a picture).
    public init(content: PreparedContent, scene: WeChatScene, platform: AppPlatform, transaction: String = UUID().uuidString) throws(ShareError) {
        let rules = WeChatRules.on(platform)
        // The rules every destination is checked by (what may go together,
        // counts, the URL, the text), then the caps on what adaptation made.
        var violations = Self.constraints(for: scene, on: platform).violations(of: ShareContent(content))
        let thumbnailCap = rules.thumbnail.limit ?? .max
        func thumbnailProblem(_ bytes: [UInt8]?) -> [ConstraintViolation] {
            guard let bytes, bytes.count > thumbnailCap else { return [] }
            return [.thumbnailUnavailable("it is \(bytes.count) bytes; WeChat takes at most \(thumbnailCap)")]
        }
        let thumbnail = content.thumbnail?.bytes
        violations += thumbnailProblem(thumbnail)
        let message: Message
        var data = 0
        if let link = content.link {
            // The card's description is the link's summary, or the text.
            let description = link.summary ?? content.text
            for (field, limit) in [(link.title, rules.title), (description, rules.description)] {
                if let size = limit.size(of: field), let cap = limit.limit, size > cap { violations.append(.textTooLong(length: size, maxLength: cap)) }
            }
            message = .webpage(url: link.url.absoluteString, title: link.title, description: description, thumbnail: thumbnail)
        } else if let video = content.video {
            if let videoFile = rules.videoFile, video.byteCount > videoFile.limit ?? .max {
                violations.append(.videoTooLarge(maxBytes: videoFile.limit ?? .max))
            }
            if rules.videoFile == nil {
                violations.append(
                    .kindNotAccepted(
                        kind: WeChatMessageKind.videoFile.displayName, destination: scene.destination, reason: WeChatMessageKind.videoFile.refusal(on: platform)
                    ))
            }
            violations += thumbnailProblem(video.thumbnail?.bytes)
            message = .videoFile(path: video.path, thumbnail: video.thumbnail?.bytes)
        } else if let image = content.images.first {
            if image.bytes.count > rules.image.limit ?? .max { violations.append(.imageTooLarge(index: 0, maxBytes: rules.image.limit ?? .max)) }
            data = image.bytes.count
            message = .image(data: image.bytes, thumbnail: thumbnail)
        } else {
            message = .text(content.text ?? "")
        }
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.scene = scene
        self.platform = platform
        self.message = message
        self.transaction = transaction
        dataGoesAsFile = rules.inlineDataBytes.map { data > $0 } ?? false
    }

    /// A request for a message the app built itself: any kind, checked
    /// against the scene (``WeChatMessageKind/acceptingScenes(on:)``) and
    /// every field's limit on `platform` before anything is handed over.
    /// Throws ``ShareKit/ShareError/invalidContent(_:)`` naming each broken rule
    /// (``ShareKit/ConstraintViolation/kindNotAccepted(kind:destination:reason:)``,
    /// ``ShareKit/ConstraintViolation/fieldTooLarge(field:size:limit:unit:)``, …).
    ///
    /// ```swift
    /// let request = try WeChatSendRequest(.miniProgram(card), scene: .session, platform: .iOS)
    /// ```
    public init(_ message: Message, scene: WeChatScene, platform: AppPlatform, transaction: String = UUID().uuidString) throws(ShareError) {
        let kind = message.kind
        let rules = WeChatRules.on(platform)
        var violations: [ConstraintViolation] = []
        if !scene.accepts(kind, on: platform) {
            violations.append(.kindNotAccepted(kind: kind.displayName, destination: scene.destination, reason: kind.refusal(on: platform)))
        }
        violations += message.violations(on: rules)
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.scene = scene
        self.platform = platform
        self.message = message
        self.transaction = transaction
        dataGoesAsFile = rules.inlineDataBytes.map { message.dataSize > $0 } ?? false
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

    /// The bytes of data the message carries inline: a picture, a file, a sticker.
    var dataSize: Int {
        switch self {
        case .image(let data, _): data.count
        case .file(let object): object.data.count
        case .emoticon(let object): object.data.count
        default: 0
        }
    }

    /// Every limit of the SDK the message breaks on `rules`' platform.
    func violations(on rules: WeChatRules) -> [ConstraintViolation] {
        func card(_ card: WeChatCard) -> [ConstraintViolation] {
            card.checkedFields(on: rules).flatMap { limit, value in limit.violations(size: value.size(under: limit)) }
        }
        switch self {
        case .text(let text):
            return rules.text.violations(text: text)
        case .image(let data, let thumbnail):
            return rules.image.violations(size: data.count) + card(WeChatCard(thumbnail: thumbnail))
        case .webpage(let url, let title, let description, let thumbnail):
            let address = URL(string: url)
            return rules.webpageURL.violations(text: url)
                + (address == nil && !url.isEmpty
                    ? [.fieldInvalid(field: rules.webpageURL.field, reason: "not a URL")] : WeChatFieldCheck.webURL(address, field: rules.webpageURL.field))
                + card(WeChatCard(title: title, description: description, thumbnail: thumbnail))
        case .videoFile(let path, let thumbnail):
            guard let videoFile = rules.videoFile else { return [] }
            return (path.isEmpty ? [.fieldRequired(field: videoFile.field)] : []) + card(WeChatCard(thumbnail: thumbnail))
        case .miniProgram(let object): return object.violations(on: rules)
        case .music(let object): return object.violations(on: rules)
        case .musicVideo(let object): return object.violations(on: rules)
        case .video(let object): return object.violations(on: rules)
        case .file(let object): return object.violations(on: rules)
        case .emoticon(let object): return object.violations(on: rules)
        }
    }
}
