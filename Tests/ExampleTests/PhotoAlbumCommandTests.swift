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

    static func album(_ arguments: [String], input: String = "") async throws -> ExampleProcess.Result {
        try await ExampleProcess.run("photo-album", arguments, input: input)
    }

    @Test("import, list (text and JSON), remove and check")
    func lifecycle() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        let imported = try await Self.album(["--store", store, "import", "--album", "Trip", Self.samples])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("imported 6 photos into Trip (0 already there, 1 not images, 0 unreadable)"))

        let json = try await Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
        #expect(rows.count == 6)
        #expect(Set(rows.compactMap { $0["format"] }) == ["jpeg", "png", "webp", "heic", "gif"], "\(rows)")
        let heic = try #require(rows.first { $0["name"] == "waterfall-adobe-rgb.heic" })
        #expect(heic["width"] == "800" && heic["height"] == "533")
        let rotated = try #require(rows.first { $0["name"] == "portrait-orientation-6.jpg" })
        #expect(rotated["width"] == "600" && rotated["height"] == "900")

        let id = try #require(rotated["id"])
        let removed = try await Self.album(["--store", store, "remove", String(id.prefix(10))])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(try await Self.album(["--store", store, "list"]).standardOutput.split(separator: "\n").count == 5)
        let check = try await Self.album(["--store", store, "check"])
        #expect(check.status == 0)
        #expect(check.standardOutput.contains("consistent: 5 photos"))
    }

    @Test("mark rates, labels and tags a photo in every album; list filters and shows the marks; export --keep-marks carries them")
    func marks() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", Self.samples]).status == 0)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(try await Self.album(["--store", store, "list", "--json"]).standardOutput.utf8)) as? [[String: String]])
        let id = try #require(rows.first { $0["name"] == "waterfall.jpg" }?["id"])
        let marked = try await Self.album([
            "--store", store, "mark", "--rating", "4", "--label", "Green", "--tag", "Places|Norway", "--tag", "hike", String(id.prefix(12)),
        ])
        #expect(marked.status == 0, "\(marked.standardError)")
        #expect(marked.standardOutput.contains("★4 green [Norway, hike]"), "\(marked.standardOutput)")

        let picked = try await Self.album(["--store", store, "list", "--min-rating", "3", "--with-tag", "norway"])
        #expect(picked.standardOutput.split(separator: "\n").count == 1 && picked.standardOutput.contains("waterfall.jpg"), "\(picked.standardOutput)")
        #expect(try await Self.album(["--store", store, "list", "--with-label", "red"]).standardOutput.isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await Self.album(["--store", store, "list", "--json", "--with-label", "green"]).standardOutput.utf8))
                as? [[String: String]])
        #expect(json.count == 1 && json[0]["rating"] == "4" && json[0]["label"] == "green" && json[0]["tags"] == "Norway, hike", "\(json)")

        let out = "\(work)/out"
        #expect(try await Self.album(["--store", store, "export", "--to", out, "--keep-marks", String(id.prefix(12))]).status == 0)
        let tags = try ExifTool.tags(ofFileAt: "\(out)/waterfall.jpg")
        #expect(tags["XMP-xmp:Rating"] == "4" && tags["XMP-xmp:Label"] == "Green" && tags["XMP-lr:HierarchicalSubject"] == "Places|Norway", "\(tags)")
        #expect(tags["GPS:GPSLatitude"] == nil)
        let plain = "\(work)/plain"
        #expect(try await Self.album(["--store", store, "export", "--to", plain, String(id.prefix(12))]).status == 0)
        #expect(try ExifTool.tags(ofFileAt: "\(plain)/waterfall.jpg")["XMP-xmp:Rating"] == nil)

        let refused = try await Self.album(["--store", store, "mark", "--rating", "7", String(id.prefix(12))])
        #expect(refused.status != 0 && refused.standardError.contains("--rating"), "\(refused.standardError)")
        #expect(try await Self.album(["--store", store, "mark", String(id.prefix(12))]).standardError.contains("mark needs a change"))
    }

    @Test("import takes videos and Live Photo pairs (one item each, found by their identifiers); list shows what moves and for how long")
    func videosAndLivePhotos() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let roll = "\(work)/roll"
        try FileManager.default.createDirectory(atPath: roll, withIntermediateDirectories: true)
        let identifier = "4F1B2C3D-0000-4A5B-8C9D-112233445566"
        try Data(try TestLivePhotos.still(identifier: identifier)).write(to: URL(fileURLWithPath: "\(roll)/IMG_0001.JPG"))
        try FileManager.default.copyItem(atPath: try TestLivePhotos.motion("album-live.mov", identifier: identifier), toPath: "\(roll)/IMG_0001.MOV")
        try FileManager.default.copyItem(atPath: try TestVideos.h264(), toPath: "\(roll)/clip.mp4")
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0x41, count: 600)).write(to: URL(fileURLWithPath: "\(roll)/fake.mp4"))
        let store = "\(work)/store"
        let imported = try await Self.album(["--store", store, "import", "--album", "Roll", roll])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("livePhoto 0:01 \(roll)/IMG_0001.JPG + \(roll)/IMG_0001.MOV"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("video 0:02 \(roll)/clip.mp4"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("skipped \(roll)/fake.mp4: not a playable video"), "\(imported.standardOutput)")
        let json = try await Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
        #expect(Set(rows.map { "\($0["name"] ?? "") \($0["media"] ?? "") \($0["duration"] ?? "")" }) == ["IMG_0001.JPG livePhoto 0:01", "clip.mp4 video 0:02"])
        // Export: the still, its video beside it (no identifier by default), and the video.
        let ids = rows.compactMap { $0["id"].map { String($0.prefix(12)) } }
        let exported = try await Self.album(["--store", store, "export", "--to", "\(work)/out"] + ids)
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(
            exported.standardOutput.contains(
                "exported its video to \(work)/out/IMG_0001.MOV (removed: com.apple.quicktime.content.identifier, SEI user data (vendor data in the video stream))"
            ),
            "\(exported.standardOutput)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: "\(work)/out")) == ["IMG_0001.JPG", "IMG_0001.MOV", "clip.mp4"])
        let check = try await Self.album(["--store", store, "check"])
        #expect(check.status == 0, "\(check.standardOutput)")
    }

    @Test("deleting the index, or restoring an older one, loses no photo: list shows every one in its album, check says what was recovered")
    func lostIndex() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", Self.samples]).status == 0)
        let before = try await Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(before.standardOutput.utf8)) as? [[String: String]])
        #expect(rows.count == 6)
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] { try? FileManager.default.removeItem(atPath: "\(store)/\(name)") }
        let after = try await Self.album(["--store", store, "list", "--json"])
        #expect(after.status == 0, "\(after.standardError)")
        let recovered = try #require(try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [[String: String]])
        #expect(recovered.map { $0["id"]! } == rows.map { $0["id"]! }, "the same photos, in the same order")
        #expect(recovered.allSatisfy { $0["album"] == "Trip" })
        #expect(after.standardError.contains("repaired: 7 journal entries the index had not applied were replayed"), "\(after.standardError)")
        #expect(!after.standardError.contains("removed") || after.standardError.contains("0 temporary"))
        let check = try await Self.album(["--store", store, "check"])
        #expect(check.status == 0)
        #expect(check.standardOutput.contains("consistent: 6 photos"), "\(check.standardOutput)")
    }

    @Test("a camcorder's 00001.MTS leaves as 00001.mp4 (the container written), without the position its H.264 stream carried")
    func camcorderExport() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("album-mts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(work)/card", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.copyItem(atPath: try CamcorderVideos.make("album-00001.MTS"), toPath: "\(work)/card/00001.MTS")
        let store = "\(work)/store"
        let imported = try await Self.album(["--store", store, "import", "--album", "Card", "\(work)/card"])
        #expect(imported.status == 0 && imported.standardOutput.contains("video"), "\(imported.standardOutput)\(imported.standardError)")
        let json = try await Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
        let id = try #require(rows.first?["id"]).prefix(12)
        let exported = try await Self.album(["--store", store, "export", "--to", "\(work)/out", String(id)])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(work)/out") == ["00001.mp4"])
        let out = "\(work)/out/00001.mp4"
        #expect(!CamcorderVideos.holdsMDPM(try fileBytes(URL(fileURLWithPath: out))))
        #expect(try ExifTool.tags(ofFileAt: out, extractingEmbedded: true).keys.allSatisfy { !$0.contains("GPS") })
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", out])
        #expect(probe.output.contains("mp4"), "an MP4 by its bytes too: \(probe.output)")
    }

    @Test("export writes copies without location or identity, rotated losslessly on request; the stored originals never change")
    func export() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let photo = "\(work)/phone.jpg"
        let plain = try noiseJPEG(width: 320, height: 240, seed: 12)
        try Data(try ExifTool.writing(ExifTool.phoneMetadata, to: plain, fileExtension: "jpg")).write(to: URL(fileURLWithPath: photo))
        let store = "\(work)/store"
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", photo]).status == 0)
        let listed = try await Self.album(["--store", store, "list", "--json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: String]])?.first?["id"])
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        let exported = try await Self.album(["--store", store, "export", "--to", "\(work)/out", String(id.prefix(10))])
        #expect(exported.status == 0, "\(exported.standardError)")
        let copy = try fileBytes(URL(fileURLWithPath: "\(work)/out/phone.jpg"))
        let tags = try ExifTool.tags(of: copy, fileExtension: "jpg")
        #expect(tags["GPS:GPSLatitude"] == nil && tags["IFD0:Artist"] == nil && tags["IFD0:Model"] == "EOS R5", "\(tags.keys.sorted())")
        #expect(try DecodedImage(decoding: copy).bitmap == DecodedImage(decoding: [UInt8](original)).bitmap)
        let turned = try await Self.album(["--store", store, "export", "--to", "\(work)/turned", "--rotate", "90", "--keep-location", String(id.prefix(10))])
        #expect(turned.status == 0, "\(turned.standardError)")
        let rotated = try fileBytes(URL(fileURLWithPath: "\(work)/turned/phone.jpg"))
        #expect(try ImageInfo(probing: rotated).size == PixelSize(width: 240, height: 320))
        #expect(try ExifTool.tags(of: rotated, fileExtension: "jpg")["GPS:GPSLatitude"] != nil)
        // The original in the store is the file that was imported, byte for byte.
        let stored = try FileManager.default.subpathsOfDirectory(atPath: "\(store)/originals").first { $0.hasSuffix(".jpg") }!
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(store)/originals/\(stored)")) == original)
        let refused = try await Self.album(["--store", store, "export", "--to", "\(work)/x", "--rotate", "45", String(id.prefix(10))])
        #expect(refused.status == 1 && refused.standardError.hasPrefix("error: --rotate takes"))
    }

    @Test("importing again, or a copy under another name, reports 'already in album' and counts it apart")
    func honestImportReport() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let folder = "\(work)/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<5 {
            try Data(try noiseJPEG(width: 40, height: 30, seed: 700 + UInt64(index))).write(to: URL(fileURLWithPath: "\(folder)/p\(index).jpg"))
        }
        // Two files whose content is already there under another name.
        try FileManager.default.copyItem(atPath: "\(folder)/p0.jpg", toPath: "\(folder)/copy-of-p0.jpg")
        try FileManager.default.copyItem(atPath: "\(folder)/p1.jpg", toPath: "\(folder)/copy-of-p1.jpg")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: "\(folder)/notes.txt"))
        // The store inside the imported folder is never imported into itself.
        let store = "\(folder)/store"

        let first = try await Self.album(["--store", store, "import", "--album", "Trip", folder])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("imported 5 photos into Trip (2 already there, 1 not images, 0 unreadable)"), "\(first.standardOutput)")
        #expect(first.standardOutput.split(separator: "\n").filter { $0.hasPrefix("already in album ") }.count == 2)

        let second = try await Self.album(["--store", store, "import", "--album", "Trip", folder])
        #expect(second.standardOutput.contains("imported 0 photos into Trip (7 already there, 1 not images, 0 unreadable)"), "\(second.standardOutput)")
        #expect(!second.standardOutput.contains("\nadded "))

        let json = try await Self.album(["--store", store, "import", "--album", "Trip", "--json", folder, "\(work)/missing.jpg"])
        #expect(json.status == 1, "a missing file is unreadable")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["album"] as? String == "Trip")
        #expect(document["imported"] as? Int == 0 && document["alreadyInAlbum"] as? Int == 7)
        #expect(document["notImages"] as? Int == 1 && document["unreadable"] as? Int == 1)
        let files = try #require(document["files"] as? [[String: String]])
        #expect(files.count == 9)
        #expect(files.first { $0["path"]?.hasSuffix("copy-of-p0.jpg") == true }?["status"] == "already-in-album")
        #expect(files.first { $0["path"]?.hasSuffix("missing.jpg") == true }?["reason"] == "No such file or directory")
        let listed = try await Self.album(["--store", store, "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: String]])
        #expect(rows.count == 5, "the album holds each content once")
    }

    @Test("pick from the library falls back from the missing camera and adds what was picked")
    func pick() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try await Self.album(["--store", "\(work)/store", "pick", "--limit", "2", "--from", Self.samples], input: "1\n3\ndone\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("no camera: "))
        #expect(result.standardOutput.contains("picked 2 into Favourites"))
        let cancelled = try await Self.album(["--store", "\(work)/store", "pick", "--from", Self.samples], input: "cancel\n")
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
    func errors(_ arguments: [String]) async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try await Self.album(arguments.map { $0 == "STORE" ? "\(work)/store" : $0 })
        #expect(result.reason == .exit)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: "), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("an import killed part way, 25 times, never leaves the store inconsistent")
    func crashSafety() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // 150 distinct small JPEGs; each round adds at most 4, so no round
        // can finish before it is killed.
        let photos = "\(work)/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for index in 0..<150 {
            let bytes = try noiseJPEG(width: 96, height: 64, seed: 1000 + UInt64(index))
            try Data(bytes).write(to: URL(fileURLWithPath: "\(photos)/p\(index).jpg"))
        }
        let store = "\(work)/store"
        var generator = SeededGenerator(seed: 99)
        var committed = 0
        for round in 0..<25 {
            // Kill once the import reports its k-th new photo: the kill lands
            // in the middle of the next one (its copy, flush, rename or commit).
            let newPhotos = Int.random(in: 1...4, using: &generator)
            let arguments = ["--store", store, "import", photos]
            let (seen, reason) = try await offPool { () throws -> (Int, Process.TerminationReason) in
                var seen = 0
                let reason = try ExampleProcess.runKilled("photo-album", arguments) { line in
                    guard seen < newPhotos else { return true }
                    if line.hasPrefix("added ") { seen += 1 }
                    return seen == newPhotos
                }
                return (seen, reason)
            }
            #expect(seen == newPhotos, "round \(round): the import ended after \(seen) new photos")
            #expect(reason == .uncaughtSignal, "round \(round): the import was not interrupted")
            let check = try await Self.album(["--store", store, "check"])
            #expect(check.status == 0, "round \(round): \(check.standardOutput) \(check.standardError)")
            let listed = try await Self.album(["--store", store, "list"]).standardOutput.split(separator: "\n").filter { $0.contains("Favourites#") }.count
            #expect(listed >= committed + newPhotos, "round \(round): reported photos were lost")
            committed = listed
        }
        let finished = try await Self.album(["--store", store, "import", photos])
        #expect(finished.status == 0, "\(finished.standardError)")
        let list = try await Self.album(["--store", store, "list"])
        #expect(list.standardOutput.split(separator: "\n").filter { $0.contains("Favourites#") }.count == 150)
        #expect(try await Self.album(["--store", store, "check"]).standardOutput.contains("consistent: 150 photos"))
    }

    @Test("dupes finds the samples' copies (a HEIC, a framed PNG, a GIF) and two shares; resolve keeps one and sets the rest aside")
    func duplicates() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        let waterfall = try DecodedImage(decodingFileAt: "\(Self.samples)/waterfall.jpg").bitmap
        try Data(try waterfall.encoded(as: .jpeg, options: EncodeOptions(quality: 30))).write(to: URL(fileURLWithPath: "\(work)/w30.jpg"))
        try Data(try waterfall.resized(to: PixelSize(width: 300, height: 200)).encoded(as: .webp, options: EncodeOptions(quality: 50)))
            .write(to: URL(fileURLWithPath: "\(work)/small.webp"))
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", Self.samples]).status == 0)
        #expect(try await Self.album(["--store", store, "import", "--album", "Chats", "\(work)/w30.jpg", "\(work)/small.webp"]).status == 0)
        let listed = try await Self.album(["--store", store, "dupes", "--json"])
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
        let names = groups.map { (($0["photos"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } }
        #expect(names.count == 2, "\(names)")
        #expect(
            Set(names.first { $0.contains("waterfall.jpg") } ?? []) == [
                "waterfall.jpg", "w30.jpg", "small.webp", "waterfall-adobe-rgb.heic", "rounded-alpha.png",
            ])
        #expect(Set(names.first { $0.contains("portrait.webp") } ?? []) == ["portrait-orientation-6.jpg", "portrait.webp", "whirl.gif"])
        let waterfallGroup = try #require(groups.first { ($0["photos"] as? [[String: Any]])?.first?["name"] as? String == "waterfall.jpg" })
        let number = try #require(waterfallGroup["group"] as? Int)
        let photos = try #require(waterfallGroup["photos"] as? [[String: Any]])
        let shared = try #require(photos.first { $0["name"] as? String == "w30.jpg" }?["id"] as? String)

        let resolved = try await Self.album(["--store", store, "resolve", "--keep", String(shared.prefix(10)), "\(number)"])
        #expect(resolved.status == 0, "\(resolved.standardError)")
        #expect(
            resolved.standardOutput.contains("kept \(shared.prefix(12))") && resolved.standardOutput.contains("now also in Trip"), "\(resolved.standardOutput)")
        #expect(resolved.standardOutput.components(separatedBy: "set aside").count == 5, "\(resolved.standardOutput)")
        let after = try await Self.album(["--store", store, "dupes"])
        #expect(after.standardOutput.hasPrefix("group 1: 3 photos") && !after.standardOutput.contains("group 2"), "\(after.standardOutput)")
        let trip = try await Self.album(["--store", store, "list", "--album", "Trip"]).standardOutput
        #expect(trip.contains("w30.jpg") && !trip.contains("waterfall.jpg"), "\(trip)")
        #expect(try await Self.album(["--store", store, "resolve", "9"]).standardError.contains("there is no group 9"))
        #expect(try await Self.album(["--store", store, "check"]).status == 0)
    }

    @Test("stacks lists a phone's burst with its sharpest frame as cover; cover makes another frame the cover")
    func stacks() async throws {
        let work = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let store = "\(work)/store"
        let waterfall = try DecodedImage(decodingFileAt: "\(Self.samples)/waterfall.jpg").bitmap
        let soft = waterfall.resized(to: PixelSize(width: 300, height: 200)).resized(to: PixelSize(width: 1200, height: 800))
        for (index, frame) in [soft, waterfall, soft].enumerated() {
            try Data(try frame.encoded(as: .jpeg, options: EncodeOptions(quality: 90 - index)))
                .write(to: URL(fileURLWithPath: "\(work)/20240501_120000_00\(index + 1).jpg"))
        }
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", work]).status == 0)
        let listed = try await Self.album(["--store", store, "stacks", "--json"])
        let stacks = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
        #expect(stacks.count == 1 && stacks.first?["kind"] as? String == "burst", "\(stacks)")
        let photos = try #require(stacks.first?["photos"] as? [[String: Any]])
        #expect(photos.compactMap { $0["name"] as? String } == (1...3).map { "20240501_120000_00\($0).jpg" })
        #expect(photos.first { $0["cover"] as? Bool == true }?["name"] as? String == "20240501_120000_002.jpg")
        let third = try #require(photos.last?["id"] as? String)
        #expect(try await Self.album(["--store", store, "cover", String(third.prefix(10))]).status == 0)
        let text = try await Self.album(["--store", store, "stacks"]).standardOutput
        #expect(text.hasPrefix("burst 1: 3 photos, cover \(third.prefix(12)) (chosen)"), "\(text)")
        #expect(try await Self.album(["--store", store, "cover", "zzzz"]).status != 0)

        // Sharing the album sends the burst's cover alone, unless every frame is asked for.
        try Data(try waterfall.resized(to: PixelSize(width: 600, height: 400)).encoded(as: .png)).write(to: URL(fileURLWithPath: "\(work)/alone.png"))
        #expect(try await Self.album(["--store", store, "import", "--album", "Trip", "\(work)/alone.png"]).status == 0)
        let shared = try await Self.album(["--store", store, "export", "--album", "Trip", "--to", "\(work)/out"])
        #expect(shared.status == 0, "\(shared.standardError)")
        let sent = try FileManager.default.contentsOfDirectory(atPath: "\(work)/out").sorted()
        #expect(sent == ["20240501_120000_003.jpg", "alone.png"], "\(sent)")
        let every = try await Self.album(["--store", store, "export", "--album", "Trip", "--every-frame", "--to", "\(work)/every"])
        let everyFile = try FileManager.default.contentsOfDirectory(atPath: "\(work)/every")
        #expect(every.status == 0 && everyFile.count == 4, "\(every.standardError) \(everyFile)")
        let both = try await Self.album(["--store", store, "export", "--album", "Trip", "--to", "\(work)/x", String(third.prefix(10))])
        #expect(both.status != 0 && both.standardError.contains("one of the two"), "\(both.standardError)")
    }
}
