import Foundation
import ImageCodecs
import ServiceKit
import Synchronization
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `photo-album publish`: an album as a web gallery from the command line,
/// republished incrementally, and killed while it writes.
@Suite("photo-album publish")
struct PhotoAlbumPublishTests {
    /// A store in `work` whose album "Trip" holds `count` generated photos (seeds from `seed`).
    static func album(in work: String, count: Int, seed: UInt64, size: Int = 1_200) async throws -> String {
        let folder = "\(work)/photos-\(seed)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let bitmap = GeneratedScene(seed: seed + UInt64(index)).render(width: size, height: size * 3 / 4)
            try Data(try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 90))).write(
                to: URL(fileURLWithPath: "\(folder)/IMG_\(seed + UInt64(index)).jpg"))
        }
        let result = try await PhotoAlbumCommandTests.album(["--store", "\(work)/store", "import", "--album", "Trip", folder])
        #expect(result.status == 0, "\(result.standardError)")
        return folder
    }

    @Test("publish writes the album's gallery; after two more photos only they and the changed pages are written; --json says so")
    func publish() async throws {
        let work = PhotoAlbumCommandTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        _ = try await Self.album(in: work, count: 3, seed: 300)
        let site = "\(work)/site"
        let arguments = [
            "--store", "\(work)/store", "publish", "--album", "Trip", "--out", site, "--title", "Trip <1>", "--base-url", "https://example.com/trip/",
        ]
        let first = try await PhotoAlbumCommandTests.album(arguments)
        #expect(first.status == 0 && first.standardOutput.contains("published 3 photos"), "\(first.standardError)")
        let index = String(decoding: try fileBytes(URL(fileURLWithPath: "\(site)/index.html")), as: UTF8.self)
        #expect(index.contains("<title>Trip &lt;1&gt;</title>") && index.contains("content=\"https://example.com/trip/r/"))
        _ = try await Self.album(in: work, count: 2, seed: 400)
        let second = try await PhotoAlbumCommandTests.album(arguments + ["--json"])
        #expect(second.status == 0, "\(second.standardError)")
        let document = try JSONValue(parsing: Array(second.standardOutput.utf8))
        // 1,200 pixels wide: 5 widths, WebP and JPEG, for 2 photos; the index, the manifest and 5 pages (each says "of 5").
        #expect(document["photos"]?.intValue == 5 && document["filesWritten"]?.intValue == 20 + 2 + 5, "\(second.standardOutput)")
        #expect(document["filesKept"]?.intValue == 30 + 3)
        // The cover's card picture, to share with the link (photo-share --link URL --thumbnail COVER).
        let cover = try #require(document["coverPicture"]?.stringValue)
        #expect(cover.hasPrefix("\(site)/r/") && (try? ImageInfo(probingFileAt: cover))?.format == .jpeg, "\(cover)")
        #expect(first.standardOutput.contains("cover picture (the link card's): \(site)/r/"))
        for bad in [["--out", site], ["--album", "Trip"], ["--album", "Trip", "--out", site, "--base-url", "ftp://x/"]] {
            let refused = try await PhotoAlbumCommandTests.album(["--store", "\(work)/store", "publish"] + bad)
            #expect(refused.status != 0 && !refused.standardError.isEmpty)
        }
    }

    /// Where a publish is killed: strace's fault injection sends SIGKILL on
    /// entering the system call (so it never runs), at the same step of the
    /// program's work however loaded the machine is.
    enum KillPoint: String, CaseIterable, CustomTestStringConvertible {
        /// The third atomic rename: the staging marker and a first new file written, the rest not.
        case whileWriting = "rename:signal=SIGKILL:when=3"
        /// The exchange of the staging folder with the gallery: every new file written, nothing swapped.
        case atTheSwap = "renameat2:signal=SIGKILL"

        var testDescription: String { self == .whileWriting ? "while writing" : "at the swap" }
        var syscall: String { String(rawValue.prefix { $0 != ":" }) }
    }

    @Test(
        "SIGKILL while the new gallery is being written, and just before it is swapped in: the old one is there, whole; the next publish clears what was left",
        arguments: KillPoint.allCases)
    func killedWhilePublishing(at point: KillPoint) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is needed; make test installs it")
        let work = PhotoAlbumCommandTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        _ = try await Self.album(in: work, count: 2, seed: 500)
        let site = "\(work)/site"
        let arguments = ["--store", "\(work)/store", "publish", "--album", "Trip", "--out", site]
        #expect(try await PhotoAlbumCommandTests.album(arguments).status == 0)
        let before = try folderContents(site)
        _ = try await Self.album(in: work, count: 3, seed: 600)

        let killed = try await ExampleProcess.run(
            "/usr/bin/strace",
            ["-f", "-qq", "-o", "/dev/null", "-e", "trace=\(point.syscall)", "-e", "inject=\(point.rawValue)", ExampleProcess.executable("photo-album").path]
                + arguments)
        // strace ends as its tracee did, by SIGKILL. (Where tracing is not permitted it says so and exits 1.)
        #expect(killed.reason == .uncaughtSignal && killed.status == SIGKILL, "status \(killed.status): \(killed.standardError)")
        let staging = try #require(
            (try FileManager.default.contentsOfDirectory(atPath: work)).first { $0.hasPrefix(".site.publishing-") }, "the killed publish's folder")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: "\(work)/\(staging)/r").count) ?? 0
        // The old photos' renditions are linked in first, then the 3 new photos' 10 each (5 widths, WebP and JPEG):
        // killed while writing, some are there, not all; at the swap, all of them.
        let all = before.keys.filter { $0.hasPrefix("r/") }.count + 3 * 10
        #expect(point == .atTheSwap ? written == all : written > 0 && written < all, "\(written) of \(all) renditions")
        // The old gallery, byte for byte.
        let intact = try folderContents(site) == before
        #expect(intact, "the old gallery, byte for byte")
        // The next publish finishes and removes the killed one's folder.
        let again = try await PhotoAlbumCommandTests.album(arguments)
        #expect(again.status == 0 && again.standardOutput.contains("published 5 photos"), "\(again.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(work)/\(staging)"))
        #expect(try folderContents(site).count > before.count)
    }
}
