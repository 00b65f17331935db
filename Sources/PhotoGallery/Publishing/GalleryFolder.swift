import SystemSupport

/// The gallery folder's file work: the new gallery written beside the
/// old one (`.<name>.publishing-<16 hex>`, marked as PhotoDeck's), files
/// linked from the old one, and the swap that puts it in place.
enum GalleryFolder {
    /// The file that marks a folder as a publish under way (a staging
    /// folder left by a publish that was killed is removed by the next).
    static let stagingMarker = ".photodeck-publishing"
    /// The file that marks a folder as a gallery PhotoDeck published (and may replace).
    static let galleryMark = ".photodeck-gallery"

    /// The most bytes of an old file read to compare or copy it.
    static let maxFileBytes = 256 << 20

    /// Checks `folder` (missing, empty, or marked as a PhotoDeck gallery: never
    /// anything else, and never a link), removes staging folders killed
    /// publishes left beside it, and makes a new one with `r/` and `p/`.
    static func prepareStaging(for folder: String) throws(GalleryError) -> String {
        let (parent, name) = DurableFile.split(folder)
        guard !name.isEmpty, name != ".", name != ".." else { throw .invalidOptions("\(folder) cannot be a gallery folder") }
        do {
            try FileSystem.makeFolders(parent)
        } catch {
            throw .writeFailed(path: parent, reason: error.reason)
        }
        if let kind = FileSystem.kind(of: folder, followingSymlinks: false) {
            guard kind == .folder else { throw .notAGallery(path: folder) }
            let names = (try? FolderListing.entries(in: folder)) ?? [""]
            let marked = FileSystem.kind(of: "\(folder)/\(galleryMark)", followingSymlinks: false) == .regular
            guard names.isEmpty || marked else { throw .notAGallery(path: folder) }
        }
        let prefix = ".\(name).publishing-"
        for stale in FolderListing.names(in: parent) where stale.hasPrefix(prefix) && stale.utf8.count == prefix.utf8.count + 16 {
            let path = "\(parent)/\(stale)"
            // A publish killed before its swap left its staging folder (marked as one); killed just
            // after it, the old gallery under the staging name (marked as a gallery).
            let marked = [stagingMarker, galleryMark].contains { FileSystem.kind(of: "\(path)/\($0)", followingSymlinks: false) == .regular }
            if FileSystem.kind(of: path, followingSymlinks: false) == .folder, marked {
                try? FileSystem.removeTree(path)
            }
        }
        let random = UInt64.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        let staging = "\(parent)/\(prefix)\(String(repeating: "0", count: 16 - hex.count))\(hex)"
        do {
            try FileSystem.makeFolders(staging)
            try DurableFile.write([], to: "\(staging)/\(stagingMarker)", durably: false)
            try FileSystem.makeFolders("\(staging)/r")
            try FileSystem.makeFolders("\(staging)/p")
        } catch {
            throw .writeFailed(path: staging, reason: error.reason)
        }
        return staging
    }

    /// Puts the old gallery's file at `path` into the staging folder: a
    /// hard link (a copy where the file system refuses one).
    static func link(_ path: String, from old: String, into staging: String) throws(GalleryError) {
        do {
            try FileSystem.hardLink("\(old)/\(path)", to: "\(staging)/\(path)")
        } catch {
            do {
                let bytes = try RegularFile.contents(of: "\(old)/\(path)", limit: maxFileBytes, followingSymlinks: false)
                try DurableFile.write(bytes, to: "\(staging)/\(path)", durably: false)
            } catch {
                throw .writeFailed(path: "\(staging)/\(path)", reason: error.reason)
            }
        }
    }

    /// Puts `bytes` at `path` in the staging folder: linked from the old
    /// gallery when its file there holds exactly them (`true`), written
    /// otherwise (`false`).
    static func linkIfSame(_ bytes: [UInt8], at path: String, from old: String, into staging: String) throws(GalleryError) -> Bool {
        let oldPath = "\(old)/\(path)"
        if let status = try? FileSystem.status(of: oldPath, followingSymlinks: false), status.kind == .regular, status.size == bytes.count,
            (try? RegularFile.contents(of: oldPath, limit: maxFileBytes, followingSymlinks: false)) == bytes,
            (try? FileSystem.hardLink(oldPath, to: "\(staging)/\(path)")) != nil
        {
            return true
        }
        do {
            try DurableFile.write(bytes, to: "\(staging)/\(path)", durably: false)
        } catch {
            throw .writeFailed(path: "\(staging)/\(path)", reason: error.reason)
        }
        return false
    }

    /// Flushes the staging folder and swaps it with `folder` in one step
    /// (or renames it there when there is none), then removes the old
    /// gallery and flushes the parent folder.
    static func putInPlace(_ staging: String, as folder: String) throws(GalleryError) {
        do {
            try FileSystem.syncFileSystem(containing: staging)
            if FileSystem.exists(folder) {
                try FileSystem.exchange(staging, with: folder)
                // `staging` now names the old gallery.
                try? FileSystem.removeTree(staging)
            } else {
                try FileSystem.move(staging, to: folder)
            }
            // In place, the gallery is no publish under way (killed before this, the marker is one hidden file more).
            try? FileSystem.remove("\(folder)/\(stagingMarker)")
            try DurableFile.syncFolder(DurableFile.split(folder).folder)
        } catch {
            throw .writeFailed(path: folder, reason: error.reason)
        }
    }

    /// Removes a staging folder after a failed publish.
    static func discard(_ staging: String) {
        try? FileSystem.removeTree(staging)
    }
}
