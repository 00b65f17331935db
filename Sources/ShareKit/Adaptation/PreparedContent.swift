import Foundation
public import ImageCore
import SystemSupport

/// Content fitted to one provider's constraints for one destination: what
/// a provider's ``ShareProvider/share(_:to:credential:)`` receives.
public struct PreparedContent: Hashable, Sendable {
    /// An encoded image ready to upload.
    public struct Image: Hashable, Sendable {
        /// The encoded bytes.
        public let bytes: [UInt8]
        /// Their format.
        public let format: ImageFormat
        /// Their pixel size.
        public let size: PixelSize
        /// The metadata adaptation took out (location, identifying fields,
        /// XMP...), as the share's ``ImageCore/MetadataPolicy`` said.
        public let removedMetadata: Set<MetadataKind>

        /// Creates an image.
        public init(bytes: [UInt8], format: ImageFormat, size: PixelSize, removedMetadata: Set<MetadataKind> = []) {
            self.bytes = bytes
            self.format = format
            self.size = size
            self.removedMetadata = removedMetadata
        }
    }

    /// A video ready to upload: an MP4 file made for this share, removed
    /// when the last copy of this value goes (a provider reads it while it
    /// holds the prepared content).
    public struct Video: Hashable, Sendable {
        /// The file made for the share.
        public let file: PreparedFile
        /// Its size in bytes.
        public let byteCount: Int
        /// How long it plays.
        public let duration: Duration?
        /// Its pictures' size as shown (turned upright).
        public let size: PixelSize
        /// The codecs inside (`h264`, `aac`).
        public let codecs: [String]
        /// Whether it was encoded again (`false`: remuxed, the same pictures and sound).
        public let isTranscoded: Bool
        /// The video bit rate a transcode aimed at, in bits a second; `nil` for a remux.
        public let targetBitRate: Int?
        /// The metadata kinds taken out.
        public let removedMetadata: Set<MetadataKind>
        /// The tags taken out, by name (at most 100).
        public let removedTags: [String]
        /// The tracks taken out (timed metadata, subtitles), as `type codec`.
        public let removedStreams: [String]
        /// The picture sent with it, when the destination wants one
        /// (``ShareConstraints/Videos/thumbnail``): its first frame, under the cap.
        public let thumbnail: Image?

        /// The file's path.
        public var path: String { file.path }

        /// The same video with `thumbnail` as its picture.
        package func with(thumbnail: Image?) -> Video {
            Video(
                file: file, byteCount: byteCount, duration: duration, size: size, codecs: codecs, isTranscoded: isTranscoded,
                removedMetadata: removedMetadata, removedTags: removedTags, removedStreams: removedStreams, thumbnail: thumbnail,
                targetBitRate: targetBitRate)
        }

        /// The file's bytes, for a provider that uploads it in one body;
        /// at most `limit` (the destination's cap) are read.
        ///
        /// - Throws: ``ShareError/invalidContent(_:)`` with
        ///   ``ConstraintViolation/unreadableVideo(_:)`` when it cannot be read
        ///   or is larger than `limit`.
        public func bytes(limit: Int) throws(ShareError) -> [UInt8] {
            do {
                return try RegularFile.contents(of: path, limit: limit, followingSymlinks: false)
            } catch {
                throw .invalidContent([.unreadableVideo(error.reason)])
            }
        }

        /// Creates a prepared video (a provider's tests make their own).
        public init(
            file: PreparedFile, byteCount: Int, duration: Duration?, size: PixelSize, codecs: [String], isTranscoded: Bool,
            removedMetadata: Set<MetadataKind> = [], removedTags: [String] = [], removedStreams: [String] = [], thumbnail: Image? = nil,
            targetBitRate: Int? = nil
        ) {
            self.targetBitRate = targetBitRate
            self.thumbnail = thumbnail
            self.file = file
            self.byteCount = byteCount
            self.duration = duration
            self.size = size
            self.codecs = codecs
            self.isTranscoded = isTranscoded
            self.removedMetadata = removedMetadata
            self.removedTags = removedTags
            self.removedStreams = removedStreams
        }
    }

    /// The text, counted and trimmed the provider's way (links moved in
    /// when the destination takes no link object).
    public let text: String?
    /// The images, each in an accepted format under the byte cap.
    public let images: [Image]
    /// The link object, when the destination takes one.
    public let link: ShareLink?
    /// The thumbnail under its cap, when the destination wants one (a
    /// video's first frame when there is no image or link picture).
    public let thumbnail: Image?
    /// The video, fitted to the destination's rules.
    public let video: Video?
    /// The post the share answers (``ShareContent/inReplyTo``), as given.
    public let inReplyTo: String?
    /// What adaptation changed, in plain words, for logs and UIs.
    public let adjustments: [String]
    /// How many encodes adaptation made (the byte-cap search's cost).
    package let encodeCount: Int

    /// The metadata taken out of any image (the thumbnail included) or the video.
    public var removedMetadata: Set<MetadataKind> {
        images.reduce(into: (thumbnail?.removedMetadata ?? []).union(video?.removedMetadata ?? [])) { $0.formUnion($1.removedMetadata) }
    }

    /// Creates prepared content.
    public init(
        text: String?, images: [Image], link: ShareLink?, thumbnail: Image?, adjustments: [String] = [], video: Video? = nil, inReplyTo: String? = nil
    ) {
        self.init(
            text: text, images: images, link: link, thumbnail: thumbnail, adjustments: adjustments, encodeCount: 0, video: video, inReplyTo: inReplyTo)
    }

    package init(
        text: String?, images: [Image], link: ShareLink?, thumbnail: Image?, adjustments: [String], encodeCount: Int, video: Video? = nil,
        inReplyTo: String? = nil
    ) {
        self.inReplyTo = inReplyTo
        self.text = text
        self.images = images
        self.link = link
        self.thumbnail = thumbnail
        self.adjustments = adjustments
        self.encodeCount = encodeCount
        self.video = video
    }
}

extension ShareContent {
    /// The content a prepared share carries, so a provider can check it
    /// against its constraints with ``ShareConstraints/violations(of:)``.
    public init(_ prepared: PreparedContent) {
        self.init(
            text: prepared.text, images: prepared.images.map { .encoded($0.bytes) }, link: prepared.link, textOverflow: .refuse,
            video: prepared.video.map { ShareVideo(path: $0.path) }, inReplyTo: prepared.inReplyTo)
    }
}

/// A file made for one share (a remuxed or transcoded video), deleted
/// when the last reference goes: nothing a share makes outlives it.
public final class PreparedFile: Hashable, Sendable {
    /// Where it is.
    public let path: String
    /// Whether it is deleted with this object (`false` for a file the
    /// caller owns, such as a test's fixture).
    public let isOwned: Bool

    /// Wraps a file; `owned` files are deleted when this object goes.
    public init(path: String, owned: Bool) {
        self.path = path
        self.isOwned = owned
    }

    deinit { if isOwned { try? FileSystem.remove(path) } }

    public static func == (lhs: PreparedFile, rhs: PreparedFile) -> Bool { lhs.path == rhs.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
