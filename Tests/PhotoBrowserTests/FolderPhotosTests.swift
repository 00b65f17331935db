import Foundation
import ImageCodecs
import TestSupport
import Testing
import VideoCodecs

@testable import PhotoBrowser

/// A scratch folder of generated photos.
private struct PhotoFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "folder-photos-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a JPEG of `width`×`height` taken on `day` (none when nil) at `name` (folders made).
    @discardableResult
    func photo(_ name: String, width: Int = 48, height: Int = 32, day: Int? = nil, seed: UInt64 = 1) throws -> String {
        var generator = SeededGenerator(seed: seed)
        let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let bitmap = try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        let exif = day.map { ExifMetadata(orientation: .up, captureDate: CaptureDate(year: 2024, month: 3, day: $0, hour: 9, minute: 0, second: 0)) }
        let bytes = try bitmap.encoded(as: .jpeg, options: EncodeOptions(exif: exif))
        return try file(name, bytes)
    }

    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = "\(path)/\(name)"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func names(_ photos: FolderPhotos) async throws -> [String] {
        var names: [String] = []
        for index in 0..<(await photos.count) {
            names.append(String(try await photos.photo(at: index).id.dropFirst(path.count + 1)))
        }
        return names
    }
}

@Suite("Folder photos", .dedicatedThreads)
struct FolderPhotosTests {
    @Test("natural order: digit runs compare as numbers, and the order is total")
    func naturalOrder() {
        let names = ["IMG_10.jpg", "IMG_9.jpg", "img_1.jpg", "IMG_010.jpg", "IMG_1.jpg", "a/b2", "a/b10", "IMG_9a.jpg"]
        #expect(
            names.sorted(by: NaturalOrder.areInIncreasingOrder) == [
                "IMG_1.jpg", "IMG_9.jpg", "IMG_9a.jpg", "IMG_010.jpg", "IMG_10.jpg", "a/b2", "a/b10", "img_1.jpg",
            ])
        #expect(["b10", "b9", "a"].sorted(by: NaturalOrder.areInIncreasingOrder) == ["a", "b9", "b10"])
        #expect(NaturalOrder.compare(Array("x07".utf8), Array("x7".utf8)) != 0)
    }

    @Test("the sort by keys gives the pairwise comparison's order: 20,000 seeded names of digits, letters, zeros, bytes around the digits and UTF-8")
    func naturalSortKeys() {
        var random = SeededGenerator(seed: 26)
        // Bytes that sit next to the digits ("/", ":"), leading zeros, long digit runs and non-ASCII.
        let pieces = ["0", "00", "7", "07", "10", "9", "123456789012345678901234567890", "a", "A", "_", "/", ":", ".", "é", "-", " "]
        let names = (0..<20_000).map { _ in (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        let byKeys = NaturalOrder.sorted(names) { $0 }
        let pairwise = names.sorted { NaturalOrder.compare(Array($0.utf8), Array($1.utf8)) < 0 }
        #expect(byKeys == pairwise)
        // Keys alone: "07" and "7" are equal as numbers; the bytes decide after.
        #expect(NaturalOrder.sortKey(Array("x07".utf8)) == NaturalOrder.sortKey(Array("x7".utf8)))
        #expect(NaturalOrder.sorted(["x7", "x07", "x10", "x9:", "x9/"]) { $0 } == ["x07", "x7", "x9/", "x9:", "x10"])
    }

    @Test("a folder is listed recursively by name: hidden entries, other files and linked folders are skipped")
    func listing() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        try folder.photo("IMG_10.jpg")
        try folder.photo("IMG_2.JPG")
        try folder.photo("sub/deeper/c.jpg")
        try folder.photo(".hidden.jpg")
        try folder.photo(".thumbnails/t.jpg")
        try folder.file("notes.txt", Array("not a photo".utf8))
        try folder.file("broken.png", Array("not a png either".utf8))
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/link.jpg", withDestinationPath: "\(folder.path)/IMG_10.jpg")
        // A link back up the tree: following it would never end.
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/sub/loop", withDestinationPath: folder.path)
        let photos = try FolderPhotos(paths: [folder.path])
        #expect(try await folder.names(photos) == ["IMG_2.JPG", "IMG_10.jpg", "broken.png", "link.jpg", "sub/deeper/c.jpg"])
        // A file named on its own is listed whatever its name; the order given is kept.
        let named = try FolderPhotos(paths: ["\(folder.path)/notes.txt", "\(folder.path)/sub"])
        #expect(try await folder.names(named) == ["notes.txt", "sub/deeper/c.jpg"])
        #expect(throws: BrowserError.unreadable(path: "\(folder.path)/missing", reason: "it does not exist")) {
            try FolderPhotos(paths: ["\(folder.path)/missing"])
        }
    }

    @Test("opening reads no header; a page reads its own once; a file that is not an image is a page that says why")
    func lazyProbes() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        let first = try folder.photo("a.jpg", width: 60, height: 40)
        for index in 0..<300 { try FileManager.default.linkItem(atPath: first, toPath: "\(folder.path)/b\(index).jpg") }
        try folder.file("c.jpg", Array("plain text named like a photo".utf8))
        let photos = try FolderPhotos(paths: [folder.path])
        #expect(await photos.count == 302)
        #expect(await photos.probedCount == 0)
        let session = try await PhotoBrowserSession(
            collection: photos, settings: BrowserPager.Settings(viewportSize: CGSize(width: 100, height: 100), screenScale: 1, prefetchRadius: 1))
        #expect(await photos.probedCount == 1)
        let page = try await session.currentPage()
        #expect(page.photo.displaySize == PixelSize(width: 60, height: 40))
        await session.waitForPrefetches()
        // The shown page and its one neighbour: not 302.
        #expect(await photos.probedCount == 2)
        _ = try await photos.photo(at: 0)
        #expect(await photos.probedCount == 2)
        let last = try await photos.photo(at: 301)
        #expect(last.displaySize == PixelSize(width: 1, height: 1))
        try await session.showPage(301)
        await #expect(throws: BrowserError.self) { try await session.currentPage() }
    }

    @Test("sorting by capture date reads every header; undated photos go last by name; the shown photo stays on screen")
    func captureDateOrder() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        try folder.photo("a.jpg", day: 20)
        try folder.photo("b.jpg")
        try folder.photo("c.jpg", day: 5)
        try folder.photo("d.jpg", day: 12)
        try folder.photo("e.jpg")
        let photos = try FolderPhotos(paths: [folder.path])
        let session = try await PhotoBrowserSession(
            collection: photos, settings: BrowserPager.Settings(viewportSize: CGSize(width: 90, height: 60), screenScale: 1), startingAt: 3)
        _ = try await session.handle(.pinch(scale: 2, center: CGPoint(x: 45, y: 30)))
        let zoom = await session.pager.state.zoom
        #expect(try await session.currentPage().photo.id.hasSuffix("/d.jpg"))
        try await photos.reorder(by: .captureDate)
        #expect(await photos.order == .captureDate)
        #expect(await photos.probedCount == 5)
        #expect(try await folder.names(photos) == ["c.jpg", "d.jpg", "a.jpg", "b.jpg", "e.jpg"])
        #expect(await session.collectionReordered() == 1)
        let page = try await session.currentPage()
        #expect(page.index == 1 && page.photo.id.hasSuffix("/d.jpg"))
        #expect(await session.pager.state.zoom == zoom)
        // Back to names.
        try await photos.reorder(by: .name)
        #expect(try await folder.names(photos) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"])
        #expect(await session.collectionReordered() == 3)
    }

    @Test("sorting by modification time, ties by name")
    func modifiedOrder() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        let times: [(String, Double)] = [("a.jpg", 3_000), ("b.jpg", 1_000), ("c.jpg", 2_000), ("d.jpg", 1_000)]
        for (name, seconds) in times {
            let path = try folder.photo(name)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
        }
        let photos = try FolderPhotos(paths: [folder.path])
        try await photos.reorder(by: .modified)
        #expect(try await folder.names(photos) == ["b.jpg", "d.jpg", "c.jpg", "a.jpg"])
        // Times need no header.
        #expect(await photos.probedCount == 4)  // read by names(_:) itself, not by the sort
        #expect(await photos.index(ofPhotoWithID: "\(folder.path)/a.jpg") == 3)
        #expect(await photos.index(ofPhotoWithID: "\(folder.path)/zzz.jpg") == nil)
        #expect(PhotoOrder.name.next == .modified && PhotoOrder.captureDate.next == .name)
    }
}

