import FakeWeibo
import Foundation
import ImageCodecs
import SQLiteSupport
import ServiceKitTesting
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The second audit's findings, through the release tools a person runs:
/// what the SDK wrote earlier (a journal, a cache index, the thumbnail
/// cache, a key file) and what a server sends (URLs, trickling answers,
/// panoramas) are claims. Each run ends in bounded time and memory, with
/// nothing outside the SDK's own folders touched.
@Suite("Hostile state and answers through the examples", .serialized)
struct HostileStateTests {
    static func scratch(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs an example under GNU time: its result, its peak resident memory
    /// in MB, and how long it took.
    static func measured(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (
        result: ExampleProcess.Result, peakMB: Double, seconds: Double
    ) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ExampleProcess.run(
            "/usr/bin/time", ["-f", "%M", "-o", report, ExampleProcess.executable(name).path] + arguments, environment: environment)
        let seconds = (clock.now - started).inSeconds
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kilobytes = text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.last ?? .infinity
        return (result, kilobytes / 1024, seconds)
    }

    // MARK: The album journal

    @Test("photo-album: a journal line with sequence Int.max, and a GiB of NUL bytes after the last line, list in bounded memory")
    func albumJournal() async throws {
        let work = try Self.scratch("journal")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        let photos = try ViewerHarness.photoFolder([(64, 48), (48, 64)])
        defer { try? FileManager.default.removeItem(atPath: photos) }
        let made = try await ExampleProcess.run("photo-album", ["--store", store, "import", "--album", "Trip", photos])
        #expect(made.status == 0, "\(made.standardOutput) \(made.standardError)")
        let journal = "\(store)/albums.journal"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n{\"seq\":9223372036854775807,\"op\":\"album\",\"album\":\"Evil\",\"at\":0}\n".utf8))
        try handle.close()
        let evil = try await ExampleProcess.run("photo-album", ["--store", store, "list"])
        #expect(evil.status == 0, "exit \(evil.status) (\(evil.reason)): \(evil.standardError)")
        #expect(evil.standardOutput.contains("Trip") && !evil.standardOutput.contains("Evil"))
        #expect(evil.standardError.contains("1 unreadable journal lines skipped"), "\(evil.standardError)")
        // 1 GiB of NUL bytes after it (sparse: the disk holds none of them); `make bench NAME=hostile` measures 3 GiB.
        #expect(truncate(journal, off_t(try FileSystem.status(of: journal).size + (1 << 30))) == 0)
        let tail = try await Self.measured("photo-album", ["--store", store, "list"])
        #expect(tail.result.status == 0, "\(tail.result.standardError)")
        #expect(tail.result.standardOutput.contains("Trip"))
        #expect(tail.peakMB < DecompressionBombTests.bound(64), "peak \(tail.peakMB) MB")
        print("photo-album list past a 1 GiB tail: \(tail.seconds) s, \(tail.peakMB) MB")
        let check = try await ExampleProcess.run("photo-album", ["--store", store, "check"])
        #expect(check.standardOutput.contains("consistent: 2 photos"), "\(check.standardOutput)")
    }

    // MARK: The image cache

