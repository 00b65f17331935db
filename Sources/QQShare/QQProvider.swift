import Foundation
import ImageCore
public import ShareKit

/// QQ as a photo app shares to it: the content is handed to the QQ app on
/// the device, through a ``QQBridge`` the host implements with Tencent's
/// SDK, for a chat (``ShareKit/ShareDestination/session``), Qzone
/// (``ShareKit/ShareDestination/timeline``), QQ's Favorites
/// (``ShareKit/ShareDestination/favorites``) or "My Computer"
/// (``QQDestination/datalineDestination``).
///
/// ```swift
/// let qq = QQProvider(bridge: myQQBridge)
/// await center.register(qq)
/// let outcome = try await qq.send(.news(url: pageURL, card: QQCard(title: "日落")), to: .timeline)
/// ```
///
/// Content from a ``ShareKit/ShareCenter`` becomes text, one picture (a
/// mood with up to nine in Qzone, an entry with several in Favorites), a
/// link card, or in Qzone a video; ``send(_:to:)`` sends what the app
/// builds itself (audio, a video link, a file, a mini program). Each
/// destination's kinds and every field's limit are checked before QQ
/// opens (``QQMessageKind``, ``QQSendRequest/Limits``).
///
/// ## Outcomes
/// QQ answers "0" when the user sent the message, so that is
/// ``ShareKit/ShareOutcome/posted(_:)`` (without a post id); "-4" is
/// ``ShareKit/ShareError/cancelled``. A user who stays in QQ never
/// answers: after ``responseTimeout`` the outcome is
/// ``ShareKit/ShareOutcome/outcomeUnknown(reason:)``. Answers are tied
/// to their hand-off as WeChat's are: an iOS answer while an earlier
/// hand-off is still unanswered could be either's, so the waiting share
/// ends "outcome unknown".
public struct QQProvider: ShareProvider {
    /// The provider's identifier, `"qq"`.
    public static let id: ProviderID = "qq"

    /// The bridge to the QQ app, if the host has one.
    public let bridge: (any QQBridge)?
    private let handOffs: AppHandOff<QQResponse>

    public var id: ProviderID { Self.id }
    /// The platform whose SDK rules apply: the bridge's (iOS's without a
    /// bridge, when nothing can be shared anyway).
    public var platform: AppPlatform { bridge?.platform ?? .iOS }
    public var displayName: String { "QQ" }
    public var destinations: [ShareDestination] { QQDestination.allCases.map(\.destination) }
    public var requiresCredential: Bool { false }
    /// How long to wait for QQ's answer after the hand-off.
    public var responseTimeout: Duration { handOffs.responseTimeout }

    /// Creates the provider; `clock` times the wait for QQ's answer, `log`
    /// hears of answers dropped because their hand-off stopped waiting.
    public init(
        bridge: (any QQBridge)?, responseTimeout: Duration = .seconds(600), clock: any ServiceClock = SystemClock(),
        log: any ServiceLogHandler = SilentServiceLog()
    ) {
        self.bridge = bridge
        handOffs = AppHandOff(
            provider: Self.id, appName: "QQ",
            missingBridge: "no QQ bridge: sharing to the QQ app needs the host app's QQBridge (Tencent's SDK on iOS or Android)",
            responseTimeout: responseTimeout, clock: clock, log: log)
    }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        QQDestination(destination).map(Self.constraints(for:))
    }

    /// The rules content from a share center meets for `destination`:
    /// counted in UTF-16 characters as the SDK counts them (1,536, or 128
    /// for a Qzone mood); one picture of
    /// 5 MB (up to nine in Qzone and Favorites); a link as a card with a
    /// preview under 1 MB; in Qzone a video up to 50 MB.
    public static func constraints(for destination: QQDestination) -> ShareConstraints {
        let many = destination == .qzone || destination == .favorites
        var rules = ShareConstraints(
            // Qzone takes text as a mood, whose text the SDK caps as a title.
            text: .init(maxLength: destination == .qzone ? QQSendRequest.Limits.titleCharacters : QQSendRequest.Limits.textCharacters, counting: .utf16),
            images: .init(maxCount: many ? QQSendRequest.Limits.maxImages : 1, maxBytes: QQSendRequest.Limits.dataBytes, acceptsText: destination == .qzone),
            thumbnail: .init(maxBytes: QQSendRequest.Limits.previewImageBytes, maxSize: PixelSize(width: 512, height: 512)),
            links: .object(maxTitleLength: QQSendRequest.Limits.titleCharacters, maxSummaryLength: QQSendRequest.Limits.descriptionCharacters),
            allowsMixedContent: false, linkCounting: .utf16)
        if destination == .qzone {
            rules.videos = .init(maxBytes: QQSendRequest.Limits.qzoneVideoBytes, videoCodecs: ["h264"], audioCodecs: ["aac"], acceptsText: true)
        }
        return rules
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        handOffs.availability(await bridge?.status())
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        let target = try qqDestination(destination)
        return try await handOff(QQSendRequest(try Self.message(for: content, to: target), to: target, platform: platform))
    }

    /// Sends a message the app built (audio, a video link, a file, a mini
    /// program, or any other kind) to `destination`, with the same checks,
    /// hand-off and outcomes as ``share(_:to:credential:)``.
    public func send(_ message: QQSendRequest.Message, to destination: ShareDestination) async throws(ShareError) -> ShareOutcome {
        try await handOff(QQSendRequest(message, to: try qqDestination(destination), platform: platform))
    }

    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 { 0 }

    private func qqDestination(_ destination: ShareDestination) throws(ShareError) -> QQDestination {
        guard let found = QQDestination(destination) else { throw handOffs.unknownTarget(destination, displayName: displayName) }
        return found
    }

    /// The message prepared content makes for `destination`.
    static func message(for content: PreparedContent, to destination: QQDestination) throws(ShareError) -> QQSendRequest.Message {
        let preview = content.thumbnail?.bytes
        if let link = content.link {
            return .news(url: link.url, card: QQCard(title: link.title, summary: link.summary ?? content.text, previewImage: preview))
        }
        if let video = content.video {
            guard destination == .qzone else { throw .invalidContent([.videoNotAccepted]) }
            return .videoFile(path: video.path, byteCount: video.byteCount, text: content.text)
        }
        if content.images.count > 1 || (destination == .qzone && !content.images.isEmpty) {
            return .images(content.images.map(\.bytes), text: content.text)
        }
        if let image = content.images.first { return .image(data: image.bytes, card: QQCard(previewImage: preview)) }
        // To Qzone, text alone travels as a mood without pictures (the bridge sends ``QQMessageKind/sdkObject(for:)``).
        return .text(content.text ?? "")
    }

    /// Hands `request` to QQ and waits for its answer.
    private func handOff(_ request: QQSendRequest) async throws(ShareError) -> ShareOutcome {
        let app = try handOffs.required(bridge)
        return try await handOffs.handOff(transaction: request.transaction, status: await app.status(), subscribe: app.responses) {
            () throws(ShareError) in
            let result = await app.handOff(request)
            guard result.isSent else {
                switch result.code {
                case 3, 4, 5, 9, 10, 13, 10000, 10001: throw .rejected(reason: "QQ did not take the hand-off: \(result)")
                default: throw .unavailable(reason: "QQ did not take the hand-off: \(result)")
                }
            }
        }
    }
}
