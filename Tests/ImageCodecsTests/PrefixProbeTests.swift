import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Headers read from the first bytes of a file still arriving.
@Suite("Probing a prefix", .dedicatedThreads)
struct PrefixProbeTests {
    /// Real files of every format a download may bring, and encodings with
    /// EXIF (orientation, date) and alpha.
    static func samples() throws -> [(name: String, bytes: [UInt8])] {
        var files: [(String, [UInt8])] = []
        for path in [
            "exif-orientation-examples/Landscape_6.jpg", "exif-orientation-examples/Portrait_8.jpg", "libjpeg-turbo-testimages/testimgint.jpg",
            "libpng-testpngs/ch2n3p08.png", "image-rs-samples/webp/extended_images/lossy_alpha.webp",
            "image-rs-samples/webp/extended_images/anim.webp",
        ] {
            let url = TestData.root.appendingPathComponent(path)
            files.append((path, try fileBytes(url, limit: 8 << 20)))
        }
        let picture = Bitmap.noise(width: 640, height: 480, seed: 36)
        let date = try #require(CaptureDate(exifDateTime: "2026:12:04 17:00:00", offset: "+01:00"))
        let exif = ExifMetadata(orientation: .right, captureDate: date)
        for format in [ImageFormat.jpeg, .png, .webp] {
            files.append(("generated.\(format)", try picture.encoded(as: format, options: EncodeOptions(quality: 85, exif: exif))))
        }
        files.append(
            ("progressive.jpeg", try picture.encoded(as: .jpeg, options: EncodeOptions(quality: 85, isProgressive: true, exif: exif))))
        return files
    }

    @Test("every prefix gives the whole file's header or nil, never another answer; the whole file gives it")
    func prefixesAgree() throws {
        let samples = try Self.samples()
        var checked = 0
        for (name, bytes) in samples {
            let whole = try ImageInfo(probing: bytes)
            #expect(try ImageInfo.probing(prefix: bytes, totalLength: bytes.count) == whole, "\(name)")
            var earliest: Int?
            // Every length up to 256 bytes, then steps that reach every part of a header.
            let lengths = Array(0...min(256, bytes.count)) + Array(stride(from: 257, to: bytes.count, by: 97))
            for length in lengths {
                let prefix = Array(bytes.prefix(length))
                let early: ImageInfo?
                do {
                    early = try ImageInfo.probing(prefix: prefix, totalLength: bytes.count)
                } catch {
                    Issue.record("\(name): a prefix of \(length) bytes threw \(error), which the whole file does not")
                    continue
                }
                guard let early else { continue }
                #expect(early == whole, "\(name) at \(length) bytes: \(early) vs \(whole)")
                earliest = earliest ?? length
            }
            // A JPEG or PNG larger than the probe's read-ahead (16 KiB) is read early, within it of the
            // header's end. (A WebP's EXIF chunk follows its pixels: its header is whole only at the end.)
            guard bytes.count > 40_000, !name.lowercased().hasSuffix("webp") else { continue }
            let first = try #require(earliest, "\(name): never read early")
            #expect(first <= 24_000, "\(name): read after \(first) of \(bytes.count) bytes")
            checked += 1
        }
        #expect(checked >= 3, "large files read early: \(checked)")
    }

    @Test("bytes that are no image fail as the whole file does; a length shorter than the prefix is nil")
    func hostile() throws {
        let text = Array(String(repeating: "<html>not a picture</html>", count: 100).utf8)
        #expect(throws: ImageCodecError.self) { try ImageInfo.probing(prefix: text, totalLength: text.count * 4) }
        let jpeg = try Bitmap.noise(width: 64, height: 64, seed: 1).encoded(as: .jpeg)
        #expect(try ImageInfo.probing(prefix: jpeg, totalLength: 10) == nil)
        #expect(throws: ImageCodecError.self, "an empty file, whole") { try ImageInfo.probing(prefix: [], totalLength: 0) }
        // A declared length far past the bytes: never a guess from what is missing.
        let cut = Array(jpeg.prefix(40))
        #expect(try ImageInfo.probing(prefix: cut, totalLength: Int.max) == nil)
    }
}
