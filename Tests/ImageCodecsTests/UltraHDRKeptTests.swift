import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// An Ultra HDR JPEG's gain map survives what PhotoDeck does to a JPEG
/// without decoding it: a metadata rewrite under every built-in policy,
/// and every lossless rotation and flip (the map turned the same way,
/// losslessly when its blocks move whole). Location and serials still go.
@Suite("Ultra HDR JPEG: the gain map kept through rewrites and lossless transforms")
struct UltraHDRKeptTests {
    static let parameters = UltraHDRJPEGTests.parameters

    /// A picture no rotation or flip leaves alike: a left-to-right ramp
    /// with a bright block in the top-left corner.
    static func scene(width: Int, height: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let corner = x < width / 3 && y < height / 4
                let value = UInt8(min(255, x * 120 / width + (corner ? 130 : 0)))
                let at = (y * width + x) * 3
                (pixels[at], pixels[at + 1], pixels[at + 2]) = (value, value, value)
            }
        }
        return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// A phone's Ultra HDR JPEG of `scene`: GPS, serials and an XMP packet
    /// of its own in the photo; the map the scene at half size, in grey.
    static func phoneUltraHDR(width: Int = 96, height: Int = 64, orientation: ImageOrientation = .up) throws -> [UInt8] {
        let bitmap = try scene(width: width, height: height)
        let exif = orientation == .up ? nil : ExifMetadata(orientation: orientation)
        let plain = try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 92, exif: exif))
        let base = try ExifTool.writing(ExifTool.phoneMetadata, to: plain, fileExtension: "jpg")
        let map = try gray(bitmap.resized(to: PixelSize(width: width / 2, height: height / 2))).encoded(as: .jpeg, options: EncodeOptions(quality: 95))
        return try UltraHDRJPEG.assemble(base: base, map: map, parameters: parameters)
    }

    static func gray(_ bitmap: Bitmap) throws -> Bitmap {
        let rgb = bitmap.converted(to: .rgb8)
        let pixels = stride(from: 0, to: rgb.pixels.count, by: 3).map { rgb.pixels[$0] }
        return try Bitmap(width: rgb.width, height: rgb.height, pixelFormat: .gray8, pixels: pixels)
    }

    /// How far the map is from the photo it belongs to: the photo shown
    /// (orientation applied), shrunk to the map's size, against the map;
    /// the mean difference of grey levels.
    static func mismatch(of file: [UInt8]) throws -> Double {
        let found = try UltraHDRJPEGTests.present(in: file)
        let photo = try DecodedImage(decoding: Array(file[found.primary])).bitmap
        let map = try DecodedImage(decoding: Array(file[found.map]), options: DecodeOptions(appliesOrientation: false, colorHandling: .preserve)).bitmap
        let shrunk = try gray(photo.resized(to: map.size))
        let total = zip(shrunk.pixels, map.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(map.pixels.count)
    }

    @Test("rewritten under default and strict: the map, its parameters and the photo's pixels stay; GPS, serials and XMP go")
    func rewrites() throws {
        let file = try Self.phoneUltraHDR()
        let before = try UltraHDRJPEGTests.present(in: file)
        for policy in [MetadataPolicy.default, .strict] {
            let shared = try policy.rewriting(file)
            let after = try UltraHDRJPEGTests.present(in: shared.bytes)
            #expect(after.gainMap.size == before.gainMap.size && after.gainMap.channelCount == 1)
            #expect(abs(after.gainMap.parameters.channel(0).maximumBoost - 2.5) < 1e-6)
            #expect(!shared.removed.contains(.gainMap) && shared.removed.isSuperset(of: [.location, .identifying, .xmp]), "\(shared.removed)")
            // The map's compressed picture and the photo's pixels are the same.
            #expect(try MetadataRewriteTests.pixels(Array(shared.bytes[after.map])) == MetadataRewriteTests.pixels(Array(file[before.map])))
            #expect(try MetadataRewriteTests.pixels(Array(shared.bytes[after.primary])) == MetadataRewriteTests.pixels(Array(file[before.primary])))
            let tags = try ExifTool.tags(of: shared.bytes, fileExtension: "jpg")
            #expect(
                !tags.keys.contains { $0.contains("GPS") || $0.hasSuffix("SerialNumber") || $0.hasSuffix(":Creator") || $0.hasSuffix(":City") },
                "\(tags.keys.sorted())")
            // What finds the map is still there for other readers: MPF and the directory.
            #expect(tags["MPF0:NumberOfImages"] == "2" || tags.keys.contains { $0.hasSuffix(":NumberOfImages") }, "\(tags.keys.sorted())")
            #expect(tags.keys.contains { $0.hasPrefix("XMP-Container:Directory") }, "\(tags.keys.sorted())")
        }
    }

    @Test("a policy that drops the gain map leaves a plain JPEG and says so")
    func dropped() throws {
        let file = try Self.phoneUltraHDR()
        let before = try UltraHDRJPEGTests.present(in: file)
        var policy = MetadataPolicy.default
        policy.keepsGainMap = false
        let shared = try policy.rewriting(file)
        #expect(UltraHDRJPEG.find(in: shared.bytes) == .absent)
        #expect(shared.removed.contains(.gainMap))
        #expect(shared.bytes.count < file.count - before.map.count)
        #expect(try MetadataRewriteTests.pixels(shared.bytes) == MetadataRewriteTests.pixels(Array(file[before.primary])))
    }

    @Test("a policy that keeps XMP keeps the photo's own packet, location out, with the directory added to it")
    func xmpMerged() throws {
        let file = try Self.phoneUltraHDR()
        var policy = MetadataPolicy.keepAll
        policy.keepsLocation = false
        let shared = try policy.rewriting(file)
        _ = try UltraHDRJPEGTests.present(in: shared.bytes)
        let tags = try ExifTool.tags(of: shared.bytes, fileExtension: "jpg")
        #expect(tags["XMP-dc:Creator"] == "Jane Doe", "\(tags.keys.sorted())")
        #expect(!tags.keys.contains { $0.contains("GPS") || $0.hasSuffix(":City") }, "\(tags.keys.sorted())")
        // One directory, naming the map's current length.
        let path = try UltraHDRJPEGTests.write(shared.bytes, "merged.jpg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let xmp = try ChildProcess.run("exiftool", ["-b", "-XMP", path]).output
        #expect(xmp.components(separatedBy: #"Item:Semantic="GainMap""#).count == 2, "\(xmp)")
        #expect(xmp.contains(#"Item:Length="\#(try UltraHDRJPEGTests.present(in: shared.bytes).map.count)""#), "\(xmp)")
    }

    @Test("every lossless rotation and flip turns the map with the photo, block for block")
    func transforms() throws {
        let file = try Self.phoneUltraHDR()
        let before = try UltraHDRJPEGTests.present(in: file)
        let map = try JPEGCoefficients(of: Array(file[before.map]))
        for operation in JPEGTransform.Operation.allCases {
            let turned = try JPEGTransform.apply(operation, to: file, metadata: .default)
            let after = try UltraHDRJPEGTests.present(in: turned.bytes)
            let expected = operation.swapsSides ? PixelSize(width: 32, height: 48) : PixelSize(width: 48, height: 32)
            #expect(after.gainMap.size == expected, "\(operation)")
            #expect(
                JPEGTransformTests.coefficientsMoved(map, try JPEGCoefficients(of: Array(turned.bytes[after.map])), by: operation),
                "\(operation): the map's blocks moved losslessly")
            #expect(try Self.mismatch(of: turned.bytes) < 6, "\(operation)")
            #expect(turned.removed.contains(.location) && !turned.removed.contains(.gainMap), "\(operation)")
        }
    }

    @Test("each of the eight EXIF orientations applied: the map turned to match the upright photo")
    func orientations() throws {
        for orientation in ImageOrientation.allCases {
            let file = try Self.phoneUltraHDR(orientation: orientation)
            let upright = try JPEGTransform.applyingOrientation(of: file, metadata: .default)
            let found = try UltraHDRJPEGTests.present(in: upright.bytes)
            let shown = orientation.orientedSize(PixelSize(width: 48, height: 32))
            #expect(found.gainMap.size == shown, "\(orientation)")
            #expect(try Self.mismatch(of: upright.bytes) < 6, "\(orientation)")
        }
    }

    @Test("a trimmed photo's map is cropped by the same share of each side, then turned (decoded and encoded again)")
    func trimmed() throws {
        // 100x70 in 16-pixel blocks: a quarter turn keeps 64 rows; the 50x35 map keeps 32.
        let file = try Self.phoneUltraHDR(width: 100, height: 70)
        #expect(throws: ImageCodecError.self) { try JPEGTransform.apply(.rotate90, to: file, edges: .perfect) }
        let turned = try JPEGTransform.apply(.rotate90, to: file, edges: .trim, metadata: .default)
        let found = try UltraHDRJPEGTests.present(in: turned.bytes)
        #expect(found.gainMap.size == PixelSize(width: 32, height: 50))
        #expect(try Self.mismatch(of: turned.bytes) < 6)
        // A map whose blocks cannot move whole beside a photo that loses nothing: decoded, flipped, encoded again.
        let odd = try Self.phoneUltraHDR(width: 96, height: 64)
        let flipped = try JPEGTransform.apply(.flipVertical, to: try Self.withMap(of: odd, resizedTo: PixelSize(width: 48, height: 34)), metadata: .default)
        #expect(try UltraHDRJPEGTests.present(in: flipped.bytes).gainMap.size == PixelSize(width: 48, height: 34))
        #expect(try Self.mismatch(of: flipped.bytes) < 6)
    }

    @Test("a rendition's map: turned, cropped where the fill cropped, at the map's own ratio; encoded as Ultra HDR again")
    func renditions() throws {
        for orientation in [ImageOrientation.up, .right, .leftMirrored] {
            let file = try Self.phoneUltraHDR(width: 192, height: 128, orientation: orientation)
            let ultraHDR = try UltraHDRJPEGTests.present(in: file)
            for (box, mode, crop) in [
                (PixelSize(width: 80, height: 80), RenditionMode.fit, CropStrategy.centre), (PixelSize(width: 60, height: 60), .fill, .attention),
            ] {
                let page = try DecodedImage(rendering: file, in: box, mode: mode, options: RenditionOptions(crop: crop))
                let map = try ultraHDR.map(matching: page, in: file)
                let expected = PixelSize(width: (page.bitmap.width + 1) / 2, height: (page.bitmap.height + 1) / 2)
                #expect(
                    abs(map.bitmap.width - expected.width) <= 1 && abs(map.bitmap.height - expected.height) <= 1,
                    "\(orientation) \(mode): \(map.bitmap.size) for a \(page.bitmap.size) page")
                #expect(map.gainMap.size == map.bitmap.size && map.gainMap.channelCount == 1)
                let encoded = try UltraHDRJPEG.encode(page.bitmap, map: map, options: EncodeOptions(quality: 95))
                let read = try UltraHDRJPEGTests.present(in: encoded).gainMap.parameters
                #expect(abs(read.channel(0).maximumBoost - 2.5) < 1e-6 && abs(read.alternateHeadroom - ultraHDR.gainMap.parameters.alternateHeadroom) < 1e-6)
                #expect(try Self.mismatch(of: encoded) < 8, "\(orientation) \(mode) \(crop)")
            }
            // A whole decode (no box) keeps the whole map, turned.
            let whole = try DecodedImage(decoding: file)
            #expect(try ultraHDR.map(matching: whole, in: file).bitmap.size == orientation.orientedSize(PixelSize(width: 96, height: 64)))
        }
        // A rendition of another photo is refused, not mapped.
        let file = try Self.phoneUltraHDR()
        let other = try DecodedImage(rendering: try Self.phoneUltraHDR(width: 192, height: 128), in: PixelSize(width: 50, height: 50))
        #expect(throws: ImageCodecError.self) { try UltraHDRJPEGTests.present(in: file).map(matching: other, in: file) }
    }

    @Test("damaged Ultra HDR files: a rewrite and a turn never trap; a map whose scans are damaged is left out, the photo kept")
    func damaged() throws {
        let file = try Self.phoneUltraHDR()
        let found = try UltraHDRJPEGTests.present(in: file)
        // The map's scans cut off after their header: the map's header reads, its blocks do not.
        let mapBytes = Array(file[found.map])
        let sos = try #require(mapBytes.indices.first { mapBytes[$0] == 0xFF && mapBytes[$0 + 1] == 0xDA })
        let headerLength = Int(mapBytes[sos + 2]) << 8 | Int(mapBytes[sos + 3])
        let cut = Array(mapBytes[..<(sos + 2 + headerLength)]) + [0xFF, 0xD9]
        let broken = try UltraHDRJPEG.assemble(base: found.primaryAlone(in: file), map: cut, parameters: Self.parameters)
        _ = try UltraHDRJPEGTests.present(in: broken)
        let turned = try JPEGTransform.apply(.rotate90, to: broken, metadata: .default)
        #expect(try DecodedImage(decoding: turned.bytes).bitmap.size == PixelSize(width: 64, height: 96))
        #expect(UltraHDRJPEG.find(in: turned.bytes) == .absent && turned.removed.contains(.gainMap))
        // Seeded corruptions anywhere: an answer or a typed error, never a trap.
        var random = SeededGenerator(seed: 55)
        var answered = 0
        for _ in 0..<300 {
            var bytes = file
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            if (try? MetadataPolicy.default.rewriting(bytes)) != nil { answered += 1 }
            _ = try? JPEGTransform.apply(.transverse, to: bytes, edges: .trim, metadata: .strict)
        }
        #expect(answered > 0)
    }

    @Test("the directory and hdrgm properties come out of a packet in any form; other properties stay; a packet of only them goes")
    func directoryRemoved() {
        let container = #"xmlns:C="http://ns.google.com/photos/1.0/container/" xmlns:I="http://ns.google.com/photos/1.0/container/item/""#
        let hdrgm = #"xmlns:h="http://ns.adobe.com/hdr-gain-map/1.0/""#
        let directory = #"<C:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><C:Item I:Semantic="GainMap" I:Length="9"/></rdf:li></rdf:Seq></C:Directory>"#
        func packet(_ body: String, attributes: String = "") -> String {
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
                + #"<rdf:Description rdf:about="" \#(container) \#(hdrgm) xmlns:dc="http://purl.org/dc/elements/1.1/"\#(attributes)>"# + body
                + "</rdf:Description></rdf:RDF></x:xmpmeta>"
        }
        // Only the gain map's: nothing left.
        #expect(XMPPacket.removingGainMapDirectory(packet(directory, attributes: #" h:Version="1.0""#)) == nil)
        #expect(XMPPacket.removingGainMapDirectory(packet(directory + "<h:Version>1.0</h:Version><h:Empty/>")) == nil)
        // Other properties stay, quoted '>' and all; the gain map's go.
        let mixed = packet(
            directory + #"<dc:title><rdf:Alt><rdf:li xml:lang="x-default">a > b</rdf:li></rdf:Alt></dc:title>"#,
            attributes: #" h:Version = '1.0' dc:format="image/jpeg""#)
        let kept = XMPPacket.removingGainMapDirectory(mixed)
        #expect(kept?.contains("a > b") == true && kept?.contains(#"dc:format="image/jpeg""#) == true, "\(kept ?? "nil")")
        #expect(kept?.contains("Directory") == false && kept?.contains("h:Version") == false, "\(kept ?? "nil")")
        // A directory with no end is left as it is (and keeps the packet).
        let unterminated = packet("<C:Directory><rdf:Seq>")
        #expect(XMPPacket.removingGainMapDirectory(unterminated)?.contains("<C:Directory>") == true)
        // A 60 KB packet of other properties is scanned once.
        let large = packet(String(repeating: "<dc:subject>tag</dc:subject>", count: 2_000) + directory)
        #expect(XMPPacket.removingGainMapDirectory(large)?.utf8.count == large.utf8.count - directory.utf8.count)
    }

    /// `file` with its map made again at `size` (from the photo).
    static func withMap(of file: [UInt8], resizedTo size: PixelSize) throws -> [UInt8] {
        let found = try UltraHDRJPEGTests.present(in: file)
        let photo = try DecodedImage(decoding: Array(file[found.primary])).bitmap
        let map = try gray(photo.resized(to: size)).encoded(as: .jpeg, options: EncodeOptions(quality: 95))
        return try UltraHDRJPEG.assemble(base: found.primaryAlone(in: file), map: map, parameters: parameters)
    }

    @Test("a policy written before keepsGainMap existed reads as keeping the map; one that drops it reads back so")
    func codable() throws {
        let old = #"{"keepsLocation":false,"keepsCaptureDate":true,"keepsCamera":true,"keepsIdentifying":false,"keepsEverythingElse":false}"#
        let read = try JSONDecoder().decode(MetadataPolicy.self, from: Data(old.utf8))
        #expect(read == .default && read.keepsGainMap)
        var dropping = MetadataPolicy.strict
        dropping.keepsGainMap = false
        let again = try JSONDecoder().decode(MetadataPolicy.self, from: JSONEncoder().encode(dropping))
        #expect(again == dropping && !again.keepsGainMap)
    }
}
