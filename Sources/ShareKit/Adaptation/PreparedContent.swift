public import ImageCore

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
    package let encodeCount: Int

    /// The metadata taken out of any image (the thumbnail included).
    public var removedMetadata: Set<MetadataKind> {
        images.reduce(into: thumbnail?.removedMetadata ?? []) { $0.formUnion($1.removedMetadata) }
    }

    /// Creates prepared content.
    public init(text: String?, images: [Image], link: ShareLink?, thumbnail: Image?, adjustments: [String] = []) {
        self.init(text: text, images: images, link: link, thumbnail: thumbnail, adjustments: adjustments, encodeCount: 0)
    }

    package init(text: String?, images: [Image], link: ShareLink?, thumbnail: Image?, adjustments: [String], encodeCount: Int) {
        self.text = text
        self.images = images
        self.link = link
        self.thumbnail = thumbnail
        self.adjustments = adjustments
        self.encodeCount = encodeCount
    }
}

extension ShareContent {
    /// The content a prepared share carries, so a provider can check it
    /// against its constraints with ``ShareConstraints/violations(of:)``.
    public init(_ prepared: PreparedContent) {
        self.init(text: prepared.text, images: prepared.images.map { .encoded($0.bytes) }, link: prepared.link, textOverflow: .refuse)
    }
}