/// Videos among a folder's photos: listed by their names, paged as videos
/// whose rendition is the poster frame.
@Suite("Folder photos: video pages", .dedicatedThreads)
struct FolderVideoPageTests {
    @Test("a video is a page sized by its container (upright), its rendition the first frame; its length on the page")
    func videoPages() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        try folder.photo("a.jpg")
        let clip = try folder.file("b.mp4", try fileBytes(URL(fileURLWithPath: try TestVideos.h264())))
        let turnedSource = try TestVideos.make("pages-turned-90.mov", ["-i", try TestVideos.h264(), "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let turned = try folder.file("c.MOV", try fileBytes(URL(fileURLWithPath: turnedSource)))
        try folder.file("d.mp4", Array("not a video".utf8))
        let photos = try FolderPhotos(paths: [folder.path])
        #expect(try await folder.names(photos) == ["a.jpg", "b.mp4", "c.MOV", "d.mp4"])

        let video = try await photos.photo(at: 1)
        #expect(video.motion == .video(duration: .seconds(2)) && video.isVideo)
        #expect(video.displaySize == PixelSize(width: 320, height: 240) && video.source == .file(clip))
        let poster = try await video.loadRendition(fitting: PixelSize(width: 160, height: 160))
        #expect(poster == (try VideoPosterFrame(ofFileAt: clip, fitting: PixelSize(width: 160, height: 160))).bitmap)
        #expect(throws: ImageCodecError.self) { try video.rendition(fitting: PixelSize(width: 10, height: 10)) }

        let upright = try await photos.photo(at: 2)
        #expect(upright.displaySize == PixelSize(width: 240, height: 320))
        #expect(try BrowserPhoto(fileAt: turned).motion == .video(duration: .seconds(2)))
        // Named like a video, not one: a page that says why, as a bad photo is.
        let fake = try await photos.photo(at: 3)
        #expect(fake.motion == nil && fake.displaySize == PixelSize(width: 1, height: 1))
        #expect(throws: ImageCodecError.self) { try BrowserPhoto(fileAt: "\(folder.path)/d.mp4") }
        #expect(try await photos.photo(at: 0).motion == nil)
    }

    @Test("Live Photos: a still and a video with the same identifier in one folder are one page; others, and explicit files, stay pages of their own")
    func livePhotos() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        let first = "4F1B2C3D-0000-4A5B-8C9D-000000000001"
        let second = "4F1B2C3D-0000-4A5B-8C9D-000000000002"
        try folder.file("IMG_0001.JPG", try TestLivePhotos.still(identifier: first))
        let motion = try TestLivePhotos.motion("pair-1.mov", identifier: first)
        try folder.file("IMG_0001.MOV", try fileBytes(URL(fileURLWithPath: motion)))
        // A still whose video carries another identifier, and a lone video with the first identifier elsewhere.
        try folder.file("IMG_0002.JPG", try TestLivePhotos.still(identifier: second))
        try folder.file(
            "IMG_0002.MOV", try fileBytes(URL(fileURLWithPath: try TestLivePhotos.motion("pair-3.mov", identifier: "4F1B2C3D-0000-4A5B-8C9D-000000000003"))))
        try folder.file("other/IMG_0009.MOV", try fileBytes(URL(fileURLWithPath: motion)))
        try folder.photo("IMG_0003.jpg")
        let photos = try FolderPhotos(paths: [folder.path])
        #expect(await photos.count == 6)
        #expect(try await photos.pairLivePhotos() == 1)
        #expect(try await folder.names(photos) == ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0002.MOV", "IMG_0003.jpg", "other/IMG_0009.MOV"])
        let live = try await photos.photo(at: 0)
        #expect(live.motion == .livePhoto(motionPath: "\(folder.path)/IMG_0001.MOV"))
        #expect(try await photos.photo(at: 1).motion == nil)
        #expect(await photos.index(ofPhotoWithID: "\(folder.path)/IMG_0001.MOV") == nil)
        // Pairing again finds nothing new; a sort keeps the video out of the pages.
        #expect(try await photos.pairLivePhotos() == 0)
        try await photos.reorder(by: .captureDate)
        #expect(await photos.count == 5)
        try await photos.reorder(by: .name)
        #expect(try await folder.names(photos).first == "IMG_0001.JPG")
    }

