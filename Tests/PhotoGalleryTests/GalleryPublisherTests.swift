import Foundation
import ImageCodecs
import PhotoAlbum
import SystemSupport
import TestSupport
import Testing

@testable import PhotoGallery

/// Photos made for the gallery tests: generated scenes as JPEGs, seeded.
enum GalleryFixtures {
    /// A fresh folder under the temporary directory.
    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-gallery-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A JPEG of scene `seed`, `size` as stored, with `exif` (exiftool arguments) when given.
    static func jpeg(seed: UInt64, size: PixelSize, exif: [String] = []) throws -> [UInt8] {
        let bitmap = GeneratedScene(seed: seed).render(width: size.width, height: size.height)
        let bytes = try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        return exif.isEmpty ? bytes : try ExifTool.writing(exif, to: bytes, fileExtension: "jpg")
    }

    /// Gallery photos of `count` scenes (ids from their bytes), the `portrait`th stored sideways with orientation 6.
    static func photos(_ count: Int, size: PixelSize = PixelSize(width: 1600, height: 1200), firstSeed: UInt64 = 1, caption: String? = nil) throws
        -> [GalleryPhoto]
    {
        try (0..<count).map { index in
            let bytes = try jpeg(seed: firstSeed + UInt64(index), size: size)
            return try #require(GalleryPhoto(id: Digest.sha256Hex(bytes), caption: caption.map { "\($0) \(index + 1)" }) { bytes })
        }
    }

}

@Suite("Publishing a gallery", .dedicatedThreads)
struct GalleryPublisherTests {
    static let base = URL(string: "https://photos.example.com/trip")!

    @Test("pages, renditions and link cards: the grid in order, srcset and sizes, width and height, lazy below the first screen, nothing from elsewhere")
    func pages() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var photos = try GalleryFixtures.photos(7, size: PixelSize(width: 640, height: 480), caption: "Tram <28> & \"friends\"")
        // A photo stored sideways (EXIF orientation 6) and one with a place, a serial number and an owner.
        let sideways = try GalleryFixtures.jpeg(seed: 50, size: PixelSize(width: 1300, height: 975), exif: ["-Orientation#=6"])
        photos.append(try #require(GalleryPhoto(id: Digest.sha256Hex(sideways)) { sideways }))
        let located = try GalleryFixtures.jpeg(
            seed: 51, size: PixelSize(width: 1400, height: 933),
            exif: [
                "-GPSLatitude=38.7", "-GPSLatitudeRef=N", "-GPSLongitude=9.1", "-GPSLongitudeRef=W", "-SerialNumber=SN-99", "-OwnerName=Ana",
                "-Make=Canon", "-DateTimeOriginal=2024:05:01 10:00:00",
            ])
        photos.append(try #require(GalleryPhoto(id: Digest.sha256Hex(located)) { located }))
        let options = GalleryOptions(title: "Lisbon <script>alert(1)</script>", description: "Five days & trams", baseURL: Self.base)
        let summary = try await GalleryPublisher(options: options).publish(photos, to: "\(folder)/site")
        let site = "\(folder)/site"
        #expect(summary.photoCount == 9 && summary.filesKept == 0 && summary.warnings.isEmpty)

        let index = String(decoding: try fileBytes(URL(fileURLWithPath: "\(site)/index.html")), as: UTF8.self)
        // In order, each a link to its page; the first six load at once, the rest lazily.
        let hrefs = index.matches(of: /class="tile" id="([0-9a-f]{16})" href="p\/([0-9a-f]{16})\.html"/).map { String($0.output.1) }
        #expect(hrefs == photos.map { String($0.id.prefix(16)) })
        #expect(index.matches(of: /loading="lazy"/).count == 3)
        #expect(index.matches(of: /<source type="image\/webp" srcset="[^"]+" sizes="/).count == 9)
        #expect(index.matches(of: #/ width="\d+" height="\d+" alt="/#).count == 9)
        #expect(index.matches(of: /style="background-image:url\(data:image\/png;base64,[A-Za-z0-9+\/=]+\)"/).count == 9)
        // Text from outside is escaped, never markup.
        #expect(!index.contains("<script>alert") && index.contains("Lisbon &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(index.contains("Tram &lt;28&gt; &amp; &quot;friends&quot; 1"))
        // Link cards: absolute under the base URL, a JPEG at least 300 pixels wide.
        let image = try #require(index.firstMatch(of: /<meta property="og:image" content="https:\/\/photos\.example\.com\/trip\/(r\/[^"]+\.jpg)">/))
        let card = try ImageInfo(probingFileAt: "\(site)/\(image.output.1)")
        #expect(card.format == .jpeg && card.size.width >= 300)
        // The summary names that picture, to share with the gallery's link.
        #expect(summary.coverPicture == String(image.output.1))
        #expect(index.contains("<meta property=\"og:url\" content=\"https://photos.example.com/trip/\">"))
        // Nothing loads from elsewhere: every src, srcset and href is relative (or a data: URI).
        let pages = try folderContents(site).filter { $0.key.hasSuffix(".html") }
        #expect(pages.count == 10)
        for (name, bytes) in pages {
            let html = String(decoding: bytes, as: UTF8.self)
            for match in html.matches(of: /(?:src|href|srcset)="([^"]*)"/) {
                let value = String(match.output.1)
                #expect(!value.contains("//") && !value.hasPrefix("http"), "\(name): \(value)")
            }
        }

