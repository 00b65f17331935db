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

/// A photo or video in an album, with the metadata read from its header when added.
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
    /// The photo's ThumbHash, to draw before its pixels are decoded; `nil`
    /// until made (a store from before PhotoDeck kept them: see
    /// ``AlbumStore/placeholder(of:)``) or when the photo does not decode.
    public let placeholder: ThumbHash?
    /// What it shows: a still, a video (``format`` is then its container's,
    /// ``size`` its frames' upright size), a Live Photo (the still, with its
    /// motion stored beside it) or a Motion Photo.
    public let media: AssetMedia
    /// Its rating, labels and tags: the asset's, whichever album it is in
    /// (see ``AlbumStore/annotate(_:with:)``); at first those of the file
    /// added (its XMP, with its sidecar's).
    public let annotations: PhotoAnnotations

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
    /// A photo's ratings, labels or tags changed (in every album that holds it).
    case annotated(AssetID)
}

/// What opening a store found and mended. Opening deletes nothing but the
/// store's own temporary files: every photo found on disk is listed again.
public struct RepairReport: Hashable, Sendable {
    /// Temporary files of interrupted writes (the store's own), removed.
    public var removedTemporaryFiles: [String] = []
    /// Photos on disk that the index did not list (an add interrupted before
    /// its commit; an index lost, damaged or restored from an older backup),
    /// listed again: in the albums the journal says hold them, else in
    /// ``AlbumStore/recoveredAlbumName``.
    public var recovered: [RecoveredPhoto] = []
    /// Journal entries the index had not applied, replayed into it.
    public var replayedJournalEntries = 0
    /// Journal entries the index had not applied that could not be applied
    /// because the disk is full (an add that failed for want of space):
    /// left in the journal, with their files, for the next open with free
    /// space. The store opens as it was last committed.
    public var waitingForSpace = 0
    /// The stored files those entries add: the store's own, not yet listed.
    var filesWaitingForSpace: Set<String> = []
    /// Journal lines that could not be read (a line cut short by a crash,
    /// garbage, a number out of range), skipped: all of them when the
    /// journal was read through, else those after its last good entry.
    public var unreadableJournalLines = 0
    /// Stored photos whose index row named another file (the index was
    /// changed behind the store's back): the row now names the store's own
    /// file, whose content matches the photo.
    public var correctedFileNames: [String] = []
    /// Index files SQLite could not read, moved aside under these names
    /// (never deleted) before a new index was built.
    public var setAsideIndexFiles: [String] = []
    /// Entries in `originals/` that are not the store's (links, other
    /// folders and files): left as they are, never followed.
    public var foreignEntries: [String] = []
    /// Stored files whose content does not match their name: left as they
    /// are and not listed.
    public var damagedFiles: [String] = []
    /// Photos removed from every album whose file the process did not get
    /// to delete: kept on disk, listed in no album.
    public var removedButKept: [String] = []
    /// Stored files that hash to their names but could not be read as a
    /// photo or video now (FFmpeg's libraries are not installed, say): left
    /// as they are, listed at a later open that can read them.
    public var unreadableFiles: [String] = []
    /// Videos with a Live Photo identifier that no still names and no
    /// album ever held: the video of a Live Photo add that stopped before
    /// its still was stored. Kept on disk, listed nowhere (a Live Photo is
    /// listed whole or not at all); adding the pair again uses the file.
    public var unpairedMotionFiles: [String] = []
    /// Rows whose file is missing: reported, not removed, so nothing is lost
    /// silently. ``AlbumStore/check(verifyingContents:)`` reports them too.
    public var missingFiles: [AssetID] = []

    /// Whether nothing needed mending.
    public var isClean: Bool { lines.isEmpty }

    /// One readable line per finding, for logs and `check`.
    public var lines: [String] {
        var lines: [String] = []
        if !setAsideIndexFiles.isEmpty { lines.append("the index could not be read; moved aside as \(setAsideIndexFiles.joined(separator: ", ")) and rebuilt") }
        if replayedJournalEntries > 0 { lines.append("\(replayedJournalEntries) journal entries the index had not applied were replayed") }
        if waitingForSpace > 0 { lines.append("\(waitingForSpace) journal entries wait for free disk space to be applied") }
        for photo in recovered { lines.append("recovered \(photo.asset.shortForm) into \(photo.albums.joined(separator: ", "))") }
        if !removedTemporaryFiles.isEmpty { lines.append("\(removedTemporaryFiles.count) temporary files of interrupted writes removed") }
        for entry in foreignEntries { lines.append("left alone: originals/\(entry) is not the store's") }
        for file in damagedFiles { lines.append("damaged: originals/\(file) does not match its name; left as it is") }
        for file in removedButKept { lines.append("removed from every album but still on disk: originals/\(file)") }
        for file in unreadableFiles { lines.append("cannot be read now: originals/\(file); left as it is, listed when it can be") }
        for file in unpairedMotionFiles { lines.append("kept, not listed: originals/\(file) is a Live Photo's video whose still was never stored") }
        if unreadableJournalLines > 0 { lines.append("\(unreadableJournalLines) unreadable journal lines skipped") }
        for file in correctedFileNames { lines.append("the index named another file for originals/\(file); corrected") }
        for asset in missingFiles { lines.append("asset \(asset) has no file") }
        return lines
    }
}

/// A photo the store found on disk and listed again.
public struct RecoveredPhoto: Hashable, Sendable {
    /// The photo.
    public let asset: AssetID
    /// The albums it was listed in.
    public let albums: [String]
}

/// The result of ``AlbumStore/check(verifyingContents:)``.
public struct ConsistencyReport: Hashable, Sendable {
    /// One readable line per problem found.
    public var problems: [String]
    /// How many assets were checked.
    public var assetCount: Int
    /// What is worth knowing but is not a problem: what opening the store
    /// recovered or mended, and entries in the originals folder that are
    /// not the store's (left alone).
    public var notes: [String] = []

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
