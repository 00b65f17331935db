public import Foundation
public import ImageCodecs

/// How a gallery is made: its words, where it will be served, the
/// renditions' widths and qualities, and what metadata its files keep.
///
/// ```swift
/// var options = GalleryOptions(title: "Lisbon, May 2024")
/// options.baseURL = URL(string: "https://photos.example.com/lisbon/")
/// ```
public struct GalleryOptions: Hashable, Sendable {
    /// The gallery's title: its page titles and link cards.
    public var title: String
    /// A line under the title, and the link cards' description; `nil`
    /// for none (the cards then say how many photos there are).
    public var description: String?
    /// The absolute http(s) URL the gallery folder will be served at.
    /// Link cards (Open Graph) need absolute picture URLs: without it the
    /// pages carry no `og:image` or `og:url`.
    public var baseURL: URL?
    /// The widths renditions are made at (each photo gets those under its
    /// own width, and its width capped by the largest). Neighbours differ
    /// by at most 1.5x, so the rendition a browser picks is at least the
    /// tile's size on the screen and at most twice it.
    public var widths: [Int]
    /// WebP's quality, 0...100.
    public var webpQuality: Int
    /// JPEG's quality, 1...100 (the fallback and the link cards' picture).
    public var jpegQuality: Int
    /// What the published files keep (by default, as a share: no place,
    /// serial numbers or owner). Renditions narrower than
    /// ``metadataMinimumWidth`` keep none (``ImageCore/MetadataPolicy/thumbnail``).
    public var metadata: MetadataPolicy
    /// The narrowest rendition that carries metadata.
    public var metadataMinimumWidth: Int
    /// How many tiles at the top of the grid load at once (the first
    /// screen); the rest load as they come near (`loading="lazy"`).
    public var eagerTiles: Int

    /// The widths PhotoDeck makes by default: 240 to 2560 pixels, each
    /// 1.5x the one before.
    public static let defaultWidths = [240, 360, 540, 810, 1215, 1822, 2560]

    /// Options with the defaults: WebP at 78, JPEG at 82, the share policy.
    public init(
        title: String, description: String? = nil, baseURL: URL? = nil, widths: [Int] = GalleryOptions.defaultWidths, webpQuality: Int = 78,
        jpegQuality: Int = 82, metadata: MetadataPolicy = .default, metadataMinimumWidth: Int = 1215, eagerTiles: Int = 6
    ) {
        self.title = title
        self.description = description
        self.baseURL = baseURL
        self.widths = widths
        self.webpQuality = webpQuality
        self.jpegQuality = jpegQuality
        self.metadata = metadata
        self.metadataMinimumWidth = metadataMinimumWidth
        self.eagerTiles = eagerTiles
    }

    /// The options checked: a title, an http(s) base URL, widths between
    /// 16 and 8,192 with no step over 1.5x, qualities in range.
    func validated() throws(GalleryError) -> GalleryOptions {
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidOptions("the title is empty") }
        if let baseURL {
            guard let scheme = baseURL.scheme?.lowercased(), scheme == "https" || scheme == "http", baseURL.host?.isEmpty == false else {
                throw .invalidOptions("the base URL must be an absolute http(s) URL, got \(baseURL.absoluteString)")
            }
        }
        let sorted = Array(Set(widths)).sorted()
        guard let first = sorted.first, first >= 16, let last = sorted.last, last <= 8_192 else {
            throw .invalidOptions("widths must lie between 16 and 8192 pixels, got \(widths)")
        }
        for (small, large) in zip(sorted, sorted.dropFirst()) where Double(large) > Double(small) * 1.5 + 0.5 {
            throw .invalidOptions("widths \(small) and \(large) are more than 1.5x apart: a browser would pick a picture too small or too large")
        }
        guard (0...100).contains(webpQuality), (1...100).contains(jpegQuality) else {
            throw .invalidOptions("qualities are 0...100 (WebP) and 1...100 (JPEG), got \(webpQuality) and \(jpegQuality)")
        }
        var checked = self
        checked.widths = sorted
        checked.eagerTiles = max(0, eagerTiles)
        return checked
    }
}
