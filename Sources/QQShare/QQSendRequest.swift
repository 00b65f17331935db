public import Foundation
public import ShareKit

/// What a ``QQBridge`` hands to the QQ app: one message for one
/// destination, every field within the SDK's limits (``Limits``), checked
/// when the request is made.
///
/// ```swift
/// let request = try QQSendRequest(.news(url: URL(string: "https://example.com/p")!, card: QQCard(title: "日落")), to: .qzone, platform: .iOS)
/// ```
public struct QQSendRequest: Hashable, Sendable {
    /// The SDK's limits (`QQApiInterfaceObject.h`). Text is counted in
    /// characters as `NSString` counts them (UTF-16 code units).
    public enum Limits {
        /// `QQApiObject.title`: 128 characters.
        public static let titleCharacters = 128
        /// `QQApiObject.description`: 512 characters.
        public static let descriptionCharacters = 512
        /// `QQApiTextObject.text`: 1,536 characters.
        public static let textCharacters = 1_536
        /// `QQApiURLObject.url` and `QQApiAudioObject.flashURL`: 512 characters.
        public static let urlCharacters = 512
        /// `previewImageData`: 1 MB.
        public static let previewImageBytes = 1_024 * 1_024
        /// `QQApiExtendObject.data` (a picture, a file): 5 MB.
        public static let dataBytes = 5 * 1_024 * 1_024
        /// `QQApiVideoForQZoneObject.videoData`: 50 MB.
        public static let qzoneVideoBytes = 50 * 1_024 * 1_024
        /// Pictures in one Qzone mood or one Favorites entry (QQ's Qzone
        /// composer takes nine; the SDK states no count).
        public static let maxImages = 9
    }

    /// A QQ mini program's build (`MiniProgramType`).
    public enum MiniProgramBuild: Int, Hashable, Sendable, CaseIterable {
        /// The development build (`MiniProgramType_Develop`).
        case develop = 0
        /// The test build (`MiniProgramType_Test`).
        case test = 1
        /// The released program, the default (`MiniProgramType_Online`).
        case online = 3
        /// The preview build (`MiniProgramType_Preview`).
        case preview = 4
    }

    /// The message.
    public enum Message: Hashable, Sendable {
        /// Text: `QQApiTextObject.text`, or a Qzone mood's text.
        case text(String)
        /// One picture: `QQApiImageObject.data` with its card.
        case image(data: [UInt8], card: QQCard)
        /// Several pictures (Favorites' `imageDataArray`, a Qzone mood's
        /// `imageDataArray`) and, for Qzone, the mood's text (`title`).
        case images([[UInt8]], text: String?)
        /// A link card (`QQApiNewsObject`).
        case news(url: URL, card: QQCard)
        /// An audio card (`QQApiAudioObject`): the page and the stream (`flashURL`).
        case audio(url: URL, streamURL: URL?, card: QQCard)
        /// A video by its page (`QQApiVideoObject`): the page and the stream (`flashURL`).
        case videoLink(url: URL, streamURL: URL?, card: QQCard)
        /// A video file for Qzone (`QQApiVideoForQZoneObject.videoData`,
        /// read from `path`), with the mood's text.
        case videoFile(path: String, byteCount: Int, text: String?)
        /// A file for the dataline (`QQApiFileObject`: `data`, `fileName`).
        case file(data: [UInt8], fileName: String, card: QQCard)
        /// A QQ mini program card (`QQApiMiniProgramObject`): its AppId
        /// (bound to the app on QQ Connect), its page, the page older QQ opens.
        case miniProgram(appID: String, path: String, webpageURL: URL, build: MiniProgramBuild, card: QQCard)

        /// The message's kind.
        public var kind: QQMessageKind {
            switch self {
            case .text: .text
            case .image: .image
            case .images: .images
            case .news: .news
            case .audio: .audio
            case .videoLink: .videoLink
            case .videoFile: .videoFile
            case .file: .file
            case .miniProgram: .miniProgram
            }
        }
    }

    /// Where it goes.
    public let destination: QQDestination
    /// The platform whose SDK it was checked against (the bridge's).
    public let platform: AppPlatform
    /// The message.
    public let message: Message
    /// An identifier for the hand-off: Android's `IUiListener` is per
    /// call, so an Android bridge returns it with the answer; iOS answers
    /// carry none.
    public let transaction: String

    /// The request, checked against the destination's kinds on `platform`
    /// and every field's limit. Throws ``ShareKit/ShareError/invalidContent(_:)``
    /// naming each broken rule.
    public init(_ message: Message, to destination: QQDestination, platform: AppPlatform, transaction: String = UUID().uuidString) throws(ShareError) {
        var violations: [ConstraintViolation] = []
        let kind = message.kind
        if !destination.accepts(kind, on: platform) {
            violations.append(.kindNotAccepted(kind: kind.displayName, destination: destination.destination, reason: kind.refusal(on: platform)))
        }
        violations += Self.violations(of: message, to: destination)
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.destination = destination
        self.platform = platform
        self.message = message
        self.transaction = transaction
    }

    /// The SDK object that carries the message to its destination.
    public var sdkObject: String { message.kind.sdkObject(for: destination) }

