import Execution
import ImageCodecs
import SystemSupport

/// Writes photos as a static web gallery: a folder any web server serves
/// (`index.html`, a page per photo in `p/`, renditions in `r/`,
/// `gallery.css`, `gallery.js`, `gallery.json` (what it holds) and an
/// empty `.photodeck-gallery`, the mark that it is PhotoDeck's to replace).
///
/// Publishing is incremental and all-or-nothing: the new gallery is
/// written beside the old one, its unchanged files linked from it rather
/// than made again (a republish after adding two photos decodes and
/// encodes those two), flushed, and swapped with the old one in one step;
/// the old one is then removed. A reader, or a publish killed at any
/// point, sees the old gallery or the new one, whole.
///
/// ```swift
/// let publisher = GalleryPublisher(options: GalleryOptions(title: "Lisbon", baseURL: URL(string: "https://example.com/lisbon/")))
/// let summary = try await publisher.publish(photos, to: "/srv/www/lisbon")
/// print(summary.filesWritten, "written,", summary.filesKept, "kept")
/// ```
public struct GalleryPublisher: Sendable {
    /// How the gallery is made.
    public let options: GalleryOptions

    /// A publisher with `options`.
    public init(options: GalleryOptions) {
        self.options = options
    }

    /// Publishes `photos`, in this order, as the gallery at `folder`
    /// (made if missing; a folder there must be empty or a gallery
    /// PhotoDeck published). Decoding and encoding run on ImageCodecs'
    /// threads, two photos at a time, the file work on the blocking queue:
    /// never on Swift's cooperative pool.
    ///
    /// - Throws: ``GalleryError``; whatever it is, the folder holds what it held.
    @discardableResult
    public func publish(_ photos: [GalleryPhoto], to folder: String) async throws(GalleryError) -> GallerySummary {
        let options = try options.validated()
        guard !photos.isEmpty else { throw .empty }
        var seen = Set<String>()
        for photo in photos where !seen.insert(photo.shortID).inserted { throw .duplicateID(photo.id) }
        let folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let prepared = try await BlockingWork.run { () throws(GalleryError) in try Self.prepare(photos, options: options, folder: folder) }
        do throws(GalleryError) {
            let made = try await Self.make(prepared.toMake.map { photos[$0] }, options: options, settings: prepared.settings, into: prepared.staging)
            return try await BlockingWork.run { () throws(GalleryError) in try Self.finish(prepared, made: made, options: options, folder: folder) }
        } catch {
            await BlockingWork.run { GalleryFolder.discard(prepared.staging) }
            throw error
        }
    }

    /// A publish under way: its staging folder, what it kept, what it must make.
    struct Prepared: Sendable {
        let staging: String
        let settings: String
        /// By position: the photos kept from the old gallery (`nil`: to make).
        let kept: [PhotoRenditions?]
        /// The positions of the photos to make.
        let toMake: [Int]
        var summary: GallerySummary
    }

    /// Checks the folder, makes the staging folder beside it and links in
    /// the renditions the old gallery already has (blocking).
    static func prepare(_ photos: [GalleryPhoto], options: GalleryOptions, folder: String) throws(GalleryError) -> Prepared {
        let staging = try GalleryFolder.prepareStaging(for: folder)
        do throws(GalleryError) {
            let settings = GalleryManifest.settingsDigest(of: options)
            let previous = GalleryManifest.read(inGallery: folder)
            var summary = GallerySummary()
            summary.photoCount = photos.count
            if options.baseURL == nil { summary.warnings.append("no base URL: the pages carry no link-card picture (og:image) or og:url") }
            var kept: [PhotoRenditions?] = Array(repeating: nil, count: photos.count)
            var toMake: [Int] = []
            for (index, photo) in photos.enumerated() {
                if let entry = previous?.entry(for: photo.id, options: options, settings: settings),
                    let renditions = GalleryRenditionMaker.kept(photo, entry: entry, settings: settings, previous: folder)
                {
                    for rendition in renditions.jpeg + renditions.webp {
                        try GalleryFolder.link(rendition.path, from: folder, into: staging)
                        summary.filesKept += 1
                    }
                    kept[index] = renditions
                } else {
                    toMake.append(index)
                }
            }
            return Prepared(staging: staging, settings: settings, kept: kept, toMake: toMake, summary: summary)
        } catch {
            GalleryFolder.discard(staging)
            throw error
        }
    }