    @Test("Live Photo pairing in the viewer's session: the shown photo stays on screen, renumbered, and the count drops")
    func livePhotosInSession() async throws {
        let folder = try PhotoFolder()
        defer { folder.cleanUp() }
        let identifier = "4F1B2C3D-0000-4A5B-8C9D-00000000000A"
        try TestLivePhotos.writePair(in: folder.path, stem: "A", identifier: identifier)
        try folder.photo("B.jpg")
        let photos = try FolderPhotos(paths: [folder.path])
        let session = try await PhotoBrowserSession(
            collection: photos, settings: BrowserPager.Settings(viewportSize: CGSize(width: 160, height: 120), screenScale: 1))
        try await session.showPage(2)
        #expect(await session.currentPhoto.id.hasSuffix("/B.jpg"))
        try await photos.pairLivePhotos()
        #expect(await session.collectionReordered() == 1)
        #expect(await session.currentPhoto.id.hasSuffix("/B.jpg"))
        #expect(await session.collectionCount == 2)

        // Shown while it is paired, the still's page takes its motion (same page, same zoom).
        let fresh = try FolderPhotos(paths: [folder.path])
        let stillFirst = try await PhotoBrowserSession(
            collection: fresh, settings: BrowserPager.Settings(viewportSize: CGSize(width: 160, height: 120), screenScale: 1))
        #expect(await stillFirst.currentPhoto.motion == nil)
        try await fresh.pairLivePhotos()
        #expect(await stillFirst.collectionReordered() == 0)
        #expect(await stillFirst.currentPhoto.motion == .livePhoto(motionPath: "\(folder.path)/A.MOV"))
    }
}
