import Foundation
import ImageCore

/// ``ShareContent`` as stored in the outbox: JSON with encoded images as
/// base64 and bitmaps as their pixels (ShareKit links no encoder); a video
/// is a file in the outbox's own folder, named by its SHA-256, and the JSON
/// holds its digest and size.
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
        var thumbnail: StoredImage?
    }

    var text: String?
    var images: [StoredImage]
    var link: Link?
    /// The share's metadata policy; entries queued before it was stored have
    /// none and get the default (which never keeps more than they would have sent).
    var metadata: MetadataPolicy?
    /// The share's video, copied into the outbox (entries without one have none).
    var video: Video?
    /// The post the share answers (entries queued before it was stored have none).
    var inReplyTo: String?

    /// The content without its video (``video`` is set by the outbox once copied).
    init(_ content: ShareContent) {
        text = content.text
        inReplyTo = content.inReplyTo
        metadata = content.metadata
        images = content.images.map(StoredImage.init)
        link = content.link.map { link in
            Link(url: link.url.absoluteString, title: link.title, summary: link.summary, thumbnail: link.thumbnail.map(StoredImage.init))
        }
    }

    /// The content to send; `video` is the outbox's copy of ``video``.
    func content(video: ShareVideo?) -> ShareContent {
        ShareContent(
            text: text, images: images.map(\.image),
            link: link.flatMap { link in
                URL(string: link.url).map {
                    ShareLink(url: $0, title: link.title, summary: link.summary, thumbnail: link.thumbnail?.image)
                }
            },
            metadata: metadata ?? .default,
            video: video,
            inReplyTo: inReplyTo
        )
    }
}

/// One image in a stored share: encoded bytes as base64 (what every entry
/// held before bitmaps were stored as pixels: PNG bytes for a bitmap), or a
/// bitmap's pixels with their layout, checked again when read.
struct StoredImage: Codable {
    /// The image to send.
    let image: ShareImage

    /// The largest side a stored bitmap may claim.
    static let maxSide = 1 << 16

    private struct Pixels: Codable {
        var width: Int
        var height: Int
        var format: String
        var pixels: Data
    }

    init(_ image: ShareImage) {
        self.image = image
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bytes = try? container.decode(Data.self) {
            image = .encoded([UInt8](bytes))
            return
        }
        let stored = try container.decode(Pixels.self)
        guard let format = PixelFormat(rawValue: stored.format), (1...Self.maxSide).contains(stored.width), (1...Self.maxSide).contains(stored.height),
            stored.pixels.count == stored.width * stored.height * format.bytesPerPixel
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a stored bitmap's layout does not match its \(stored.pixels.count) bytes")
        }
        image = .bitmap(try Bitmap(width: stored.width, height: stored.height, pixelFormat: format, pixels: [UInt8](stored.pixels)))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch image {
        case .encoded(let bytes):
            try container.encode(Data(bytes))
        case .bitmap(let bitmap):
            // Tightly packed: rows without their padding.
            var packed = Data(capacity: bitmap.width * bitmap.height * bitmap.pixelFormat.bytesPerPixel)
            let rowBytes = bitmap.width * bitmap.pixelFormat.bytesPerPixel
            bitmap.withUnsafeBytes { buffer in
                for row in 0..<bitmap.height {
                    packed.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[row * bitmap.bytesPerRow..<row * bitmap.bytesPerRow + rowBytes]))
                }
            }
            try container.encode(Pixels(width: bitmap.width, height: bitmap.height, format: bitmap.pixelFormat.rawValue, pixels: packed))
        }
    }
}
