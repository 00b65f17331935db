import Foundation
import ImageCodecs
import TestSupport
import Testing

/// `photo-fit --gain-map-info` on Ultra HDR JPEGs made here, a plain JPEG,
/// one whose map lies, and a PNG; `photo-fit` keeping the map in what it writes.
@Suite("photo-fit and gain maps")
struct PhotoFitGainMapTests {
    static func made(mapWidth: Int = 40, mapHeight: Int = 30) throws -> [UInt8] {
        let base = try Bitmap.gradient(width: 80, height: 60).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let pixels = [UInt8](repeating: 128, count: mapWidth * mapHeight)
        let map = try Bitmap(width: mapWidth, height: mapHeight, pixelFormat: .gray8, pixels: pixels).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let parameters = try GainMapParameters(channels: [.init(maximumBoost: 3)], alternateHeadroom: 3)
        return try UltraHDRJPEG.assemble(base: base, map: map, parameters: parameters)
    }

    static func file(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = PhotoFitTests.temporaryFile(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("an Ultra HDR JPEG: the map's flavour, size, channels and parameters, as a line and as JSON")
    func present() async throws {
        let path = try Self.file(try Self.made(), "ultrahdr.jpg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let line = try await PhotoFitTests.run(["--gain-map-info", path])
        #expect(line.status == 0, "\(line.standardError)")
        #expect(line.standardOutput.contains("gain map (Ultra HDR, ISO 21496-1 metadata), 40x30, 1 channel"), "\(line.standardOutput)")
        #expect(line.standardOutput.contains("boost 0 to 3 stops") && line.standardOutput.contains("the base is SDR"), "\(line.standardOutput)")
        let json = try await PhotoFitTests.run(["--gain-map-info", "--json", path])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let map = object?["gainMap"] as? [String: Any]
        #expect(map?["flavour"] as? String == "iso21496JPEG" && map?["width"] as? Int == 40 && map?["channels"] as? Int == 1)
        #expect(abs((map?["alternateHeadroom"] as? Double ?? 0) - 3) < 1e-6, "\(json.standardOutput)")
    }

    @Test("no map, a map that lies, a PNG: each said in one line (exit 0); JSON says null and why")
    func absentAndUnusable() async throws {
        let plain = try Self.file(try Bitmap.gradient(width: 80, height: 60).encoded(as: .jpeg, options: EncodeOptions(quality: 90)), "plain.jpg")
        let lying = try Self.file(try Self.made(mapWidth: 160, mapHeight: 120), "lying.jpg")
        let png = try Self.file(try Bitmap.gradient(width: 8, height: 8).encoded(as: .png, options: EncodeOptions()), "plain.png")
        defer { for path in [plain, lying, png] { try? FileManager.default.removeItem(atPath: path) } }
        let none = try await PhotoFitTests.run(["--gain-map-info", plain])
        #expect(none.status == 0 && none.standardOutput.hasSuffix(": no gain map\n"), "\(none.standardOutput)")
        let bad = try await PhotoFitTests.run(["--gain-map-info", lying])
        #expect(
            bad.status == 0 && bad.standardOutput.contains("cannot be used: the gain map (160x120) is larger than the photo (80x60)"), "\(bad.standardOutput)")
        let badJSON = try await PhotoFitTests.run(["--gain-map-info", "--json", lying])
        let object = try JSONSerialization.jsonObject(with: Data(badJSON.standardOutput.utf8)) as? [String: Any]
        #expect(object?["gainMap"] is NSNull && (object?["problem"] as? String)?.contains("larger") == true, "\(badJSON.standardOutput)")
        let other = try await PhotoFitTests.run(["--gain-map-info", png])
        #expect(other.status == 0 && other.standardOutput.contains("gain maps are read from JPEG and HEIF files"), "\(other.standardOutput)")
        let misuse = try await PhotoFitTests.run(["--json", plain, "out.jpg"])
        #expect(misuse.status == 1 && misuse.standardError.contains("--json goes with --gain-map-info"))
    }

    @Test("fitting an Ultra HDR JPEG writes Ultra HDR with the map shaped alike; --drop-gain-map and PNG write it flat and say so")
    func fitKeepsTheMap() async throws {
        let input = try Self.file(try Self.made(), "hdr.jpg")
        let output = PhotoFitTests.temporaryFile("out.jpg")
        let png = PhotoFitTests.temporaryFile("out.png")
        defer { for path in [input, output, png] { try? FileManager.default.removeItem(atPath: path) } }
        let fitted = try await ExampleProcess.run("photo-fit", ["--width", "40", "--height", "40", input, output])
        #expect(fitted.status == 0, "\(fitted.standardError)")
        #expect(
            fitted.standardOutput.contains("-> JPEG 40x30") && fitted.standardOutput.contains("gain map 20x15 kept (Ultra HDR)"), "\(fitted.standardOutput)")
        let written = try fileBytes(URL(fileURLWithPath: output))
        guard case .present(let found) = UltraHDRJPEG.find(in: written) else {
            Issue.record("no gain map in the output: \(UltraHDRJPEG.find(in: written))")
            return
        }
        #expect(found.gainMap.size == PixelSize(width: 20, height: 15) && abs(found.gainMap.parameters.alternateHeadroom - 3) < 1e-6)
        let tags = try ExifTool.tags(of: written, fileExtension: "jpg")
        #expect(tags.keys.contains { $0.hasSuffix(":NumberOfImages") } && tags["XMP-hdrgm:Version"] == "1.0", "\(tags.keys.sorted())")
        // A fill with a crop: the map is cropped the same way.
        let filled = try await ExampleProcess.run("photo-fit", ["--width", "30", "--height", "30", "--crop", "attention", input, output])
        #expect(filled.standardOutput.contains("gain map 15x15 kept"), "\(filled.standardOutput)")
        let flat = try await ExampleProcess.run("photo-fit", ["--drop-gain-map", "--width", "40", "--height", "40", input, output])
        #expect(flat.standardOutput.contains("gain map dropped (--drop-gain-map)"), "\(flat.standardOutput)")
        #expect(UltraHDRJPEG.find(in: try fileBytes(URL(fileURLWithPath: output))) == .absent)
        let asPNG = try await ExampleProcess.run("photo-fit", [input, png])
        #expect(asPNG.status == 0 && asPNG.standardOutput.contains("gain map dropped (PNG output carries none here"), "\(asPNG.standardOutput)")
    }

    @Test("an iPhone HDR HEIC fitted to .jpg becomes Ultra HDR from Apple's map")
    func heicToUltraHDR() async throws {
        let levels: [UInt8] = (0..<(40 * 30)).map { (index: Int) -> UInt8 in UInt8(index % 40 * 6) }
        let map = try Bitmap(width: 40, height: 30, pixelFormat: .gray8, pixels: levels)
        let input = try Self.file(try TestHDRPhotos.iPhoneHEIC(photo: Bitmap.gradient(width: 80, height: 60), map: map), "iphone.heic")
        let output = PhotoFitTests.temporaryFile("out.jpg")
        defer { for path in [input, output] { try? FileManager.default.removeItem(atPath: path) } }
        let fitted = try await ExampleProcess.run("photo-fit", ["--width", "40", "--height", "40", input, output])
        #expect(fitted.status == 0, "\(fitted.standardError)")
        #expect(fitted.standardOutput.contains("gain map 20x15 kept (Ultra HDR, from Apple's)"), "\(fitted.standardOutput)")
        let info = try await PhotoFitTests.run(["--gain-map-info", output])
        #expect(info.standardOutput.contains("20x15, 1 channel"), "\(info.standardOutput)")
        let source = try await PhotoFitTests.run(["--gain-map-info", input])
        #expect(source.standardOutput.contains("gain map (Apple auxiliary image, headroom from the maker note), 40x30, 1 channel;"), "\(source.standardOutput)")
        #expect(source.standardOutput.contains("headroom 0 to 2.72 stops"), "\(source.standardOutput)")
    }
}
