import Foundation
import ImageCodecs
import PhotoAlbum
import TestSupport
import Testing

@Suite("Album store: saving a rotation", .dedicatedThreads)
struct AlbumRotationTests {
    /// A smooth JPEG (a gradient, so pixels can be compared after a turn) with `orientation` in its EXIF.
    static func smoothPhoto(in scratch: Scratch, _ name: String, width: Int = 64, height: Int = 48, orientation: ImageOrientation) throws -> String {
        let date = CaptureDate(year: 2024, month: 7, day: 14, hour: 9, minute: 30, second: 0, utcOffsetSeconds: 7200)
        let bytes = try Bitmap.gradient(width: width, height: height, phase: 3).encoded(
            as: .jpeg, options: EncodeOptions(quality: 95, exif: ExifMetadata(orientation: orientation, captureDate: date)))
        let file = "\(scratch.path)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    static func jpegFiles(in store: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: "\(store)/originals").filter { $0.hasSuffix(".jpg") }.sorted()
    }

    @Test("a saved rotation replaces the photo in its album, at its place and under its name, without loss; other albums keep the old one")
    func rotateInPlace() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let folder = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        try await store.createAlbum(named: "Favourites")
        let sideways = try Self.smoothPhoto(in: scratch, "IMG_0001.jpg", orientation: .right)
        let old = try await store.add(fileAt: sideways, to: "Trip")
        _ = try await store.add(fileAt: try scratch.photo("b.jpg", seed: 2), to: "Trip")
        _ = try await store.add(fileAt: try scratch.photo("c.jpg", seed: 3), to: "Trip")
        _ = try await store.add(fileAt: sideways, to: "Favourites")
        let oldBytes = try fileBytes(URL(fileURLWithPath: try await store.originalPath(of: old.asset)))

        // Shown 48×64 (tag 6), a quarter turn clockwise: shown, and stored, 64×48 with the tag upright.
        let turned = try await store.rotate(old.asset, in: "Trip", by: .rotate90)
        #expect(turned.asset != old.asset)
        #expect(turned.position == 0 && turned.originalName == "IMG_0001.jpg")
        #expect(turned.orientation == .up && turned.size == PixelSize(width: 64, height: 48))
        #expect(turned.captureDate == old.captureDate, "the metadata stays")
        let trip = try await store.items(in: "Trip")
        #expect(trip.map(\.asset) == [turned.asset] + trip.dropFirst().map(\.asset) && trip.count == 3)
        #expect(!trip.contains { $0.asset == old.asset })

        // The stored file is the lossless transform of the old one, byte for byte.
        let newBytes = try fileBytes(URL(fileURLWithPath: try await store.originalPath(of: turned.asset)))
        #expect(newBytes == (try JPEGTransform.apply(.rotate90, to: oldBytes, edges: .perfect, metadata: .keepAll).bytes))
        // Its pixels are the old ones as shown, turned: no decode and encode again in between.
        let shownTurned = try ImageCodecRegistry.shared.decode(oldBytes).bitmap.oriented(.right)
        let decoded = try ImageCodecRegistry.shared.decode(newBytes).bitmap
        #expect(decoded.size == shownTurned.size)
        #expect(peakSignalToNoise(decoded, shownTurned) > 40, "\(peakSignalToNoise(decoded, shownTurned)) dB")

        // Favourites still holds the old photo, so its file stays.
        #expect(try await store.items(in: "Favourites").map(\.asset) == [old.asset])
        #expect(try Self.jpegFiles(in: folder).count == 4)

        // Turned there too: the same content, so the same asset, and the old file, in no album now, goes.
        let again = try await store.rotate(old.asset, in: "Favourites", by: .rotate90)
        #expect(again.asset == turned.asset)
        #expect(try Self.jpegFiles(in: folder).count == 3)
        await #expect(throws: AlbumError.noSuchAsset(old.asset)) { try await store.originalPath(of: old.asset) }

        // Three more quarter turns bring the picture back as it was shown, pixel for pixel.
        var current = turned.asset
        for _ in 0..<3 { current = try await store.rotate(current, in: "Trip", by: .rotate90).asset }
        let back = try ImageCodecRegistry.shared.decode(try fileBytes(URL(fileURLWithPath: try await store.originalPath(of: current)))).bitmap
        let shown = try ImageCodecRegistry.shared.decode(oldBytes).bitmap
        #expect(back.size == shown.size && peakSignalToNoise(back, shown) > 40)
        await store.close()
    }

    @Test("a photo that cannot be turned without loss is refused, and nothing changes; a trim is the caller's choice")
    func refusals() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let folder = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        let png = "\(scratch.path)/p.png"
        try Data(try Bitmap.gradient(width: 32, height: 32, phase: 0).encoded(as: .png)).write(to: URL(fileURLWithPath: png))
        let pngItem = try await store.add(fileAt: png, to: "Trip")
        // 50×30 with 4:2:0 blocks of 16: a quarter turn would move the partial bottom row of blocks.
        let ragged = try await store.add(fileAt: try Self.smoothPhoto(in: scratch, "r.jpg", width: 50, height: 30, orientation: .up), to: "Trip")
        let before = try await store.items(in: "Trip")
        let files = try FileManager.default.subpathsOfDirectory(atPath: "\(folder)/originals").sorted()

        await #expect(throws: AlbumError.self) { try await store.rotate(pngItem.asset, in: "Trip", by: .rotate90) }
        do {
            _ = try await store.rotate(ragged.asset, in: "Trip", by: .rotate90)
            Issue.record("a ragged JPEG was turned under .perfect")
        } catch {
            guard case .notAnImage(_, .unsupportedFeature) = error else { throw error }
        }
        await #expect(throws: AlbumError.noSuchAlbum("Nowhere")) { try await store.rotate(ragged.asset, in: "Nowhere", by: .rotate90) }
        try await store.createAlbum(named: "Other")
        await #expect(throws: AlbumError.noSuchAsset(ragged.asset)) { try await store.rotate(ragged.asset, in: "Other", by: .rotate90) }
        #expect(try await store.items(in: "Trip") == before)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: "\(folder)/originals").sorted() == files)

        let trimmed = try await store.rotate(ragged.asset, in: "Trip", by: .rotate90, edges: .trim)
        #expect(trimmed.size == PixelSize(width: 16, height: 50), "the partial row of blocks dropped: \(trimmed.size)")
        #expect(trimmed.position == 1)
        await store.close()
    }

    @Test("after a saved rotation, a store whose index is lost lists the turned photo at its place again (from the journal)")
    func journalReplay() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let folder = "\(scratch.path)/store"
        var store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        for seed in 1...3 { _ = try await store.add(fileAt: try scratch.photo("\(seed).jpg", seed: UInt64(seed)), to: "Trip") }
        let middle = try await store.items(in: "Trip")[1]
        let turned = try await store.rotate(middle.asset, in: "Trip", by: .flipHorizontal)
        let expected = try await store.items(in: "Trip").map(\.asset)
        #expect(expected[1] == turned.asset && expected.count == 3)
        await store.close()

        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] { try? FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        store = try await AlbumStore.open(directory: folder)
        #expect(try await store.items(in: "Trip").map(\.asset) == expected)
        #expect(try Self.jpegFiles(in: folder).count == 3, "the old original is gone, nothing else")
        await store.close()
    }
}
