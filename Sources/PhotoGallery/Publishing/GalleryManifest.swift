import Foundation
import ImageCodecs
import SystemSupport

/// What a published gallery says it holds (`gallery.json`): the settings
/// its renditions were made with and, for each photo, the widths it has
/// and its placeholder, so that republishing keeps them without a decode.
///
/// Read back, it is a claim like anything from outside: it is read within
/// a bound, each field is checked, a photo whose entry does not check is
/// made again (its files are never trusted by name alone: each is probed).
struct GalleryManifest: Codable, Hashable, Sendable {
    /// What a photo's renditions are.
    struct Photo: Codable, Hashable, Sendable {
        var widths: [Int]
        var heights: [Int]
        var placeholder: String
        var hasGainMap: Bool
    }

    /// What wrote it (a gallery folder without this is not replaced).
    var generator = GalleryManifest.generatorName
    var version = 1
    /// The digest of the settings the renditions were made with.
    var settings: String
    /// By photo id.
    var photos: [String: Photo]

    static let generatorName = "PhotoDeck gallery"
    /// The manifest's name in the gallery folder.
    static let fileName = "gallery.json"
    /// The most bytes read of a manifest (about 2,000 bytes a photo).
    static let maxBytes = 32 << 20

    /// The manifest of the gallery at `folder`, or `nil` when it has none
    /// that reads (too large, not JSON, another generator or version).
    static func read(inGallery folder: String) -> GalleryManifest? {
        guard let bytes = try? RegularFile.contents(of: "\(folder)/\(fileName)", limit: maxBytes, followingSymlinks: false),
            let manifest = try? JSONDecoder().decode(GalleryManifest.self, from: Data(bytes)),
            manifest.generator == generatorName, manifest.version == 1
        else { return nil }
        return manifest
    }

    /// The entry of photo `id`, when it checks against `options` and
    /// `settings`: the same settings, widths the ladder gives a photo of
    /// that width, plausible heights, a PNG data URI of bounded length.
    func entry(for id: String, options: GalleryOptions, settings: String) -> Photo? {
        guard self.settings == settings, let entry = photos[id], let top = entry.widths.last, entry.widths.count == entry.heights.count,
            entry.widths == GalleryRenditionMaker.widths(forPhotoWidth: top, ladder: options.widths),
            entry.heights.allSatisfy({ (1...(8 * 8_192)).contains($0) }),
            entry.placeholder.utf8.count <= 8_192, entry.placeholder.hasPrefix(Self.placeholderPrefix),
            entry.placeholder.utf8.dropFirst(Self.placeholderPrefix.utf8.count).allSatisfy(Self.isBase64)
        else { return nil }
        return entry
    }

    static let placeholderPrefix = "data:image/png;base64,"

    private static func isBase64(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2F || byte == 0x3D
    }

    /// The digest of what changes every rendition's bytes: qualities,
    /// the metadata policy and the width metadata starts at.
    static func settingsDigest(of options: GalleryOptions) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same policy, the same text, every run
        let policy = (try? encoder.encode(options.metadata)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let text = "1|\(options.webpQuality)|\(options.jpegQuality)|\(options.metadataMinimumWidth)|\(policy)"
        return String(Digest.sha256Hex(Array(text.utf8)).prefix(8))
    }

    /// The manifest's bytes (keys sorted, so the same gallery writes the same bytes).
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(self))) ?? []
    }
}
