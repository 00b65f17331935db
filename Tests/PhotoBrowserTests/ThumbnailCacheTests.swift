import Foundation
import ImageCodecs
import TestSupport
import Testing
import VideoCodecs

@testable import PhotoBrowser

/// A scratch folder with photos and a cache home beside them.
private struct ThumbnailScratch {
    let root: String
    var photos: String { "\(root)/photos" }
    var cacheHome: String { "\(root)/cache" }
    var cache: ThumbnailCache { ThumbnailCache(root: "\(cacheHome)/thumbnails") }

    init() throws {
        root = NSTemporaryDirectory() + "thumbnails-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: "\(root)/photos", withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    @discardableResult
    func photo(_ name: String, width: Int = 600, height: Int = 400, seed: UInt64 = 1) throws -> String {
        let path = "\(photos)/\(name)"
        try Data(try noiseJPEG(width: width, height: height, seed: seed)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

@Suite("Thumbnails in the freedesktop cache", .dedicatedThreads)
struct ThumbnailCacheTests {
    @Test("a file's URI is GLib's, and its thumbnail is MD5(URI).png in the size's folder")
    func names() throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let names = ["a;b.jpg", "c&d é.jpg", "e#f%g?.jpg", "h[i]~!'(x)+,=@:$.jpg", "plain.jpg"]
        let paths = try names.map { try scratch.photo($0) }
        let uris = paths.map(ThumbnailCache.uri(forFileAt:))
        // GLib's own URIs for the same paths, as the desktop computes them.
        let glib = try Tumbler.thumbnails(of: uris, flavor: "normal", cacheHome: scratch.cacheHome).glibURIs
        #expect(uris == glib)
        #expect(ThumbnailCache.uri(forFileAt: "/tmp/x/./y/../a b.jpg") == "file:///tmp/x/a%20b.jpg")
        let cache = ThumbnailCache(root: "/home/u/.cache/thumbnails")
        // The MD5 of the URI: the name tumbler gave this URI's thumbnail.
        #expect(
            cache.path(forURI: "file:///tmp/tum/photos/water%20fall.jpg", size: .normal)
                == "/home/u/.cache/thumbnails/normal/b79ca9ba89a4ff45482c23cfebbb2dd0.png")
        #expect(cache.failurePath(forURI: "file:///a.jpg").hasPrefix("/home/u/.cache/thumbnails/fail/photodeck-1/"))
        #expect(ThumbnailCache.standard(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.root == "/x/thumbnails")
        #expect(ThumbnailCache.standard(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.root == "/h/.cache/thumbnails")
        #expect(ThumbnailCache.standard(environment: [:]) == nil)
        #expect(ThumbnailSize.covering(100) == .normal && ThumbnailSize.covering(200) == .large && ThumbnailSize.covering(5000) == .xxLarge)
    }

    @Test("thumbnails tumbler made are read, not made again; tumbler reads PhotoDeck's without remaking them")
    func desktopCompatibility() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let desktopMade = try (0..<3).map { try scratch.photo("desktop-\($0).jpg", seed: UInt64($0)) }
        let reply = try Tumbler.thumbnails(of: desktopMade.map(ThumbnailCache.uri(forFileAt:)), flavor: "normal", cacheHome: scratch.cacheHome)
        #expect(reply.finished && reply.ready.count == 3)
        let thumbnailer = Thumbnailer(cache: scratch.cache)
        for path in desktopMade {
            let thumbnail = try await thumbnailer.thumbnail(forFileAt: path, size: .normal)
            #expect(thumbnail.origin == .cache)
            #expect(thumbnail.bitmap.width == 128 && thumbnail.bitmap.height == 85)
        }
        let statistics = await thumbnailer.statistics
        #expect(statistics.decoded == 0 && statistics.cacheHits == 3)

        // The other way: PhotoDeck's thumbnails, then tumbler asked for the same files.
        let ours = try (0..<3).map { try scratch.photo("ours-\($0).jpg", seed: UInt64(10 + $0)) }
        var written: [String: Data] = [:]
        for path in ours {
            #expect(try await thumbnailer.thumbnail(forFileAt: path, size: .large).origin == .decoded)
            let file = scratch.cache.path(forURI: ThumbnailCache.uri(forFileAt: path), size: .large)
            written[file] = Data(try fileBytes(URL(fileURLWithPath: file)))
        }
        let again = try Tumbler.thumbnails(of: ours.map(ThumbnailCache.uri(forFileAt:)), flavor: "large", cacheHome: scratch.cacheHome)
        #expect(again.finished && again.ready.count == 3)
        for (file, bytes) in written {
            #expect(Data(try fileBytes(URL(fileURLWithPath: file))) == bytes, "tumbler remade \(file)")
        }
    }

    @Test("a video's thumbnail is its frame at a tenth of its length; tumbler's video thumbnails are read, and it does not remake ours")
    func videoThumbnails() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let source = try TestVideos.h264()
        let paths = try ["desktop.mp4", "ours.mp4"].map { name -> String in
            let path = "\(scratch.photos)/\(name)"
            try FileManager.default.copyItem(atPath: source, toPath: path)
            return path
        }
        let reply = try Tumbler.thumbnails(of: [ThumbnailCache.uri(forFileAt: paths[0])], flavor: "normal", cacheHome: scratch.cacheHome)
        #expect(reply.finished && reply.ready.count == 1, "tumbler thumbnails videos with GStreamer (gstreamer1.0-libav)")
        let thumbnailer = Thumbnailer(cache: scratch.cache)
        let desktop = try await thumbnailer.thumbnail(forFileAt: paths[0], size: .normal)
        #expect(desktop.origin == .cache && desktop.bitmap.width == 128 && desktop.bitmap.height == 96)

        let made = try await thumbnailer.thumbnail(forFileAt: paths[1], size: .normal)
        #expect(made.origin == .decoded)
        let poster = try VideoPosterFrame(ofFileAt: paths[1], at: .milliseconds(200), fitting: PixelSize(width: 128, height: 128))
        #expect(made.bitmap == poster.bitmap && poster.time == .milliseconds(200))
        #expect(try await thumbnailer.thumbnail(forFileAt: paths[1], size: .normal).origin == .cache)
        let file = scratch.cache.path(forURI: ThumbnailCache.uri(forFileAt: paths[1]), size: .normal)
        let written = Data(try fileBytes(URL(fileURLWithPath: file)))
        let again = try Tumbler.thumbnails(of: [ThumbnailCache.uri(forFileAt: paths[1])], flavor: "normal", cacheHome: scratch.cacheHome)
        #expect(again.finished && again.ready.count == 1)
        #expect(Data(try fileBytes(URL(fileURLWithPath: file))) == written, "tumbler remade PhotoDeck's video thumbnail")

        // Starts like an MP4, then is not one: a typed failure, recorded, not tried again.
        let broken = "\(scratch.photos)/broken.mp4"
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 7, count: 900)).write(to: URL(fileURLWithPath: broken))
        await #expect {
            try await thumbnailer.thumbnail(forFileAt: broken, size: .normal)
        } throws: { error in
            if case .videoUndecodable(let path, _) = error as? ThumbnailError { path == broken } else { false }
        }
        await #expect(throws: ThumbnailError.failedBefore(path: broken)) { try await thumbnailer.thumbnail(forFileAt: broken, size: .normal) }
    }

    @Test("a stored thumbnail: mode 0600 in 0700 folders, the URI, time and size in its text, fitted; stale once the file changes")
    func storeAndStaleness() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let path = try scratch.photo("IMG_1.jpg", width: 900, height: 300)
        let thumbnailer = Thumbnailer(cache: scratch.cache)
        let made = try await thumbnailer.thumbnail(forFileAt: path, size: .normal)
        #expect(made.origin == .decoded && made.bitmap.width == 128 && made.bitmap.height == 43)
        let uri = ThumbnailCache.uri(forFileAt: path)
        let file = scratch.cache.path(forURI: uri, size: .normal)
        #expect(try scratch.mode(file) == 0o600)
        #expect(try scratch.mode("\(scratch.cacheHome)/thumbnails/normal") == 0o700)
        let keys = PNGText.entries(in: try fileBytes(URL(fileURLWithPath: file)))
        let modified = try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(keys["Thumb::URI"] == uri)
        // Seconds with microseconds, as tumbler writes and checks them.
        let mtime = try #require(keys["Thumb::MTime"].flatMap(Double.init))
        #expect(abs(mtime - modified.timeIntervalSince1970) < 2e-6)
        #expect(keys["Thumb::Size"] == String(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1))
        #expect(try await thumbnailer.thumbnail(forFileAt: path, size: .normal).origin == .cache)
        // The file changes: the thumbnail is stale and made again.
        try FileManager.default.setAttributes([.modificationDate: modified.addingTimeInterval(60)], ofItemAtPath: path)
        #expect(scratch.cache.thumbnail(forFileAt: path, size: .normal) == nil)
        #expect(try await thumbnailer.thumbnail(forFileAt: path, size: .normal).origin == .decoded)
        // A thumbnail under the right name that names another file is not used.
        let other = try scratch.photo("other.jpg")
        let planted = scratch.cache.path(forURI: ThumbnailCache.uri(forFileAt: other), size: .normal)
        try FileManager.default.copyItem(atPath: scratch.cache.path(forURI: uri, size: .normal), toPath: planted)
        #expect(scratch.cache.thumbnail(forFileAt: other, size: .normal) == nil)
        #expect(await thumbnailer.statistics == Thumbnailer.Statistics(cacheHits: 1, embedded: 0, decoded: 2, failures: 0, storeErrors: 0))
    }

    @Test("Thumb::MTime: whole seconds (the standard, GNOME) or tumbler's fraction, equal to the microsecond")
    func modificationTimes() {
        #expect(ThumbnailCache.mtimeText(1_796_251_633_270_348_123) == "1796251633.270348")
        #expect(ThumbnailCache.mtimeText(1_796_251_633_000_005_000) == "1796251633.000005")
        #expect(ThumbnailCache.mtimeText(1_796_251_633_000_000_999) == "1796251633")
        let nanoseconds: Int64 = 1_796_251_633_270_348_123
        #expect(ThumbnailCache.matches("1796251633", nanoseconds))
        #expect(ThumbnailCache.matches("1796251633.270348", nanoseconds))
        #expect(!ThumbnailCache.matches("1796251633.270400", nanoseconds))
        #expect(!ThumbnailCache.matches("1796251634", nanoseconds))
        #expect(!ThumbnailCache.matches("", nanoseconds) && !ThumbnailCache.matches("17962x", nanoseconds) && !ThumbnailCache.matches("1.2.3", nanoseconds))
    }

    @Test("a file that is no image fails once, is recorded under fail/photodeck-1, and is tried again when it changes")
    func failures() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let path = "\(scratch.photos)/fake.jpg"
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: path))
        let thumbnailer = Thumbnailer(cache: scratch.cache)
        await #expect(throws: ThumbnailError.self) { try await thumbnailer.thumbnail(forFileAt: path, size: .normal) }
        #expect(scratch.cache.hasFailure(forFileAt: path))
        await #expect(throws: ThumbnailError.failedBefore(path: path)) { try await thumbnailer.thumbnail(forFileAt: path, size: .normal) }
        try Data(try noiseJPEG(width: 64, height: 64, seed: 3)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: path)
        #expect(try await thumbnailer.thumbnail(forFileAt: path, size: .normal).origin == .decoded)
        await #expect(throws: ThumbnailError.self) { try await thumbnailer.thumbnail(forFileAt: "\(scratch.photos)/missing.jpg", size: .normal) }
        #expect(await thumbnailer.statistics.failures == 3)
    }

    @Test("a JPEG's EXIF preview is used when it covers the size and has the photo's shape; bars or too small: decoded")
    func embeddedPreviews() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        func withPreview(_ name: String, preview: (Int, Int), orientation: Int = 1) throws -> String {
            let photo = try noiseJPEG(width: 1500, height: 1000, seed: 5)
            let thumb = "\(scratch.root)/\(name)-thumb.jpg"
            try Data(try noiseJPEG(width: preview.0, height: preview.1, seed: 6)).write(to: URL(fileURLWithPath: thumb))
            let bytes = try ExifTool.writing(["-ThumbnailImage<=\(thumb)", "-Orientation#=\(orientation)"], to: photo, fileExtension: "jpg")
            let path = "\(scratch.photos)/\(name).jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let thumbnailer = Thumbnailer(cache: nil)
        let good = try withPreview("good", preview: (240, 160))
        let normal = try await thumbnailer.thumbnail(forFileAt: good, size: .normal)
        #expect(normal.origin == .embedded && normal.bitmap.size == PixelSize(width: 128, height: 85))
        // Too small for 256: decoded.
        #expect(try await thumbnailer.thumbnail(forFileAt: good, size: .large).origin == .decoded)
        // 4:3 with bars for a 3:2 photo: refused.
        #expect(try await thumbnailer.thumbnail(forFileAt: try withPreview("bars", preview: (160, 120)), size: .normal).origin == .decoded)
        // Turned by the photo's orientation, like the photo.
        let turned = try await thumbnailer.thumbnail(forFileAt: try withPreview("turned", preview: (240, 160), orientation: 6), size: .normal)
        #expect(turned.origin == .embedded && turned.bitmap.size == PixelSize(width: 85, height: 128))
    }

    @Test("eight requests at once for one file share one decode")
    func coalescing() async throws {
        let scratch = try ThumbnailScratch()
        defer { scratch.cleanUp() }
        let path = try scratch.photo("shared.jpg", width: 2000, height: 1500)
        let thumbnailer = Thumbnailer(cache: scratch.cache)
        let sizes = try await withThrowingTaskGroup(of: PixelSize.self) { group in
            for _ in 0..<8 { group.addTask { try await thumbnailer.thumbnail(forFileAt: path, size: .large).bitmap.size } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 8 && Set(sizes) == [PixelSize(width: 256, height: 192)])
        let statistics = await thumbnailer.statistics
        // One decode; a request that came after it finished read the cache.
        #expect(statistics.decoded == 1 && statistics.failures == 0)
    }
}