        // The sideways photo is upright in every rendition; the located one's renditions keep no place, serial or owner.
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(site)/r")
        let sidewaysFiles = files.filter { $0.hasPrefix(String(photos[7].id.prefix(16))) }
        #expect(sidewaysFiles.count == 10, "5 widths (240...975 upright), WebP and JPEG: \(sidewaysFiles.sorted())")
        for name in sidewaysFiles {
            let info = try ImageInfo(probingFileAt: "\(site)/r/\(name)")
            #expect(info.orientedSize.height > info.orientedSize.width && info.orientation == .up, "\(name)")
        }
        let largest = try #require(
            files.filter { $0.hasPrefix(String(photos[8].id.prefix(16))) && $0.hasSuffix(".jpg") }.max {
                (Int($0.split(separator: "-")[1]) ?? 0) < (Int($1.split(separator: "-")[1]) ?? 0)
            })
        #expect(largest.contains("-1400-"))
        let tags = try ExifTool.tags(ofFileAt: "\(site)/r/\(largest)")
        #expect(tags.keys.contains { $0.hasPrefix("GPS") } == false, "\(tags.keys.sorted())")
        #expect(tags["ExifIFD:SerialNumber"] == nil && tags["ExifIFD:OwnerName"] == nil)
        #expect(tags["IFD0:Make"] == "Canon" && tags["ExifIFD:DateTimeOriginal"] == "2024:05:01 10:00:00", "the share policy keeps camera and date")
        let small = try #require(files.first { $0.hasPrefix(String(photos[8].id.prefix(16))) && $0.contains("-240-") && $0.hasSuffix(".jpg") })
        #expect(try ExifTool.tags(ofFileAt: "\(site)/r/\(small)")["IFD0:Make"] == nil, "thumbnails carry no metadata")

        // A photo page: its picture, caption, and the links around it.
        let second = String(decoding: try #require(pages["p/\(photos[1].id.prefix(16)).html"]), as: UTF8.self)
        #expect(second.contains("<a rel=\"prev\" href=\"\(photos[0].id.prefix(16)).html\">"))
        #expect(second.contains("<a rel=\"next\" href=\"\(photos[2].id.prefix(16)).html\">"))
        #expect(second.contains("<figcaption>Tram &lt;28&gt; &amp; &quot;friends&quot; 2</figcaption>"))
        #expect(second.contains("<span class=\"position\">2 / 9</span>"))
        #expect(second.contains("content=\"https://photos.example.com/trip/p/\(photos[1].id.prefix(16)).html\""))
        // What the pages weigh without pictures: each photo's page about 5 KB (its placeholder about 1.5 KB of it).
        #expect(summary.pageBytes < 90_000, "\(summary.pageBytes) bytes of pages")
    }

    @Test("a caption is a claim: trimmed, cut to 300 characters, escaped, and none when blank")
    func captions() {
        #expect(GalleryPages.shownCaption("  Tram <28>\n") == "Tram &lt;28&gt;")
        #expect(GalleryPages.shownCaption(" \n\t ") == nil && GalleryPages.shownCaption(nil) == nil)
        let long = GalleryPages.shownCaption(String(repeating: "长", count: 60_000))
        #expect(long == String(repeating: "长", count: 299) + "…")
    }

    @Test("republishing after adding two photos writes their files and the pages that changed; an unchanged republish writes nothing")
    func incremental() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let site = "\(folder)/site"
        let photos = try GalleryFixtures.photos(8, size: PixelSize(width: 900, height: 600))
        let publisher = GalleryPublisher(options: GalleryOptions(title: "Trip", baseURL: Self.base))
        let first = try await publisher.publish(Array(photos.prefix(6)), to: site)
        // 900 pixels wide: 240, 360, 540, 810 and 900, each WebP and JPEG; 6 pages, the index, style, script, manifest and mark.
        #expect(first.renditionCount == 60 && first.filesWritten == 60 + 11 && first.filesKept == 0)
        let before = try folderContents(site)

        let second = try await publisher.publish(photos, to: site)
        // Written: the two photos' renditions, the index, the manifest, and every page (each says "of 8" now).
        #expect(second.filesWritten == 20 + 2 + 8, "\(second)")
        #expect(second.filesKept == 60 + 3, "\(second)")
        let after = try folderContents(site)
        for (name, bytes) in before where name.hasPrefix("r/") {
            let same = after[name] == bytes
            #expect(same, "\(name) kept as it was")
        }
        #expect(after["p/\(photos[5].id.prefix(16)).html"] != before["p/\(photos[5].id.prefix(16)).html"])

        let third = try await publisher.publish(photos, to: site)
        #expect(third.filesWritten == 0 && third.bytesWritten == 0, "\(third)")
        let unchanged = try folderContents(site) == after
        #expect(unchanged)

        // Another quality changes every rendition's bytes: nothing is kept by name alone.
        let requality = try await GalleryPublisher(options: GalleryOptions(title: "Trip", baseURL: Self.base, webpQuality: 60)).publish(photos, to: site)
        #expect(requality.filesWritten >= 80)
        // Nothing is left beside the gallery.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["site"])
    }

    @Test("a publish that fails part way leaves the previous gallery as it was, and the next one clears what it left")
    func interrupted() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let site = "\(folder)/site"
        let photos = try GalleryFixtures.photos(3, size: PixelSize(width: 600, height: 400))
        let publisher = GalleryPublisher(options: GalleryOptions(title: "Trip"))
        _ = try await publisher.publish(photos, to: site)
        let before = try folderContents(site)
        let broken = try #require(GalleryPhoto(id: String(repeating: "ab", count: 32)) { throw CocoaError(.fileReadCorruptFile) })
        await #expect(throws: GalleryError.self) { try await publisher.publish(photos + [broken], to: site) }
        let garbage = try #require(GalleryPhoto(id: String(repeating: "cd", count: 32)) { Array("not a picture".utf8) })
        await #expect(throws: GalleryError.self) { try await publisher.publish([garbage] + photos, to: site) }
        let intact = try folderContents(site) == before
        #expect(intact, "the previous gallery, byte for byte")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["site"])

        // A publish killed after writing some of the new gallery: its staging folder is still there, marked.
        let stale = "\(folder)/.site.publishing-0123456789abcdef"
        try FileManager.default.createDirectory(atPath: "\(stale)/r", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: "\(stale)/.photodeck-publishing"))
        // Someone else's folder of that shape, unmarked, is left alone.
        let foreign = "\(folder)/.site.publishing-fedcba9876543210"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        _ = try await publisher.publish(photos, to: site)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".site.publishing-fedcba9876543210", "site"])
    }

    @Test("a folder that is not a gallery is never replaced; a hostile manifest is read as a claim; options are checked")
    func refusals() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photos = try GalleryFixtures.photos(2, size: PixelSize(width: 500, height: 400))
        let publisher = GalleryPublisher(options: GalleryOptions(title: "Trip"))
        let mine = "\(folder)/documents"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Data("thesis".utf8).write(to: URL(fileURLWithPath: "\(mine)/thesis.txt"))
        await #expect(throws: GalleryError.notAGallery(path: mine)) { try await publisher.publish(photos, to: mine) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine) == ["thesis.txt"])
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/linked", withDestinationPath: mine)
        await #expect(throws: GalleryError.notAGallery(path: "\(folder)/linked")) { try await publisher.publish(photos, to: "\(folder)/linked") }

        // A manifest that lies: a placeholder that would break out of its attribute, widths the ladder never makes.
        let site = "\(folder)/site"
        _ = try await publisher.publish(photos, to: site)
        var manifest = try #require(GalleryManifest.read(inGallery: site))
        for id in manifest.photos.keys {
            manifest.photos[id]?.placeholder = "data:image/png;base64,\")\"><script>alert(1)</script>"
        }
        try Data(manifest.encoded()).write(to: URL(fileURLWithPath: "\(site)/gallery.json"))
        let remade = try await publisher.publish(photos, to: site)
        #expect(remade.filesWritten >= 12, "500 pixels wide: 240, 360 and 500, WebP and JPEG, for each photo")
        let index = String(decoding: try fileBytes(URL(fileURLWithPath: "\(site)/index.html")), as: UTF8.self)
        #expect(!index.contains("<script>alert"))
        // A manifest that does not read at all: the gallery is still PhotoDeck's (its mark says so), made again.
        try Data(repeating: 0x7B, count: 64).write(to: URL(fileURLWithPath: "\(site)/gallery.json"))
        _ = try await publisher.publish(photos, to: site)
        #expect(GalleryManifest.read(inGallery: site) != nil)

        for bad in [
            GalleryOptions(title: " "), GalleryOptions(title: "T", baseURL: URL(string: "ftp://example.com/")),
            GalleryOptions(title: "T", widths: [200, 400]), GalleryOptions(title: "T", webpQuality: 101),
        ] {
            await #expect(throws: GalleryError.self) { try await GalleryPublisher(options: bad).publish(photos, to: "\(folder)/other") }
        }
        await #expect(throws: GalleryError.empty) { try await publisher.publish([], to: "\(folder)/other") }
        await #expect(throws: GalleryError.duplicateID(photos[0].id)) { try await publisher.publish([photos[0], photos[0]], to: "\(folder)/other") }
        #expect(GalleryPhoto(id: "UPPER-case") { [] } == nil && GalleryPhoto(id: "../../etc") { [] } == nil)
    }

    @Test("an album publishes as a share sends it: in its order, a burst by its cover, videos left out, captions from EXIF")
    func album() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await AlbumStore.open(directory: "\(folder)/store")
        try await store.createAlbum(named: "Trip")
        let captioned = try GalleryFixtures.jpeg(seed: 70, size: PixelSize(width: 800, height: 600), exif: ["-ImageDescription=Sunset at the pier"])
        let stock = try GalleryFixtures.jpeg(seed: 71, size: PixelSize(width: 800, height: 600), exif: ["-ImageDescription=OLYMPUS DIGITAL CAMERA"])
        for (name, bytes) in [("a.jpg", captioned), ("b.jpg", stock)] {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
            _ = try await store.importFile(at: "\(folder)/\(name)", into: "Trip")
        }
        let photos = try await GalleryPhoto.photos(of: "Trip", in: store)
        #expect(photos.map(\.caption) == ["Sunset at the pier", nil])
        let summary = try await GalleryPublisher(options: GalleryOptions(title: "Trip")).publish(photos, to: "\(folder)/site")
        #expect(summary.photoCount == 2 && summary.warnings.count == 1)
        await store.close()
    }
}
