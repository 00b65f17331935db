import Foundation
public import ImageCodecs
public import ShareKit
import Synchronization
import SystemSupport

/// The ``ShareKit/ContentAdapter`` that reads and writes pictures and
/// videos: images re-encoded to an accepted format and quality-searched
/// under the byte cap (downscaled when even low quality is too large), a
/// thumbnail made under its cap, a video remuxed under the metadata policy
/// or transcoded to the destination's codecs and cap, text and links
/// fitted as ``ShareKit/TextContentAdapter`` fits them. What cannot be fixed
/// is reported, every violation at once.
///
/// Give it to the center in one line (`ShareCenter(adapter: .media)`), or
/// tuned:
///
/// ```swift
/// let adapter = MediaContentAdapter(minimumQuality: 60, registry: myRegistry)   // formats you registered, kept sharper
/// let center = ShareCenter(credentials: store, adapter: adapter)
/// ```
///
/// Preparing decodes and encodes: blocking CPU work, which runs on
/// ImageCodecs' worker threads (``ImageCodecs/ImageWorkers``), never on
/// Swift's cooperative pool or an actor.
public struct MediaContentAdapter: ContentAdapter {
    /// The lowest JPEG/WebP quality the byte-cap search tries before
    /// downscaling instead.
    public var minimumQuality: Int
    /// The quality tried first.
    public var preferredQuality: Int
    /// The codecs that read and write images (an app's own codecs work for
    /// sharing once registered there).
    public var registry: ImageCodecRegistry
    /// Where prepared videos are written (a folder of the adapter's own,
    /// made 0700; ``defaultWorkFolder`` when `nil` is given); each file is
    /// removed when its prepared content goes.
    public var workFolder: String

    /// Creates an adapter.
    public init(
        minimumQuality: Int = 40, preferredQuality: Int = 90, registry: ImageCodecRegistry = .shared, workFolder: String? = nil
    ) {
        self.minimumQuality = minimumQuality
        self.preferredQuality = preferredQuality
        self.registry = registry
        self.workFolder = workFolder ?? Self.defaultWorkFolder
    }