    @Test("photo-browser: a cache index row naming ../../../../home/Documents leaves that folder and its files as they were")
    func imageCacheIndex() async throws {
        let work = try Self.scratch("cache-index")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let documents = "\(work)/home/Documents"
        try FileManager.default.createDirectory(atPath: "\(documents)/letters", withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: "\(documents)/letters/one.txt"))
        let cache = "\(work)/cache/photodeck/images"
        let photo = try Bitmap.noise(width: 64, height: 48, seed: 4).encoded(as: .jpeg)
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: ["Cache-Control": "max-age=3600"], body: photo) }
        defer { server.stop() }
        let environment = ["COLUMNS": "40", "LINES": "12", "PHOTODECK_IMAGE_CACHE": cache]
        let arguments = ["--display", "ansi", "--once", server.url(path: "/a.jpg").absoluteString]
        #expect(try await ExampleProcess.run("photo-browser", arguments, environment: environment).status == 0)
        // The row another program planted: from data/, ../../../../home/Documents is the folder above.
        let index = try SQLiteDatabase(path: "\(cache)/index.sqlite")
        try index.execute("INSERT INTO entries VALUES ('https://x/y', '../../../../home/Documents', 7, 'x', X'7B7D', 0)")
        index.close()
        let again = try await ExampleProcess.run("photo-browser", arguments, environment: environment)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try String(contentsOfFile: "\(documents)/letters/one.txt", encoding: .utf8) == "keep me")
        var info = stat()
        #expect(stat(cache, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    // MARK: The thumbnail cache

    @Test("photo-browser --grid: thumbnails/normal planted as a link to another folder is not written through; wide folders become 0700")
    func thumbnailLinks() async throws {
        let work = try Self.scratch("thumbnails")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let photos = try ViewerHarness.photoFolder([(64, 48), (48, 64)])
        defer { try? FileManager.default.removeItem(atPath: photos) }
        let cacheHome = "\(work)/cache"
        let elsewhere = "\(work)/elsewhere"
        try FileManager.default.createDirectory(atPath: "\(cacheHome)/thumbnails", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        #expect(chmod("\(cacheHome)/thumbnails", 0o755) == 0)
        #expect(symlink(elsewhere, "\(cacheHome)/thumbnails/normal") == 0)
        let environment = ["COLUMNS": "40", "LINES": "12", "XDG_CACHE_HOME": cacheHome]
        let arguments = ["--display", "ansi", "--once", "--grid", "--stats", photos]
        let linked = try await ExampleProcess.run("photo-browser", arguments, environment: environment)
        #expect(linked.status == 0, "\(linked.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing written through the link")
        // The grid still shows: thumbnails are made, only not kept.
        #expect(linked.standardOutput.contains("2 decoded"), "\(linked.standardOutput)")
        var info = stat()
        #expect(stat("\(cacheHome)/thumbnails", &info) == 0 && info.st_mode & 0o777 == 0o700)
        // Without the link, the folder is made 0700 and used.
        try FileManager.default.removeItem(atPath: "\(cacheHome)/thumbnails/normal")
        #expect(try await ExampleProcess.run("photo-browser", arguments, environment: environment).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(cacheHome)/thumbnails/normal").count == 2)
        #expect(stat("\(cacheHome)/thumbnails/normal", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    // MARK: The key file

    @Test("photo-browser: a 64 MiB keys.conf is refused unread in one short line; the viewer still opens")
    func bigKeyFile() async throws {
        let work = try Self.scratch("keys")
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: "\(work)/photodeck", withIntermediateDirectories: true)
        let keys = "\(work)/photodeck/keys.conf"
        _ = FileManager.default.createFile(atPath: keys, contents: nil)
        #expect(truncate(keys, 64 << 20) == 0)
        let photos = try ViewerHarness.photoFolder([(64, 48)])
        defer { try? FileManager.default.removeItem(atPath: photos) }
        let run = try await Self.measured(
            "photo-browser", ["--display", "ansi", "--once", photos], environment: ["COLUMNS": "40", "LINES": "12", "XDG_CONFIG_HOME": work])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(run.result.standardError.contains("over the 65536 a key file may have"), "\(run.result.standardError)")
        #expect(run.result.standardError.utf8.count < 1_024, "\(run.result.standardError.utf8.count) bytes on standard error")
        #expect(run.peakMB < 128, "peak \(run.peakMB) MB")
    }

    // MARK: Answers from servers

    @Test("photo-browser --once on a URL that sends a byte every 500 ms ends at its deadline, with one request, saying it timed out")
    func tricklingURL() async throws {
        let server = try LoopbackHTTPServer { _ in .stream(status: 200, declaredLength: 100_000, chunk: [0xFF], repeats: 100_000, interval: .milliseconds(500))
        }
        defer { server.stop() }
        let cache = try Self.scratch("trickle")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let run = try await Self.measured(
            "photo-browser", ["--display", "ansi", "--once", server.url(path: "/slow.jpg").absoluteString],
            environment: ["COLUMNS": "120", "LINES": "10", "PHOTODECK_IMAGE_CACHE": cache, "PHOTODECK_DOWNLOAD_DEADLINE": "3"])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(run.result.standardOutput.contains("timed out"), "\(run.result.standardOutput)")
        // One request: before, each of three attempts, for each of the page's two downloads, had a deadline of its own.
        #expect(server.requests.count == 1, "\(server.requests.count) requests")
        // The deadline, plus the process's start and first screen (before: 18 s and more).
        // Not under a sanitizer, whose start-up and slowdown on a loaded machine
        // took 16.5 s once; the one request above tells old from new there.
        if ProcessInfo.processInfo.environment["PHOTODECK_SANITIZER"] == nil {
            #expect(run.seconds < 15, "took \(run.seconds) s")
        }
    }

    // Its measure is the process's peak memory, which a sanitizer's shadow and quarantine blur (487 MB under
    // ASan for this run, against 61 MB without): it runs in the plain suite, where that figure means something.
    @Test(
        "photo-browser --grid of 8 URLs of a 65,535 x 1,525 PNG: decodes in flight share a budget; memory stays bounded",
        .enabled(if: ProcessInfo.processInfo.environment["PHOTODECK_SANITIZER"] == nil))
    func panoramaGrid() async throws {
        let wide = Array(try Data(contentsOf: URL(fileURLWithPath: "\(DecompressionBombTests.fixtures)/wide-65535x1525.png")))
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: ["Cache-Control": "max-age=60"], body: wide) }
        defer { server.stop() }
        let cache = try Self.scratch("panoramas")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // 8 here (a debug build decodes 100 MP slowly); `make bench NAME=hostile` measures 16 in a release build.
        let urls = (1...8).map { server.url(path: "/w\($0).png").absoluteString }
        let run = try await Self.measured(
            "photo-browser", ["--display", "ansi", "--once", "--grid"] + urls,
            environment: ["COLUMNS": "100", "LINES": "40", "PHOTODECK_IMAGE_CACHE": "\(cache)/images", "XDG_CACHE_HOME": cache])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(run.result.standardOutput.contains("1/8  w1.png  grid"), "\(run.result.standardOutput.suffix(300))")
        // Before: 3.6 GB for 16 in a release build. Each decode now holds its ring (at most 16 MiB), a batch of rows and a small result.
        #expect(run.peakMB < 256, "peak \(run.peakMB) MB")
        print("photo-browser --grid, 8 panoramas: \(run.seconds) s, \(run.peakMB) MB")
    }

    @Test("weibo-client: a picture URL of file:// in a timeline is never read; the post is shown without it and the field named")
    func fileURLFromServer() async throws {
        let run = try await RemotePhotoTests.signedIn()
        let cache = try Self.scratch("weibo-pictures")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // A private photo on this machine that a hostile answer names.
        let privatePhoto = "\(cache)/private-photo.jpg"
        try Data(try Bitmap.noise(width: 64, height: 48, seed: 8).encoded(as: .jpeg)).write(to: URL(fileURLWithPath: privatePhoto))
        let post =
            #"{"idstr":"9","text":"a private photo","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2","screen_name":"y"},"thumbnail_pic":"file://\#(privatePhoto)","pic_urls":[{"thumbnail_pic":"file://\#(privatePhoto)"}]}"#
        run.fake.answerNext("/2/statuses/home_timeline.json", with: #"{"statuses":[\#(post)],"next_cursor":0}"#)
        let result = try await run(
            ["timeline", "--pictures", "--display", "kitty"], environment: ["COLUMNS": "80", "LINES": "40", "PHOTODECK_IMAGE_CACHE": "\(cache)/images"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TerminalPayloads.kittyImages(in: Array(result.standardOutput.utf8)).isEmpty, "no picture drawn")
        #expect(result.standardOutput.contains("a private photo"), "the post's text stays")
        #expect(result.standardError.contains("1 fields of these posts could not be read and were left out"), "\(result.standardError)")
        #expect(result.standardError.contains("pic_urls[0].thumbnail_pic"), "\(result.standardError)")
        #expect(result.standardError.contains("an http or https URL"), "\(result.standardError)")
    }

    @Test("weibo-client: PHOTODECK_WEIBO_RIP is the rip of every write: comment, repost and post")
    func ripOnEveryWrite() async throws {
        let run = try await RemotePhotoTests.signedIn()
        let post = try #require(run.fake.addPosts(1, by: "1750000001").first)
        let environment = ["PHOTODECK_WEIBO_RIP": "203.0.113.77"]
        let comment = try await run(["comment", post, "好"], environment: environment)
        #expect(comment.status == 0, "\(comment.standardError)")
        let repost = try await run(["repost", post, "转"], environment: environment)
        #expect(repost.status == 0, "\(repost.standardError)")
        #expect(run.fake.comments.last?.rip == "203.0.113.77")
        #expect(run.fake.posts.first?.rip == "203.0.113.77", "the repost's rip")
    }
}
