import Foundation
import ImageCore

/// ``ShareContent`` as stored in the outbox: JSON with images as base64
/// (bitmaps stored as lossless PNG).
struct StoredContent: Codable {
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

    init(_ content: ShareContent) throws {
        text = content.text
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

    var content: ShareContent {
        ShareContent(
            text: text, images: images.map { .encoded([UInt8]($0)) },
            link: link.flatMap { link in
                URL(string: link.url).map {
                    ShareLink(url: $0, title: link.title, summary: link.summary, thumbnail: link.thumbnail.map { .encoded([UInt8]($0)) })
                }
            },
            metadata: metadata ?? .default
        )
    }
}
