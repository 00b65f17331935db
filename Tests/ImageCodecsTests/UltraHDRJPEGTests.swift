import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Ultra HDR JPEGs made here from bytes (a base JPEG, a gain map JPEG and
/// parameters, as the v1.0 format page lays them out), read back, read by
/// outside readers (Pillow opens a two-frame MPO; exiftool lists MPF and the
/// `hdrgm` tags), and damaged in the ways a file can lie.
@Suite("Ultra HDR JPEG: the gain map found, assembled, and refused when it lies")
struct UltraHDRJPEGTests {
    static let parameters = try! GainMapParameters(
        channels: [.init(minimumBoost: 0, maximumBoost: 2.5, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], baseHeadroom: 0,
        alternateHeadroom: 2.5)

    static func jpeg(_ bitmap: Bitmap) throws -> [UInt8] { try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 90)) }

    static func grayMap(width: Int, height: Int) throws -> [UInt8] {
        let pixels = (0..<(width * height)).map { UInt8(($0 * 7) & 0xFF) }
        return try jpeg(try Bitmap(width: width, height: height, pixelFormat: .gray8, pixels: pixels))
    }

    /// A 96×64 photo with a 48×32 one-channel map.
    static func made() throws -> (file: [UInt8], base: [UInt8], map: [UInt8]) {
        let base = try jpeg(Bitmap.gradient(width: 96, height: 64))
        let map = try grayMap(width: 48, height: 32)
        return (try UltraHDRJPEG.assemble(base: base, map: map, parameters: parameters), base, map)
    }

    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The gain map `file` carries, or a failure saying what the lookup answered.
    static func present(in file: [UInt8]) throws -> UltraHDRJPEG {
        let lookup = UltraHDRJPEG.find(in: file)
        guard case .present(let found) = lookup else { throw NotFound(description: "\(lookup)") }
        return found
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("assembled and found again: the ISO parameters within 1e-6, the map's size and channels, both pictures decodable")
    func roundTrip() throws {
        let (file, base, _) = try Self.made()
        let found = try Self.present(in: file)
        #expect(found.gainMap.flavour == .iso21496JPEG)
        #expect(found.gainMap.size == PixelSize(width: 48, height: 32) && found.gainMap.channelCount == 1)
        let read = found.gainMap.parameters.channel(0)
        #expect(abs(read.maximumBoost - 2.5) < 1e-6 && abs(read.baseOffset - 1.0 / 64) < 1e-6 && abs(found.gainMap.parameters.alternateHeadroom - 2.5) < 1e-6)
        #expect(found.primary.lowerBound == 0 && found.map.upperBound == file.count)
        let photo = try DecodedImage(decoding: Array(file[found.primary]))
        #expect(photo.bitmap.size == PixelSize(width: 96, height: 64))
        let map = try DecodedImage(decoding: Array(file[found.map]))
        #expect(map.bitmap.size == PixelSize(width: 48, height: 32))
        // The photo's compressed data is the base's, byte for byte.
        let original = try DecodedImage(decoding: base)
        #expect(photo.bitmap.withUnsafeBytes { a in original.bitmap.withUnsafeBytes { b in a.elementsEqual(b) } })
        // A plain JPEG claims nothing.
        #expect(UltraHDRJPEG.find(in: base) == .absent)
    }

    @Test("without ISO metadata the hdrgm XMP is read (Ultra HDR before 2025); without MPF the GContainer directory finds the map")
    func olderFlavours() throws {
        let (file, _, _) = try Self.made()
        // Rename the map's ISO segment's namespace: its XMP is what remains.
        var xmpOnly = file
        let namespace = Array("urn:iso:std:iso:ts:21496:-1".utf8)
        for start in xmpOnly.indices.reversed() where start + namespace.count <= xmpOnly.count && Array(xmpOnly[start..<start + namespace.count]) == namespace {
            xmpOnly[start] = UInt8(ascii: "x")
        }
        let found = try Self.present(in: xmpOnly)
        #expect(found.gainMap.flavour == .ultraHDR && found.gainMap.parameters == Self.parameters)
        // Break the MPF signature: the directory's Item:Length still places the map after the primary.
        var directoryOnly = file
        let mpf = Array("MPF".utf8) + [0]
        if let at = directoryOnly.indices.first(where: { $0 + 4 <= directoryOnly.count && Array(directoryOnly[$0..<$0 + 4]) == mpf }) {
            directoryOnly[at] = UInt8(ascii: "X")
        }
        let viaDirectory = try Self.present(in: directoryOnly)
        #expect(viaDirectory.map == found.map)
    }

    @Test("Pillow opens it as a two-picture MPO whose index places the map where it is; exiftool reads MPF, the directory and the hdrgm values")
    func outsideReaders() throws {
        let (file, _, _) = try Self.made()
        let found = try Self.present(in: file)
        let path = try Self.write(file, "ultrahdr.jpg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Pillow (python3-pil, Debian's python): the MP index as it reads it, and the second picture decoded from there.
        let script = """
            from PIL import Image, JpegImagePlugin
            im = Image.open('\(path)')
            entry = im.mpinfo[0xB002][1]
            size = im.size
            im.seek(1)
            start = im.offset
            print(im.format, im.n_frames, size, start, entry['Size'])
            data = open('\(path)', 'rb').read()[start:start + entry['Size']]
            import io
            print(Image.open(io.BytesIO(data)).size)
            """
        let scriptPath = path + ".py"
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }
        // Its errors too, on the same output: a Pillow that cannot read the file says why.
        let pillow = try ChildProcess.run("sh", ["-c", "/usr/bin/python3 '\(scriptPath)' 2>&1"])
        #expect(pillow.output == "MPO 2 (96, 64) \(found.map.lowerBound) \(found.map.count)\n(48, 32)\n", "Pillow: \(pillow.output)")
        let tags = try ChildProcess.run("exiftool", ["-s", "-struct", "-MPF:all", "-XMP:all", path]).output
        #expect(tags.contains("NumberOfImages                  : 2") && tags.contains("MPImageLength"), "\(tags)")
        #expect(tags.contains("Semantic=Primary") && tags.contains("Length=\(found.map.count),Mime=image/jpeg,Semantic=GainMap"), "\(tags)")
        // The map's own XMP, extracted by exiftool from the second picture: the hdrgm values.
        let mapPath = path + ".map.jpg"
        defer { try? FileManager.default.removeItem(atPath: mapPath) }
        let extracted = try ChildProcess.run("sh", ["-c", "exiftool -b -MPImage2 '\(path)' > '\(mapPath)' && exiftool -s -XMP-hdrgm:all '\(mapPath)'"]).output
        #expect(extracted.contains("GainMapMax") && extracted.contains("2.5") && extracted.contains("HDRCapacityMax"), "\(extracted)")
    }

    @Test("a file that lies about its map: offsets past the end, not a JPEG, larger than the photo, no parameters; truncations never trap")
    func hostile() throws {
        let (file, base, _) = try Self.made()
        let found = try Self.present(in: file)
        // Cut inside the map: MPF points past the end, the directory's length too.
        if case .unusable(let reason) = UltraHDRJPEG.find(in: Array(file.prefix(found.map.lowerBound + 100))) {
            #expect(reason.contains("no JPEG"), "\(reason)")
        } else {
            Issue.record("a cut map was accepted")
        }
        // The map's first bytes are not a JPEG's.
        var notJPEG = file
        notJPEG[found.map.lowerBound] = 0
        #expect(UltraHDRJPEG.find(in: notJPEG) == .unusable("the gain map's bytes (\(found.map.count) at \(found.map.lowerBound)) do not start a JPEG"))
        // A map larger than the photo.
        let big = try UltraHDRJPEG.assemble(base: base, map: try Self.grayMap(width: 200, height: 100), parameters: Self.parameters)
        if case .unusable(let reason) = UltraHDRJPEG.find(in: big) {
            #expect(reason.contains("larger than the photo"))
        } else {
            Issue.record("a larger map was accepted")
        }
        // A map with no parameters at all.
        var bare = file
        for name in ["urn:iso:std:iso:ts:21496:-1", "http://ns.adobe.com/hdr-gain-map/1.0/"] {
            let needle = Array(name.utf8)
            for start in bare.indices
            where start >= found.map.lowerBound && start + needle.count <= bare.count && Array(bare[start..<start + needle.count]) == needle {
                bare[start] = UInt8(ascii: "y")
            }
        }
        if case .unusable(let reason) = UltraHDRJPEG.find(in: bare) {
            #expect(reason.contains("no hdrgm XMP") || reason.contains("hdrgm"), "\(reason)")
        } else {
            Issue.record("a map without parameters was accepted")
        }
        // Every truncation and 2,000 seeded byte flips: an answer, never a trap.
        for length in stride(from: 0, through: file.count, by: max(1, file.count / 400)) { _ = UltraHDRJPEG.find(in: Array(file.prefix(length))) }
        var random = SeededGenerator(seed: 1)
        for _ in 0..<2_000 {
            var damaged = file
            for _ in 0..<3 { damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            if case .present(let read) = UltraHDRJPEG.find(in: damaged) {
                #expect(read.map.upperBound <= damaged.count && read.gainMap.parameters.channels.allSatisfy { $0.gamma > 0 })
            }
        }
    }
}
