import Foundation
import ImageCodecs
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `photo-album` executable.
@Suite("photo-album command line")
struct PhotoAlbumCommandTests {
    static let samples = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples").path

    static func scratch() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photo-album-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func album(_ arguments: [String], input: String = "") throws -> ExampleProcess.Result {
        try ExampleProcess.run("photo-album", arguments, input: input)
    }

    @Test("import, list (text and JSON), remove and check")
    func lifecycle() throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        let imported = try Self.album(["--store", store, "import", "--album", "Trip", Self.samples])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("imported 4 photos into Trip (1 not images, 0 unreadable)"))

        let json = try Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
        #expect(rows.count == 4)
        let rotated = try #require(rows.first { $0["name"] == "portrait-orientation-6.jpg" })
        #expect(rotated["width"] == "600" && rotated["height"] == "900")

        let id = try #require(rotated["id"])
        let removed = try Self.album(["--store", store, "remove", String(id.prefix(10))])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(try Self.album(["--store", store, "list"]).standardOutput.split(separator: "\n").count == 3)
        let check = try Self.album(["--store", store, "check"])
        #expect(check.status == 0)
        #expect(check.standardOutput.contains("consistent: 3 photos"))
    }

    @Test("pick from the library falls back from the missing camera and adds what was picked")
    func pick() throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try Self.album(["--store", "\(work)/store", "pick", "--limit", "2", "--from", Self.samples], input: "1\n3\ndone\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("no camera: "))
        #expect(result.standardOutput.contains("picked 2 into Favourites"))
        let cancelled = try Self.album(["--store", "\(work)/store", "pick", "--from", Self.samples], input: "cancel\n")
        #expect(cancelled.standardOutput.contains("cancelled"))
        #expect(!FileManager.default.fileExists(atPath: "\(Self.samples)/.photodeck"), "the library index must not be written into the user's folder")
    }

    @Test(
        "errors are one error: line and exit 1",
        arguments: [
            ["list"], ["--store", "STORE", "frobnicate"], ["--store", "STORE", "import"], ["--store", "STORE", "remove", "abc"],
            ["--store", "STORE", "list", "--album", "Nope"], ["--store", "STORE", "pick"],
            ["--store", "STORE", "pick", "--source", "scanner", "--from", "/tmp"],
        ])
    func errors(_ arguments: [String]) throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try Self.album(arguments.map { $0 == "STORE" ? "\(work)/store" : $0 })
        #expect(result.reason == .exit)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: "), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("an import killed at random points never leaves the store inconsistent")
    func crashSafety() throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // 150 distinct small JPEGs: enough that an import outlasts the kill window.
        let photos = "\(work)/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: 99)
        for index in 0..<150 {
            let pixels = (0..<(96 * 64 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let bytes = try Bitmap(width: 96, height: 64, pixelFormat: .rgb8, pixels: pixels).encoded(as: .jpeg)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(photos)/p\(index).jpg"))
        }
        let store = "\(work)/store"
        var kills = 0
        for round in 0..<25 {
            let process = try ExampleProcess.start("photo-album", ["--store", store, "import", photos])
            usleep(UInt32.random(in: 2_000...60_000, using: &generator))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            let check = try Self.album(["--store", store, "check"])
            #expect(check.status == 0, "round \(round): \(check.standardOutput) \(check.standardError)")
        }
        #expect(kills >= 10, "only \(kills) imports were interrupted; the test did not exercise crashes")
        let finished = try Self.album(["--store", store, "import", photos])
        #expect(finished.status == 0, "\(finished.standardError)")
        let list = try Self.album(["--store", store, "list"])
        #expect(list.standardOutput.split(separator: "\n").filter { $0.contains("Favourites#") }.count == 150)
        #expect(try Self.album(["--store", store, "check"]).standardOutput.contains("consistent: 150 photos"))
    }
}
