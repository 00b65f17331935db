import Foundation
public import ImageCodecs
import SystemSupport

/// Fits content to a destination's ``ShareConstraints`` before any provider
/// sees it: images re-encoded to an accepted format and quality-searched
/// under the byte cap (downscaled when even low quality is too large), a
/// thumbnail made under its cap, text counted and trimmed the provider's
/// way (or refused, under ``TextOverflow/refuse``), a link moved into the
/// text when the destination takes no link object. What cannot be fixed is
/// reported, every violation at once.
///
/// Preparing decodes and encodes images: it is blocking CPU work, and
/// ``ShareCenter`` runs it on ImageCodecs' worker threads, never on an actor.
public struct ContentAdapter: Sendable {
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

    /// The content, prepared; or ``ShareError/invalidContent(_:)`` listing
    /// every violation adaptation cannot fix (those of
    /// ``ShareConstraints/violations(of:)``, then unreadable images and byte
    /// caps that cannot be met).
    public func prepare(_ content: ShareContent, for constraints: ShareConstraints) throws(ShareError) -> PreparedContent {
        try prepare(content, for: constraints, progress: nil, isCancelled: nil)
    }

    /// ``prepare(_:for:)`` telling how far a video's remux or transcode is
    /// (0...1), and asking `isCancelled` between its packets (a `true`
    /// stops it with ``ShareError/cancelled``). Blocks the calling thread.
    public func prepare(
        _ content: ShareContent, for constraints: ShareConstraints, progress: (@Sendable (Double) -> Void)?, isCancelled: (@Sendable () -> Bool)?
    ) throws(ShareError) -> PreparedContent {
        var violations = constraints.violations(of: content)
        var adjustments: [String] = []
        var encodes = 0

        // The link: an object (trimmed) or text appended to the message.
        var link: ShareLink?
        var linkSuffix = ""
        if let contentLink = content.link {
            switch constraints.links {
            case .object(let maxTitle, let maxSummary):
                let counting = constraints.linkCounting
                var trimmed = contentLink
                trimmed.title = contentLink.title.map { counting.truncate($0, to: maxTitle) }
                trimmed.summary = contentLink.summary.map { counting.truncate($0, to: maxSummary) }
                if trimmed != contentLink { adjustments.append("trimmed the link's title or summary") }
                link = trimmed
            case .inText:
                linkSuffix = contentLink.url.absoluteString
                adjustments.append("moved the link into the text")
            case .unsupported:
                break
            }
        }

        // The text, cut to fit (the rules above already refused what must
        // not be cut or cannot fit).
        var finalText: String?
        if let rule = constraints.text {
            let counting = rule.counting
            var text = content.text ?? ""
            let separator = text.isEmpty || linkSuffix.isEmpty ? "" : " "
            let reserved = linkSuffix.isEmpty ? 0 : counting.length(of: separator + linkSuffix)
            if reserved <= rule.maxLength {
                let trimmed = counting.truncate(text, to: rule.maxLength - reserved)
                if trimmed != text { adjustments.append("shortened the text to fit \(rule.maxLength) \(rule.counting.unit)") }
                text = trimmed + (linkSuffix.isEmpty ? "" : separator + linkSuffix)
            }
            finalText = text.isEmpty ? nil : text
        }

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
                            $0, formats: [picture.format], maxBytes: picture.maxBytes, box: picture.maxSize, policy: .strict, forceEncode: true,
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
            text: finalText, images: images, link: link, thumbnail: thumbnail, adjustments: adjustments, encodeCount: encodes, video: video,
            inReplyTo: content.inReplyTo)
    }
}
