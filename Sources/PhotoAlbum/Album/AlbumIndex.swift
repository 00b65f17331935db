import ImageCodecs
import SQLiteSupport

/// The album store's SQL: one copy of each statement, shared by the
/// store's own changes and by the journal's replay when the index is rebuilt.
enum AlbumIndex {
    /// The schema, one migration per version.
    static let migrations = [
        """
        CREATE TABLE assets (
            id TEXT PRIMARY KEY, file TEXT NOT NULL, format TEXT NOT NULL,
            width INTEGER NOT NULL, height INTEGER NOT NULL, orientation INTEGER NOT NULL,
            capture_date TEXT, capture_offset INTEGER, byte_count INTEGER NOT NULL,
            original_name TEXT NOT NULL, added_at REAL NOT NULL);
        CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at REAL NOT NULL);
        CREATE TABLE album_items (
            album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
            asset_id TEXT NOT NULL REFERENCES assets(id),
            position INTEGER NOT NULL, added_at REAL NOT NULL,
            PRIMARY KEY (album_id, asset_id));
        CREATE INDEX album_items_by_position ON album_items(album_id, position);
        """,
        // The last journal entry the index has applied (AlbumJournal).
        """
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO store_meta (key, value) VALUES ('journal_seq', 0);
        """,
        // Each photo's ThumbHash (StoredPlaceholder); NULL until made.
        "ALTER TABLE assets ADD COLUMN thumbhash BLOB;",
        // What moves (StoredMedia): a video, a Live Photo's motion file, a Motion Photo's video range.
        """
        ALTER TABLE assets ADD COLUMN media TEXT NOT NULL DEFAULT 'photo';
        ALTER TABLE assets ADD COLUMN motion_file TEXT;
        ALTER TABLE assets ADD COLUMN live_id TEXT;
        ALTER TABLE assets ADD COLUMN duration_ms INTEGER;
        ALTER TABLE assets ADD COLUMN motion_start INTEGER;
        ALTER TABLE assets ADD COLUMN motion_length INTEGER;
        ALTER TABLE assets ADD COLUMN still_us INTEGER;
        CREATE INDEX assets_by_motion_file ON assets(motion_file);
        """,
        // Ratings, labels and tags (StoredAnnotations); NULL when nothing is marked.
        "ALTER TABLE assets ADD COLUMN annotations BLOB;",
        // Each photo's perceptual signature (StoredSignature), NULL until made and for videos;
        // its sharpness and exposure (StoredSharpness), measured when it is first in a burst;
        // when the user chose it as its stack's cover.
        """
        ALTER TABLE assets ADD COLUMN signature BLOB;
        ALTER TABLE assets ADD COLUMN sharpness REAL;
        ALTER TABLE assets ADD COLUMN mean_luma REAL;
        ALTER TABLE assets ADD COLUMN clipped REAL;
        ALTER TABLE assets ADD COLUMN luma_variance REAL;
        ALTER TABLE assets ADD COLUMN cover_chosen_at REAL;
        """,
        // What a photo's EXIF header says for stacking (HeaderFacts), read at import or at the
        // first stack listing: camera, subseconds, ImageUniqueID, an iPhone's burst id.
        """
        ALTER TABLE assets ADD COLUMN shot_camera TEXT;
        ALTER TABLE assets ADD COLUMN shot_subseconds REAL;
        ALTER TABLE assets ADD COLUMN shot_unique_id TEXT;
        ALTER TABLE assets ADD COLUMN shot_burst_id TEXT;
        ALTER TABLE assets ADD COLUMN shot_facts_read INTEGER NOT NULL DEFAULT 0;
        """,
    ]

    static func journalSequence(_ database: SQLiteDatabase) throws -> Int {
        let statement = try database.prepare("SELECT value FROM store_meta WHERE key = 'journal_seq'")
        return try statement.step() ? statement.int(0) : 0
    }

    static func setJournalSequence(_ database: SQLiteDatabase, _ sequence: Int) throws {
        try database.prepare("UPDATE store_meta SET value = MAX(value, ?) WHERE key = 'journal_seq'").bind(.int(sequence)).run()
    }