    /// Writes the pages, style, script and manifest (an unchanged file
    /// linked from the old gallery) and puts the new gallery in place (blocking).
    static func finish(
        _ prepared: Prepared, made: [(renditions: PhotoRenditions, bytes: Int)], options: GalleryOptions, folder: String
    ) throws(GalleryError) -> GallerySummary {
        let staging = prepared.staging
        var summary = prepared.summary
        var all = prepared.kept
        for (index, result) in zip(prepared.toMake, made) {
            all[index] = result.renditions
            summary.filesWritten += result.renditions.jpeg.count + result.renditions.webp.count
            summary.bytesWritten += result.bytes
        }
        let renditions = all.map { $0! }
        summary.coverPicture = renditions.first?.cardPicture.path
        for photo in renditions {
            summary.renditionCount += photo.jpeg.count + photo.webp.count
            for rendition in photo.jpeg + photo.webp {
                summary.renditionBytes += (try? FileSystem.status(of: "\(staging)/\(rendition.path)", followingSymlinks: false).size) ?? 0
            }
        }
        var pages: [(path: String, bytes: [UInt8])] = [
            ("index.html", Array(GalleryPages.index(renditions, options: options).utf8)),
            ("gallery.css", Array(GalleryPages.style.utf8)),
            ("gallery.js", Array(GalleryPages.script.utf8)),
        ]
        for position in renditions.indices {
            pages.append((renditions[position].pagePath, Array(GalleryPages.photoPage(renditions, at: position, options: options).utf8)))
        }
        summary.pageBytes = pages.reduce(0) { $0 + $1.bytes.count }
        var entries: [String: GalleryManifest.Photo] = [:]
        for photo in renditions {
            entries[photo.id] = GalleryManifest.Photo(
                widths: photo.jpeg.map(\.width), heights: photo.jpeg.map(\.height), placeholder: photo.placeholder, hasGainMap: photo.webp.isEmpty)
        }
        pages.append((GalleryManifest.fileName, GalleryManifest(settings: prepared.settings, photos: entries).encoded()))
        pages.append((GalleryFolder.galleryMark, []))
        for page in pages {
            if try GalleryFolder.linkIfSame(page.bytes, at: page.path, from: folder, into: staging) {
                summary.filesKept += 1
            } else {
                summary.filesWritten += 1
                summary.bytesWritten += page.bytes.count
            }
        }
        try GalleryFolder.putInPlace(staging, as: folder)
        return summary
    }

    /// Makes the renditions of `photos` on ImageCodecs' threads, two at a time.
    private static func make(
        _ photos: [GalleryPhoto], options: GalleryOptions, settings: String, into staging: String
    ) async throws(GalleryError) -> [(renditions: PhotoRenditions, bytes: Int)] {
        var results: [(renditions: PhotoRenditions, bytes: Int)?] = Array(repeating: nil, count: photos.count)
        do {
            try await withThrowingTaskGroup(of: (Int, (renditions: PhotoRenditions, bytes: Int)).self) { group in
                var next = 0
                func start() {
                    guard next < photos.count else { return }
                    let (index, photo) = (next, photos[next])
                    next += 1
                    group.addTask {
                        let result = try await ImageWorkers.shared.run { () throws(GalleryError) in
                            try GalleryRenditionMaker.make(photo, options: options, settings: settings, into: staging)
                        }
                        return (index, result)
                    }
                }
                for _ in 0..<2 { start() }
                while let (index, result) = try await group.next() {
                    results[index] = result
                    start()
                }
            }
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .writeFailed(path: staging, reason: "\(error)")
        }
        return results.map { $0! }
    }
}
