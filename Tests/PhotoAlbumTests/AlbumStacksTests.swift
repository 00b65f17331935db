import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import TestSupport
import Testing

@testable import PhotoAlbum

/// Bursts and pairs: found from the camera's EXIF and the phones' burst
/// names, each with the sharpest frame as its cover unless the user chose.
@Suite("Bursts and pairs in the album", .dedicatedThreads)
struct AlbumStacksTests {
    /// A frame of a burst: the scene seen from `step`, blurred by `blur`
    /// (shrunk by that factor and enlarged back), its exposure scaled by `gain`.
    static func frame(seed: UInt64, step: Double, blur: Int, gain: Double = 1) throws -> Bitmap {
        var bitmap = GeneratedScene(seed: seed).render(width: 640, height: 480, step: step)
        if blur > 1 {
            bitmap = bitmap.resized(to: PixelSize(width: 640 / blur, height: 480 / blur)).resized(to: PixelSize(width: 640, height: 480))
        }
        if gain != 1 {
            bitmap.withUnsafeMutableBytes { bytes in
                for index in bytes.indices { bytes[index] = UInt8(min(255, (Double(bytes[index]) * gain).rounded())) }
            }
        }
        return bitmap
    }

    /// `bitmap` as a JPEG file named `name` in `folder`, its EXIF written by exiftool.
    static func shot(_ bitmap: Bitmap, _ folder: String, _ name: String, exif: [String], format: ImageFormat = .jpeg) throws -> String {
        var bytes = try bitmap.encoded(as: format, options: EncodeOptions(quality: 92))
        if !exif.isEmpty { bytes = try ExifTool.writing(exif, to: bytes, fileExtension: format == .jpeg ? "jpg" : format.identifier) }
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func camera(serial: String, time: String, subseconds: String) -> [String] {
        [
            "-Make=Canon", "-Model=Canon EOS R5", "-SerialNumber=\(serial)", "-DateTimeOriginal=2024:05:01 \(time)", "-OffsetTimeOriginal=+02:00",
            "-SubSecTimeOriginal=\(subseconds)",
        ]
    }

    static func asset(_ path: String) throws -> AssetID {
        try #require(AssetID(Digest.sha256Hex(try fileBytes(URL(fileURLWithPath: path)))))
    }

    @Test("a camera's frames within 2 s are one burst, the sharpest its cover; another body, a later shot and a pair stand apart")
    func bursts() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        // Five frames over 1.9 s (each gap under 2 s), the third in focus.
        let times = [("12:00:00", "100"), ("12:00:00", "550"), ("12:00:01", "020"), ("12:00:01", "480"), ("12:00:02", "000")]
        var frames: [String] = []
        for (index, (time, sub)) in times.enumerated() {
            let image = try Self.frame(seed: 7, step: 0.004 * Double(index), blur: index == 2 ? 1 : 3)
            frames.append(try Self.shot(image, scratch.path, "IMG_\(1001 + index).JPG", exif: Self.camera(serial: "0123", time: time, subseconds: sub)))
        }
        // Another R5 at the same moment, and this one's next shot 3 s later.
        let other = try Self.shot(
            try Self.frame(seed: 8, step: 0, blur: 1), scratch.path, "OTHER.JPG", exif: Self.camera(serial: "0999", time: "12:00:01", subseconds: "000"))
        let later = try Self.shot(
            try Self.frame(seed: 9, step: 0, blur: 1), scratch.path, "IMG_1010.JPG", exif: Self.camera(serial: "0123", time: "12:00:05", subseconds: "000"))
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        for path in frames.reversed() + [other, later] { _ = try await store.importFile(at: path, into: "Trip") }

        let ids = try frames.map(Self.asset)
        let stacks = try await store.stacks(in: "Trip")
        #expect(stacks.count == 1, "\(stacks)")
        let burst = try #require(stacks.first)
        #expect(burst.kind == .burst && burst.assets == ids, "in shot order")
        #expect(burst.cover == ids[2] && !burst.coverIsChosen)
        #expect(try await store.stack(containing: try Self.asset(other)) == nil)

        // The user's choice wins, and survives a lost index.
        try await store.setCover(ids[4])
        #expect(try await store.stacks().first?.cover == ids[4])
        // Shared, the burst is its cover alone, where its first frame is in the album (imported last frame first).
        let otherID = try Self.asset(other)
        let laterID = try Self.asset(later)
        #expect(try await store.itemsToShare(in: "Trip").map(\.asset) == [ids[4], otherID, laterID])
        try await store.setCover(ids[1])
        #expect(try await store.itemsToShare(in: "Trip").map(\.asset) == [ids[1], otherID, laterID])
        #expect(try await store.itemsToShare(in: "Trip", stacks: .everyFrame).count == 7)
        try await store.setCover(ids[4])
        await store.close()
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] { try? FileManager.default.removeItem(atPath: "\(scratch.path)/store/\(name)") }
        let reopened = try await AlbumStore.open(directory: "\(scratch.path)/store")
        let again = try #require(try await reopened.stacks().first)
        #expect(again.cover == ids[4] && again.coverIsChosen)
        await reopened.close()
    }

    @Test("frames equally sharp: the better exposed is the cover; a stored sharpness out of range is measured again")
    func exposureBreaksTies() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let dark = try Self.shot(
            try Self.frame(seed: 11, step: 0, blur: 1, gain: 0.35), scratch.path, "a.jpg", exif: Self.camera(serial: "1", time: "09:00:00", subseconds: "10"))
        let good = try Self.shot(
            try Self.frame(seed: 11, step: 0.002, blur: 1), scratch.path, "b.jpg", exif: Self.camera(serial: "1", time: "09:00:00", subseconds: "50"))
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        for path in [dark, good] { _ = try await store.importFile(at: path, into: "Trip") }
        let darkSharpness = try ImageSharpness(measuringImageAt: dark)
        let goodSharpness = try ImageSharpness(measuringImageAt: good)
        // Darker means weaker edges, but not less focus: a tie, so exposure decides.
        #expect(darkSharpness.laplacianVariance < goodSharpness.laplacianVariance * 0.2)
        #expect(darkSharpness.relativeSharpness >= goodSharpness.relativeSharpness * ImageSharpness.tieRatio, "\(darkSharpness) \(goodSharpness)")
        #expect(darkSharpness.exposureScore < goodSharpness.exposureScore)
        let goodID = try Self.asset(good)
        #expect(try await store.stacks().first?.cover == goodID)
        await store.close()
        let database = try SQLiteDatabase(path: "\(scratch.path)/store/index.sqlite")
        try database.execute("UPDATE assets SET sharpness = 1e300, mean_luma = -4")
        database.close()
        let reopened = try await AlbumStore.open(directory: "\(scratch.path)/store")
        #expect(try await reopened.stacks().first?.cover == goodID)
        await reopened.close()
    }

    @Test("a HEIC-and-JPEG style pair is one stack with the JPEG as cover; another time or another ImageUniqueID is not a pair")
    func pairs() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let picture = try Self.frame(seed: 21, step: 0, blur: 1)
        let exif = ["-DateTimeOriginal=2024:06:01 08:00:00", "-Make=Apple", "-Model=iPhone 15", "-ImageUniqueID=ABC"]
        let jpeg = try Self.shot(picture, scratch.path, "IMG_0001.JPG", exif: exif)
        let webp = try Self.shot(picture, scratch.path, "IMG_0001.WEBP", exif: exif, format: .webp)
        let lateJPEG = try Self.shot(try Self.frame(seed: 22, step: 0, blur: 1), scratch.path, "IMG_0002.JPG", exif: ["-DateTimeOriginal=2024:06:01 08:00:00"])
        let latePNG = try Self.shot(
            try Self.frame(seed: 22, step: 0, blur: 1), scratch.path, "IMG_0002.PNG", exif: ["-DateTimeOriginal=2024:06:01 08:00:07"], format: .png)
        // Half a minute later (not a burst with the first), one moment, two unique ids (and one camera unknown: no burst either).
        let later = ["-DateTimeOriginal=2024:06:01 08:00:30", "-Make=Apple", "-Model=iPhone 15"]
        let idJPEG = try Self.shot(try Self.frame(seed: 23, step: 0, blur: 1), scratch.path, "IMG_0003.JPG", exif: later + ["-ImageUniqueID=ONE"])
        let idWebP = try Self.shot(
            try Self.frame(seed: 23, step: 0, blur: 1), scratch.path, "IMG_0003.WEBP", exif: ["-DateTimeOriginal=2024:06:01 08:00:30", "-ImageUniqueID=TWO"],
            format: .webp)
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        for path in [webp, jpeg, lateJPEG, latePNG, idJPEG, idWebP] { _ = try await store.importFile(at: path, into: "Trip") }
        let stacks = try await store.stacks()
        var names: [AssetID: String] = [:]
        for item in try await store.items(in: "Trip") { names[item.asset] = item.originalName }
        #expect(stacks.count == 1, "\(stacks.map { $0.assets.map { names[$0] ?? "?" } })")
        let pair = try [jpeg, webp].map(Self.asset)
        #expect(stacks.first?.kind == .pair && Set(stacks.first?.assets ?? []) == Set(pair))
        #expect(stacks.first?.cover == pair[0])
        await store.close()
    }

    @Test("phones' burst names stack without EXIF: Huawei, Samsung, Sony Xperia, Nexus; the phone's cover flag is read")
    func burstNames() async throws {
        let cases: [(String, String, Int, Bool)] = [
            ("IMG_20231014_183246_BURST001_COVER.jpg", "IMG_20231014_183246", 1, true),
            ("IMG_20231014_183246_BURST002.jpg", "IMG_20231014_183246", 2, false),
            ("20231207_101605_001.jpg", "20231207_101605", 1, true),
            ("20231207_101605_014.jpg", "20231207_101605", 14, false),
            ("DSC_0052_BURST20230709220904977_COVER.JPG", "BURST20230709220904977", 52, true),
            ("DSC_0001_BURST20230709220904977.JPG", "BURST20230709220904977", 1, false),
            ("00015IMG_00015_BURST20171111030039_COVER.jpg", "BURST20171111030039", 15, true),
        ]
        for (name, base, index, cover) in cases {
            let parsed = try #require(BurstFileName(name), "\(name)")
            #expect(parsed.base == base && parsed.index == index && parsed.isCover == cover, "\(name): \(parsed)")
        }
        for name in ["IMG_0001.JPG", "20231207_101605.jpg", "PXL_20231014_183246123.jpg", "DSC_BURST.jpg", "IMG_2023_1_BURSTX.jpg", "", "_BURST12345678"] {
            #expect(BurstFileName(name) == nil, "\(name)")
        }
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        var paths: [String] = []
        for index in 1...3 {
            paths.append(
                try Self.shot(
                    try Self.frame(seed: 31, step: 0.003 * Double(index), blur: index == 2 ? 1 : 4), scratch.path, "20231207_101605_00\(index).jpg", exif: []))
        }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Phone")
        for path in paths { _ = try await store.importFile(at: path, into: "Phone") }
        let stack = try #require(try await store.stacks(in: "Phone").first)
        let sharp = try Self.asset(paths[1])
        #expect(stack.kind == .burst && stack.assets.count == 3 && stack.cover == sharp)
        await store.close()
    }
}