    static func albumID(_ database: SQLiteDatabase, _ name: String) throws -> Int64? {
        let statement = try database.prepare("SELECT id FROM albums WHERE name = ?").bind(.text(name))
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The album's id, creating it (with `createdAt`) when it is missing.
    static func ensureAlbum(_ database: SQLiteDatabase, _ name: String, createdAt: Double) throws -> Int64 {
        if let id = try albumID(database, name) { return id }
        try database.prepare("INSERT INTO albums (name, created_at) VALUES (?, ?)").bind(.text(name), .real(createdAt)).run()
        return database.lastInsertedRowID
    }

    static func hasAsset(_ database: SQLiteDatabase, _ asset: String) throws -> Bool {
        try database.prepare("SELECT 1 FROM assets WHERE id = ?").bind(.text(asset)).step()
    }

    static func isInAlbum(_ database: SQLiteDatabase, _ asset: String, album: Int64) throws -> Bool {
        try database.prepare("SELECT 1 FROM album_items WHERE album_id = ? AND asset_id = ?").bind(.integer(album), .text(asset)).step()
    }

    /// The asset's row, from its header; what moves in it, and a Live
    /// Photo's motion file (`ab/<sha256>.mov`, the video's own content address).
    static func insertAsset(
        _ database: SQLiteDatabase, id: String, file: String, info: ImageInfo, byteCount: Int, name: String, addedAt: Double,
        summary: PhotoSummary, media: StoredMedia = .photo, motionFile: String? = nil, annotations: PhotoAnnotations = PhotoAnnotations()
    ) throws {
        try database.prepare(
            """
            INSERT INTO assets (id, file, format, width, height, orientation, capture_date, capture_offset,
                                byte_count, original_name, added_at, thumbhash,
                                media, motion_file, live_id, duration_ms, motion_start, motion_length, still_us, annotations, signature)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).bind(
            .text(id), .text(file), .text(info.format.identifier), .int(info.size.width), .int(info.size.height), .int(Int(info.orientation.rawValue)),
            .optional(info.captureDate?.exifDateTime), .optional(info.captureDate?.utcOffsetSeconds), .int(byteCount), .text(name), .real(addedAt),
            .optional(summary.placeholder?.bytes), .text(media.kind.rawValue), .optional(motionFile), .optional(media.live?.rawValue),
            .optional(media.durationMilliseconds), .optional(media.motionRange?.lowerBound), .optional(media.motionRange?.count),
            .optional(media.stillMicroseconds), StoredAnnotations.value(annotations), .optional(summary.signature?.bytes)
        ).run()
    }

    /// Sets an asset's marks; `false` when there is no such asset.
    static func setAnnotations(_ database: SQLiteDatabase, _ marks: PhotoAnnotations, of asset: String) throws -> Bool {
        try database.prepare("UPDATE assets SET annotations = ? WHERE id = ?").bind(StoredAnnotations.value(marks), .text(asset)).run()
        return database.changedRowCount > 0
    }

    /// An asset's marks; `nil` when there is no such asset.
    static func annotations(_ database: SQLiteDatabase, of asset: String) throws -> PhotoAnnotations? {
        let statement = try database.prepare("SELECT annotations FROM assets WHERE id = ?").bind(.text(asset))
        return try statement.step() ? StoredAnnotations.read(statement, 0) : nil
    }

    /// Makes a stored still a Live Photo: `motionFile` is its motion, of `durationMilliseconds`.
    static func setMotion(_ database: SQLiteDatabase, _ motionFile: String, durationMilliseconds: Int?, of asset: String) throws {
        try database.prepare("UPDATE assets SET media = 'livePhoto', motion_file = ?, duration_ms = ? WHERE id = ?")
            .bind(.text(motionFile), .optional(durationMilliseconds), .text(asset)).run()
    }

    /// A Live Photo's motion file, or `nil` (any other asset, or none).
    static func motionFile(_ database: SQLiteDatabase, of asset: String) throws -> String? {
        let statement = try database.prepare("SELECT motion_file FROM assets WHERE id = ?").bind(.text(asset))
        return try statement.step() ? statement.optionalText(0) : nil
    }

    /// Whether any asset's file or motion file is `file`: a stored video
    /// can be a video asset and a Live Photo's motion at once.
    static func isInUse(_ database: SQLiteDatabase, _ file: String) throws -> Bool {
        try database.prepare("SELECT 1 FROM assets WHERE file = ?1 OR motion_file = ?1").bind(.text(file)).step()
    }

    /// Stores the asset's ThumbHash (made after the row, for a store from
    /// before placeholders or an index rebuilt without them).
    static func setPlaceholder(_ database: SQLiteDatabase, _ placeholder: ThumbHash, of asset: String) throws {
        try database.prepare("UPDATE assets SET thumbhash = ? WHERE id = ?").bind(.blob(placeholder.bytes), .text(asset)).run()
    }

    /// Stores the asset's signature (made after the row, for a store from
    /// before signatures or an index rebuilt without them).
    static func setSignature(_ database: SQLiteDatabase, _ signature: ImageSignature, of asset: String) throws {
        try database.prepare("UPDATE assets SET signature = ? WHERE id = ?").bind(.blob(signature.bytes), .text(asset)).run()
    }

    /// Records that the user chose the asset as its stack's cover at `time`; `false` when there is no such asset.
    static func setCoverChosen(_ database: SQLiteDatabase, at time: Double, of asset: String) throws -> Bool {
        try database.prepare("UPDATE assets SET cover_chosen_at = ? WHERE id = ?").bind(.real(time), .text(asset)).run()
        return database.changedRowCount > 0
    }

    /// Stores what a photo's header says for stacking, and that it was read.
    static func setHeaderFacts(_ database: SQLiteDatabase, _ facts: HeaderFacts, of asset: String) throws {
        try database.prepare(
            "UPDATE assets SET shot_camera = ?, shot_subseconds = ?, shot_unique_id = ?, shot_burst_id = ?, shot_facts_read = 1 WHERE id = ?"
        ).bind(.optional(facts.camera), .optional(facts.subseconds), .optional(facts.uniqueID), .optional(facts.burstID), .text(asset)).run()
    }

    /// Stores a photo's measured sharpness and exposure.
    static func setSharpness(_ database: SQLiteDatabase, _ sharpness: ImageSharpness, of asset: String) throws {
        try database.prepare("UPDATE assets SET sharpness = ?, mean_luma = ?, clipped = ?, luma_variance = ? WHERE id = ?")
            .bind(
                .real(sharpness.laplacianVariance), .real(sharpness.meanLuma), .real(sharpness.clippedFraction), .real(sharpness.lumaVariance),
                .text(asset)
            ).run()
    }

    /// Points the asset's row at `file` (recovery: the store's own file, verified).
    static func setFile(_ database: SQLiteDatabase, _ file: String, of asset: String) throws {
        try database.prepare("UPDATE assets SET file = ? WHERE id = ?").bind(.text(file), .text(asset)).run()
    }

    /// Appends the asset to the album; `false` when it is there already.
    static func addItem(_ database: SQLiteDatabase, _ asset: String, album: Int64, addedAt: Double) throws -> Bool {
        if try isInAlbum(database, asset, album: album) { return false }
        try database.prepare(
            """
            INSERT INTO album_items (album_id, asset_id, position, added_at)
            VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM album_items WHERE album_id = ?), ?)
            """
        ).bind(.integer(album), .text(asset), .integer(album), .real(addedAt)).run()
        return true
    }

    /// Takes the asset out of the album and closes the gap; `false` when it
    /// was not there. When no album holds it any more its row goes too, and
    /// its files no other asset uses are returned (the still or video, and a
    /// Live Photo's motion), for the caller to delete after committing.
    static func removeItem(_ database: SQLiteDatabase, _ asset: String, album: Int64) throws -> (removed: Bool, unusedFiles: [UnusedFile]) {
        let position = try database.prepare("SELECT position FROM album_items WHERE album_id = ? AND asset_id = ?").bind(.integer(album), .text(asset))
        guard try position.step() else { return (false, []) }
        let removedPosition = position.int(0)
        try database.prepare("DELETE FROM album_items WHERE album_id = ? AND asset_id = ?").bind(.integer(album), .text(asset)).run()
        try database.prepare("UPDATE album_items SET position = position - 1 WHERE album_id = ? AND position > ?")
            .bind(.integer(album), .int(removedPosition)).run()
        if try database.prepare("SELECT 1 FROM album_items WHERE asset_id = ?").bind(.text(asset)).step() { return (true, []) }
        let row = try database.prepare("SELECT file, motion_file FROM assets WHERE id = ?").bind(.text(asset))
        var files: [UnusedFile] = []
        if try row.step() {
            files.append(UnusedFile(path: row.text(0), isMotion: false))
            if let motion = row.optionalText(1) { files.append(UnusedFile(path: motion, isMotion: true)) }
        }
        try database.prepare("DELETE FROM assets WHERE id = ?").bind(.text(asset)).run()
        return (true, try files.filter { try !isInUse(database, $0.path) })
    }

    /// A file a removed asset no longer needs: its own (named by its id) or its motion (named by the video's).
    struct UnusedFile {
        let path: String
        let isMotion: Bool
    }

    /// Moves the asset to `position` (clamped); the position it got, or `nil` when it is not in the album.
    static func move(_ database: SQLiteDatabase, _ asset: String, album: Int64, to position: Int) throws -> Int? {
        let order = try database.prepare("SELECT asset_id FROM album_items WHERE album_id = ? ORDER BY position").bind(.integer(album))
        var assets: [String] = []
        while try order.step() { assets.append(order.text(0)) }
        guard let from = assets.firstIndex(of: asset) else { return nil }
        let moved = assets.remove(at: from)
        let target = min(max(0, position), assets.count)
        assets.insert(moved, at: target)
        let update = try database.prepare("UPDATE album_items SET position = ? WHERE album_id = ? AND asset_id = ?")
        for (index, id) in assets.enumerated() {
            try update.bind(.int(index), .integer(album), .text(id)).run()
        }
        return target
    }

    /// Every asset's id by its file's path under `originals/`, a Live
    /// Photo's motion file included (under the still's id).
    static func files(_ database: SQLiteDatabase) throws -> [String: String] {
        var known: [String: String] = [:]
        let rows = try database.prepare("SELECT id, file, motion_file FROM assets")
        while try rows.step() {
            if let motion = rows.optionalText(2), known[motion] == nil { known[motion] = rows.text(0) }
            known[rows.text(1)] = rows.text(0)
        }
        return known
    }
}
