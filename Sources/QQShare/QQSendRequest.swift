public import Foundation
public import ShareKit

/// What a ``QQBridge`` hands to the QQ app: one message for one
/// destination, every field within the SDK's limits (``Limits``), checked
/// when the request is made.
///
/// ```swift
/// let request = try QQSendRequest(.news(url: URL(string: "https://example.com/p")!, card: QQCard(title: "日落")), to: .qzone)
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
    /// The message.
    public let message: Message
    /// An identifier for the hand-off: Android's `IUiListener` is per
    /// call, so an Android bridge returns it with the answer; iOS answers
    /// carry none.
    public let transaction: String

    /// The request, checked against the destination's kinds and every
    /// field's limit. Throws ``ShareKit/ShareError/invalidContent(_:)``
    /// naming each broken rule.
    public init(_ message: Message, to destination: QQDestination, transaction: String = UUID().uuidString) throws(ShareError) {
        var violations: [ConstraintViolation] = []
        let kind = message.kind
        if !destination.accepts(kind) {
            violations.append(.kindNotAccepted(kind: kind.displayName, destination: destination.destination, reason: kind.refusal))
        }
        violations += Self.violations(of: message)
        guard violations.isEmpty else { throw .invalidContent(violations) }
        self.destination = destination
        self.message = message
        self.transaction = transaction
    }

    /// The SDK object that carries the message to its destination.
    public var sdkObject: String { message.kind.sdkObject(for: destination) }

    /// The `cflag` the SDK's object carries.
    public var controlFlags: UInt64 { destination.controlFlags }

    private static let url = FieldLimit("QQApiURLObject.url", limit: Limits.urlCharacters, unit: .characters, isRequired: true)
    private static let streamURL = FieldLimit("QQApiAudioObject.flashURL", limit: Limits.urlCharacters, unit: .characters)
    private static let data = FieldLimit("QQApiExtendObject.data", limit: Limits.dataBytes, isRequired: true)

    /// Every limit `message` breaks.
    static func violations(of message: Message) -> [ConstraintViolation] {
        func link(_ address: URL, _ limit: FieldLimit) -> [ConstraintViolation] {
            limit.violations(text: address.absoluteString) + FieldLimit.webURLViolations(address, field: limit.field, app: "QQ")
        }
        func stream(_ address: URL?) -> [ConstraintViolation] {
            address.map { streamURL.violations(text: $0.absoluteString) + FieldLimit.webURLViolations($0, field: streamURL.field, app: "QQ") } ?? []
        }
        switch message {
        case .text(let text):
            return FieldLimit("QQApiTextObject.text", limit: Limits.textCharacters, unit: .characters, isRequired: true).violations(text: text)
        case .image(let bytes, let card):
            return data.violations(size: bytes.count) + card.violations
        case .images(let pictures, let text):
            var found: [ConstraintViolation] = []
            if pictures.isEmpty { found.append(.fieldRequired(field: "imageDataArray")) }
            if pictures.count > Limits.maxImages { found.append(.tooManyImages(count: pictures.count, maxCount: Limits.maxImages)) }
            for (index, picture) in pictures.enumerated() where picture.count > Limits.dataBytes {
                found.append(.imageTooLarge(index: index, maxBytes: Limits.dataBytes))
            }
            return found + FieldLimit("QQApiObject.title", limit: Limits.textCharacters, unit: .characters).violations(text: text)
        case .news(let address, let card):
            return link(address, url) + card.violations
        case .audio(let address, let streamAddress, let card), .videoLink(let address, let streamAddress, let card):
            return link(address, url) + stream(streamAddress) + card.violations
        case .videoFile(let path, let byteCount, let text):
            return FieldLimit("QQApiVideoForQZoneObject.videoData", limit: Limits.qzoneVideoBytes, isRequired: true).violations(size: byteCount)
                + (path.isEmpty ? [.fieldRequired(field: "QQApiVideoForQZoneObject.videoData")] : [])
                + FieldLimit("QQApiObject.title", limit: Limits.textCharacters, unit: .characters).violations(text: text)
        case .file(let bytes, let fileName, let card):
            return data.violations(size: bytes.count) + FieldLimit("QQApiFileObject.fileName", limit: 255, isRequired: true).violations(text: fileName)
                + (fileName.contains("/") ? [.fieldInvalid(field: "QQApiFileObject.fileName", reason: "a name, not a path")] : []) + card.violations
        case .miniProgram(let appID, let path, let webpageURL, _, let card):
            return FieldLimit("QQApiMiniProgramObject.miniAppID", limit: nil, isRequired: true).violations(text: appID)
                + FieldLimit("QQApiMiniProgramObject.miniPath", limit: nil, isRequired: true).violations(text: path)
                + link(webpageURL, FieldLimit("QQApiMiniProgramObject.webpageUrl", limit: Limits.urlCharacters, unit: .characters, isRequired: true))
                + card.violations
        }
    }
}
