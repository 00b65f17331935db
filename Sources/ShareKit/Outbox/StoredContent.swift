import Foundation
import ImageCore

/// ``ShareContent`` as stored in the outbox: JSON with images as base64
/// (bitmaps stored as lossless PNG); a video is a file in the outbox's own
/// folder, named by its SHA-256, and the JSON holds its digest and size.
struct StoredContent: Codable {
    /// A video the outbox copied: its SHA-256 (lowercase hex, the file's name) and its size.
    struct Video: Codable, Hashable {
        var sha256: String
        var byteCount: Int

        /// Whether the digest is one the outbox could have written: 64
        /// lowercase hex digits (anything else would name another file).
        var isWellFormed: Bool {
            sha256.utf8.count == 64 && sha256.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } && byteCount >= 0
        }
    }

    struct Link: Codable {
        var url: String
        var title: String?
        var summary: String?
        var thumbnail: Data?
    }

    var text: String?
    var images: [Data]
    var link: Link?
    /// The share's metadata policy; entries queued before it was stored have
    /// none and get the default (which never keeps more than they would have sent).
    var metadata: MetadataPolicy?
    /// The share's video, copied into the outbox (entries without one have none).
    var video: Video?
    /// The post the share answers (entries queued before it was stored have none).
    var inReplyTo: String?

    /// The content without its video (``video`` is set by the outbox once copied).
    init(_ content: ShareContent) throws {
        text = content.text
        inReplyTo = content.inReplyTo
        metadata = content.metadata
        images = try content.images.map(Self.bytes)
        link = try content.link.map { link in
            Link(url: link.url.absoluteString, title: link.title, summary: link.summary, thumbnail: try link.thumbnail.map(Self.bytes))
        }
    }

    private static func bytes(_ image: ShareImage) throws -> Data {
        switch image {
        case .encoded(let bytes): return Data(bytes)
        case .bitmap(let bitmap): return Data(try bitmap.encoded(as: .png))
        }
    }

    /// The content to send; `video` is the outbox's copy of ``video``.
    func content(video: ShareVideo?) -> ShareContent {
        ShareContent(
            text: text, images: images.map { .encoded([UInt8]($0)) },
            link: link.flatMap { link in
                URL(string: link.url).map {
                    ShareLink(url: $0, title: link.title, summary: link.summary, thumbnail: link.thumbnail.map { .encoded([UInt8]($0)) })
                }
            },
            metadata: metadata ?? .default,
            video: video,
            inReplyTo: inReplyTo
        )
    }
}
