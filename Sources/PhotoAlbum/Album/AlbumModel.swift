public import Foundation
public import ImageCodecs

/// A stored photo's identity: the SHA-256 of its bytes, so the same photo
/// added twice (to one album or several) is stored once.
public struct AssetID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let rawValue: String

    /// Wraps a SHA-256 hex digest; `nil` unless `rawValue` is 64 hex digits.
    public init?(_ rawValue: String) {
        let lowered = rawValue.lowercased()
        guard lowered.count == 64, lowered.allSatisfy({ $0.isHexDigit }) else { return nil }
        self.rawValue = lowered
    }

    init(validated: String) { rawValue = validated }

    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The first 12 digits, enough to tell assets apart in a listing.
    public var shortForm: String { String(rawValue.prefix(12)) }

    public var description: String { rawValue }
}

/// An album in an ``AlbumStore``.
public struct Album: Hashable, Sendable {
    /// The album's unique name.
    public let name: String
    /// How many photos it holds.
    public let itemCount: Int
    /// When it was created.
    public let createdAt: Date
}

/// A photo in an album, with the metadata read from its header when added.
public struct AlbumItem: Hashable, Sendable {
    /// The photo's identity (its content hash).
    public let asset: AssetID
    /// The album it is in.
    public let album: String
    /// Its place in the album, from 0.
    public let position: Int
    /// The encoded format.
    public let format: ImageFormat
    /// The stored pixel size.
    public let size: PixelSize
    /// The EXIF orientation.
    public let orientation: ImageOrientation
    /// The EXIF capture date, when present.
    public let captureDate: CaptureDate?
    /// The file's size in bytes.
    public let byteCount: Int
    /// The name the file had when it was added.
    public let originalName: String
    /// When it was added to this album.
    public let addedAt: Date

    /// The size as displayed, after orientation.
    public var orientedSize: PixelSize { orientation.orientedSize(size) }
}

/// Something that changed in an ``AlbumStore``, as delivered by
/// ``AlbumStore/changes()``.
public enum AlbumChange: Hashable, Sendable {
    /// An album was created.
    case albumCreated(String)
    /// A photo was added to an album.
    case added(AssetID, album: String)
    /// A photo was removed from an album.
    case removed(AssetID, album: String)
    /// A photo moved to a new position in an album.
    case moved(AssetID, album: String, to: Int)
}

/// What opening a store found and mended after an interrupted write.
public struct RepairReport: Hashable, Sendable {
    /// Temporary files of interrupted writes, removed.
    public var removedTemporaryFiles: [String] = []
    /// Stored files no row refers to (written, but never committed), removed.
    public var removedOrphans: [String] = []
    /// Rows whose file is missing: reported, not removed, so nothing is lost
    /// silently. ``AlbumStore/check(verifyingContents:)`` reports them too.
    public var missingFiles: [AssetID] = []

    /// Whether nothing needed mending.
    public var isClean: Bool { removedTemporaryFiles.isEmpty && removedOrphans.isEmpty && missingFiles.isEmpty }
}

/// The result of ``AlbumStore/check(verifyingContents:)``.
public struct ConsistencyReport: Hashable, Sendable {
    /// One readable line per problem found.
    public var problems: [String]
    /// How many assets were checked.
    public var assetCount: Int

    /// Whether the database and the files agree.
    public var isConsistent: Bool { problems.isEmpty }
}

/// What adding a photo to an album did.
public enum AlbumAddition: Hashable, Sendable {
    /// The photo was appended to the album.
    case added(AlbumItem)
    /// The album already held the same content (perhaps under another
    /// file name); nothing changed.
    case alreadyInAlbum(AlbumItem)

    /// The album's item for the photo, either way.
    public var item: AlbumItem {
        switch self {
        case .added(let item), .alreadyInAlbum(let item): item
        }
    }

    /// Whether the album changed.
    public var isNew: Bool {
        if case .added = self { true } else { false }
    }
}