    /// `photodeck-share-<uid>` in the temporary folder: the user's own.
    public static var defaultWorkFolder: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-share-\(FileSystem.userID)").path
    }

    /// The content, prepared on ImageCodecs' worker threads; or
    /// ``ShareKit/ShareError/invalidContent(_:)`` listing every violation
    /// adaptation cannot fix (those of
    /// ``ShareKit/ShareConstraints/violations(of:)``, then unreadable images
    /// and videos and byte caps that cannot be met). A cancelled task stops
    /// a video's conversion between packets.
    public func prepare(
        _ content: ShareContent, for constraints: ShareConstraints, progress: (@Sendable (Double) -> Void)?
    ) async throws(ShareError) -> PreparedContent {
        let stop = Atomic<Bool>(false)
        let result = await withTaskCancellationHandler {
            await ImageWorkers.shared.run { () -> Result<PreparedContent, ShareError> in
                Result { () throws(ShareError) -> PreparedContent in
                    try adapt(content, for: constraints, progress: progress, isCancelled: { stop.load(ordering: .relaxed) })
                }
            }
        } onCancel: {
            stop.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    /// The work of ``prepare(_:for:progress:)``, on the calling thread
    /// (which it blocks).
    func adapt(
        _ content: ShareContent, for constraints: ShareConstraints, progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?
    ) throws(ShareError) -> PreparedContent {
        var violations = constraints.violations(of: content)
        var encodes = 0
        let fitted = constraints.fittingTextAndLink(of: content)
        var adjustments = fitted.adjustments

        // The images, when the rules allow them at all.
        var images: [PreparedContent.Image] = []
        if let rule = constraints.images, !content.images.isEmpty, content.images.count <= rule.maxCount {
            let box = rule.maxDimension.map { PixelSize(width: $0, height: $0) }
            let policy = content.metadata.narrowed(by: rule.metadata)
            for (index, image) in content.images.enumerated() {
                switch fit(image, formats: rule.formats, maxBytes: rule.maxBytes, box: box, policy: policy, encodes: &encodes) {
                case .success(let (prepared, change)):
                    switch change {
                    case .none: break
                    case .rewritten: break
                    case .rotated(let orientation):
                        adjustments.append("turned image \(index + 1) upright losslessly (EXIF orientation \(orientation.rawValue))")
                    case .reencoded:
                        adjustments.append("re-encoded image \(index + 1) as \(prepared.format) \(prepared.size), \(prepared.bytes.count) bytes")
                    }
                    if !prepared.removedMetadata.isEmpty {
                        adjustments.append("removed \(prepared.removedMetadata.sorted().map(\.description).joined(separator: ", ")) from image \(index + 1)")
                    }
                    images.append(prepared)
                case .failure(.unreadable(let error)): violations.append(.unreadableImage(index: index, error))
                case .failure(.tooLarge): violations.append(.imageTooLarge(index: index, maxBytes: rule.maxBytes))
                case .failure(.noWritableFormat): violations.append(.noWritableFormat(rule.formats))
                case .failure(.codec(let error)): throw .adaptationFailed(UnderlyingError(error, context: "image \(index + 1)"))
                }
            }
        }

        // The video's first frame, decoded once for whichever pictures want it:
        // the one sent with the video, and the share's thumbnail when there is no other picture.
        let wantsPoster =
            constraints.videos?.thumbnail != nil || (constraints.thumbnail != nil && content.link?.thumbnail == nil && content.images.isEmpty)
        let poster = wantsPoster && violations.isEmpty ? content.video.flatMap(posterImage) : nil

        // The video: remuxed under the policy, or transcoded to the rules.
        var video: PreparedContent.Video?
        if let rule = constraints.videos, let source = content.video, violations.isEmpty {
            let policy = content.metadata.narrowed(by: rule.metadata)
            switch fitVideo(source, rule: rule, policy: policy, progress: progress, isCancelled: isCancelled) {
            case .success(var prepared):
                let how = prepared.isTranscoded ? "transcoded" : "remuxed"
                if let picture = rule.thumbnail {
                    // The picture sent with the video: its first frame, as a picture message's thumbnail is made.
                    switch poster.map({
                        fit(
                            $0, formats: [picture.format], maxBytes: picture.maxBytes, box: picture.maxSize, policy: .thumbnail, forceEncode: true,
                            encodes: &encodes)
                    }) {
                    case .success(let (image, _))?: prepared = prepared.with(thumbnail: image)
                    default: violations.append(.thumbnailUnavailable("the video's first frame cannot be made into a \(picture.maxBytes)-byte picture"))
                    }
                }
                adjustments.append("\(how) the video to \(prepared.codecs.joined(separator: "/")) MP4 \(prepared.size), \(prepared.byteCount) bytes")
                if !prepared.removedMetadata.isEmpty {
                    adjustments.append("removed \(prepared.removedMetadata.sorted().map(\.description).joined(separator: ", ")) from the video")
                }
                if !prepared.removedStreams.isEmpty { adjustments.append("left out the video's \(prepared.removedStreams.joined(separator: ", ")) tracks") }
                video = prepared
            case .failure(.unreadable(let reason)): violations.append(.unreadableVideo(reason))
            case .failure(.tooLong(let seconds, let maxSeconds)): violations.append(.videoTooLong(seconds: seconds, maxSeconds: maxSeconds))
            case .failure(.tooLarge): violations.append(.videoTooLarge(maxBytes: rule.maxBytes))
            case .failure(.cancelled): throw .cancelled
            case .failure(.failed(let error)): throw .adaptationFailed(UnderlyingError(error, context: "the video"))
            }
        }

        // The thumbnail, from the link's picture, the first image, or the video's first frame.
        var thumbnail: PreparedContent.Image?
        if let rule = constraints.thumbnail, let source = content.link?.thumbnail ?? content.images.first ?? (content.images.isEmpty ? poster : nil) {
            let policy = content.metadata.narrowed(by: rule.metadata)
            switch fit(
                source, formats: [rule.format], maxBytes: rule.maxBytes, box: rule.maxSize, crop: content.link == nil ? nil : rule.crop,
                policy: policy, forceEncode: true, encodes: &encodes)
            {
            case .success(let (prepared, _)): thumbnail = prepared
            case .failure(.unreadable(let error)):
                // An unreadable first image is reported once, as an image.
                if content.link?.thumbnail != nil || content.images.isEmpty { violations.append(.thumbnailUnavailable("\(error)")) }
            case .failure(.tooLarge): violations.append(.thumbnailUnavailable("it cannot be made smaller than \(rule.maxBytes) bytes"))
            case .failure(.noWritableFormat): violations.append(.thumbnailUnavailable("\(rule.format) cannot be written"))
            case .failure(.codec(let error)): throw .adaptationFailed(UnderlyingError(error, context: "the thumbnail"))
            }
        }

        guard violations.isEmpty else { throw .invalidContent(violations) }
        return PreparedContent(
            text: fitted.text, images: images, link: fitted.link, thumbnail: thumbnail, adjustments: adjustments, encodeCount: encodes, video: video,
            inReplyTo: content.inReplyTo)
    }
}

extension ContentAdapter where Self == MediaContentAdapter {
    /// A ``ShareMedia/MediaContentAdapter`` with its defaults: ImageCodecs'
    /// shared registry, qualities 90 down to 40, prepared videos in
    /// ``ShareMedia/MediaContentAdapter/defaultWorkFolder``.
    public static var media: MediaContentAdapter { MediaContentAdapter() }
}