    /// The `cflag` the SDK's object carries.
    public var controlFlags: UInt64 { destination.controlFlags }

    /// `QQApiTextObject.text`: 1,536 characters, required.
    static let text = FieldLimit("QQApiTextObject.text", limit: Limits.textCharacters, unit: .characters, isRequired: true)
    /// A Qzone mood's text: `QQApiImageArrayForQZoneObject`'s `title`, which
    /// the header caps as every `QQApiObject.title`: 128 characters.
    static let moodText = FieldLimit("QQApiImageArrayForQZoneObject.title", limit: Limits.titleCharacters, unit: .characters)
    static let url = FieldLimit("QQApiURLObject.url", limit: Limits.urlCharacters, unit: .characters, isRequired: true)
    static let streamURL = FieldLimit("QQApiAudioObject.flashURL", limit: Limits.urlCharacters, unit: .characters)
    static let data = FieldLimit("QQApiExtendObject.data", limit: Limits.dataBytes, isRequired: true)
    static let moodPicture = FieldLimit("QQApiImageArrayForQZoneObject.imageDataArray[]", limit: Limits.dataBytes, isRequired: true)
    static let videoData = FieldLimit("QQApiVideoForQZoneObject.videoData", limit: Limits.qzoneVideoBytes, isRequired: true)
    /// A file's name: 255 bytes, the longest name the systems QQ runs on keep (the SDK states none).
    static let fileName = FieldLimit("QQApiFileObject.fileName", limit: 255, isRequired: true)
    static let miniAppID = FieldLimit("QQApiMiniProgramObject.miniAppID", limit: nil, isRequired: true)
    static let miniPath = FieldLimit("QQApiMiniProgramObject.miniPath", limit: nil, isRequired: true)
    static let miniWebpageURL = FieldLimit("QQApiMiniProgramObject.webpageUrl", limit: Limits.urlCharacters, unit: .characters, isRequired: true)

    /// The fields `kind` fills going to `destination`, with the SDK's cap
    /// on each: what ``init(_:to:platform:transaction:)`` checks, as data.
    public static func limits(of kind: QQMessageKind, to destination: QQDestination) -> [FieldLimit] {
        switch kind {
        case .text: destination == .qzone ? [moodText] : [text]
        case .image: destination == .qzone ? [moodPicture, moodText] : [data] + QQCard.limits
        case .images: [moodPicture, moodText]
        case .news: [url] + QQCard.limits
        case .audio, .videoLink: [url, streamURL] + QQCard.limits
        case .videoFile: [videoData, moodText]
        case .file: [data, fileName] + QQCard.limits
        case .miniProgram: [miniAppID, miniPath, miniWebpageURL] + QQCard.limits
        }
    }

    /// Every limit `message` breaks going to `destination`.
    static func violations(of message: Message, to destination: QQDestination) -> [ConstraintViolation] {
        func link(_ address: URL, _ limit: FieldLimit) -> [ConstraintViolation] {
            limit.violations(text: address.absoluteString) + FieldLimit.webURLViolations(address, field: limit.field, app: "QQ")
        }
        func stream(_ address: URL?) -> [ConstraintViolation] {
            address.map { streamURL.violations(text: $0.absoluteString) + FieldLimit.webURLViolations($0, field: streamURL.field, app: "QQ") } ?? []
        }
        switch message {
        case .text(let words):
            return destination == .qzone
                ? moodText.violations(text: words) + (words.isEmpty ? [.fieldRequired(field: moodText.field)] : []) : text.violations(text: words)
        case .image(let bytes, let card):
            return destination == .qzone ? moodPicture.violations(size: bytes.count) : data.violations(size: bytes.count) + card.violations
        case .images(let pictures, let words):
            var found: [ConstraintViolation] = []
            if pictures.isEmpty { found.append(.fieldRequired(field: "QQApiImageArrayForQZoneObject.imageDataArray")) }
            if pictures.count > Limits.maxImages { found.append(.tooManyImages(count: pictures.count, maxCount: Limits.maxImages)) }
            for (index, picture) in pictures.enumerated() where picture.count > Limits.dataBytes {
                found.append(.imageTooLarge(index: index, maxBytes: Limits.dataBytes))
            }
            return found + moodText.violations(text: words)
        case .news(let address, let card):
            return link(address, url) + card.violations
        case .audio(let address, let streamAddress, let card), .videoLink(let address, let streamAddress, let card):
            return link(address, url) + stream(streamAddress) + card.violations
        case .videoFile(let path, let byteCount, let words):
            return videoData.violations(size: path.isEmpty ? nil : byteCount) + moodText.violations(text: words)
        case .file(let bytes, let name, let card):
            return data.violations(size: bytes.count) + fileName.violations(text: name)
                + (name.contains("/") ? [.fieldInvalid(field: fileName.field, reason: "a name, not a path")] : []) + card.violations
        case .miniProgram(let appID, let path, let webpageURL, _, let card):
            return miniAppID.violations(text: appID) + miniPath.violations(text: path) + link(webpageURL, miniWebpageURL) + card.violations
        }
    }
}
