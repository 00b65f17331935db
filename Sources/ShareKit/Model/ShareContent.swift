public import Foundation
public import ImageCodecs

/// An image to share: encoded bytes (any format ImageCodecs reads) or pixels.
public enum ShareImage: Hashable, Sendable {
    /// Encoded bytes, such as a JPEG file's contents.
    case encoded([UInt8])
    /// Decoded pixels; encoded when the content is prepared.
    case bitmap(Bitmap)
}

/// A link with its preview.
public struct ShareLink: Hashable, Sendable {
    /// Where it points.
    public var url: URL
    /// The preview title.
    public var title: String?
    /// The preview description.
    public var summary: String?
    /// The preview thumbnail; the first shared image stands in when `nil`.
    public var thumbnail: ShareImage?

    /// Creates a link.
    public init(url: URL, title: String? = nil, summary: String? = nil, thumbnail: ShareImage? = nil) {
        self.url = url
        self.title = title
        self.summary = summary
        self.thumbnail = thumbnail
    }
}

/// What the user wants to share: text, images, a link, or any combination.
///
/// ```swift
/// let content = ShareContent(text: "Sunset at the pier 🌅", images: [.encoded(jpegBytes)])
/// ```
public struct ShareContent: Hashable, Sendable {
    /// The message text.
    public var text: String?
    /// Images, in order.
    public var images: [ShareImage]
    /// A link.
    public var link: ShareLink?

    /// Creates content.
    public init(text: String? = nil, images: [ShareImage] = [], link: ShareLink? = nil) {
        self.text = text
        self.images = images
        self.link = link
    }

    /// Whether there is nothing to share.
    public var isEmpty: Bool { (text ?? "").isEmpty && images.isEmpty && link == nil }
}

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

        /// Creates an image.
        public init(bytes: [UInt8], format: ImageFormat, size: PixelSize) {
            self.bytes = bytes
            self.format = format
            self.size = size
        }
    }

    /// The text, counted and trimmed the provider's way (links moved in
    /// when the destination takes no link object).
    public let text: String?
    /// The images, each in an accepted format under the byte cap.
    public let images: [Image]
    /// The link object, when the destination takes one.
    public let link: ShareLink?
    /// The thumbnail under its cap, when the destination wants one.
    public let thumbnail: Image?
    /// What adaptation changed, in plain words, for logs and UIs.
    public let adjustments: [String]
    /// How many encodes adaptation made (the byte-cap search's cost).
    public let encodeCount: Int

    /// Creates prepared content.
    public init(text: String?, images: [Image], link: ShareLink?, thumbnail: Image?, adjustments: [String] = [], encodeCount: Int = 0) {
        self.text = text
        self.images = images
        self.link = link
        self.thumbnail = thumbnail
        self.adjustments = adjustments
        self.encodeCount = encodeCount
    }
}
