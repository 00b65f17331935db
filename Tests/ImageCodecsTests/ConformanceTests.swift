import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Every image in Tests/Fixtures/conformance, against the expectations of
/// its VERIFY.tsv.
@Suite("Conformance: third-party test images", .dedicatedThreads)
struct ConformanceTests {
    @Test("the expectation table is present")
    func tableIsPresent() {
        #expect(TestData.entries.count > 600, "VERIFY.tsv not found under \(TestData.root.path)")
        #expect(TestData.entries(intent: "invalid").allSatisfy { $0.expected != nil }, "every invalid file names how it must fail")
    }

    @Test("valid images decode, at the size the header probe reports", arguments: TestData.entries(intent: "valid"))
    func validImagesDecode(_ entry: TestData.Entry) throws {
        let bytes = try entry.bytes()
        let info = try ImageInfo(probing: bytes)
        #expect(info.format.identifier == entry.magic)
        let image = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false))
        #expect(image.bitmap.size == info.size)
        #expect(image.sourceSize == info.size)
        #expect(image.bitmap.pixels.count >= image.bitmap.bytesPerRow * image.bitmap.height)
        let oriented = try DecodedImage(decoding: bytes)
        #expect(oriented.bitmap.size == info.orientedSize)
    }

    @Test("invalid images fail with the error the table names, or decode with a warning", arguments: TestData.entries(intent: "invalid"))
    func invalidImagesAreRejected(_ entry: TestData.Entry) throws {
        let bytes = try entry.bytes()
        let expected = try #require(entry.expected)
        do {
            let image = try DecodedImage(decoding: bytes)
            #expect(expected == .warning, "decoded \(image.bitmap) although it must fail as \(expected)")
            #expect(!image.warnings.isEmpty, "decoded \(image.bitmap) without complaint")
        } catch {
            let format = ImageFormat(sniffing: bytes)
            switch (expected, error) {
            case (.unsupportedFormat, .unsupportedFormat(let leading)):
                #expect(leading == Array(bytes.prefix(12)))
            case (.truncated, .truncated(let actual, _)), (.corrupt, .corrupt(let actual, _)):
                #expect(actual == format, "the error names \(actual), the data is \(String(describing: format))")
            default:
                Issue.record("expected \(expected), got \(error)")
            }
        }
    }

    @Test("files with a damaged signature are not recognised", arguments: TestData.entries.filter { $0.intent == "invalid" && $0.magic == "unknown" })
    func damagedSignatures(_ entry: TestData.Entry) throws {
        let bytes = try entry.bytes()
        #expect(ImageFormat(sniffing: bytes) == nil)
        #expect(throws: ImageCodecError.unsupportedFormat(leadingBytes: Array(bytes.prefix(12)))) {
            try DecodedImage(decoding: bytes)
        }
    }

    @Test("quirky and fuzz files decode consistently or fail cleanly", arguments: TestData.entries(intent: "quirky") + TestData.entries(intent: "fuzz"))
    func quirkyAndFuzzFiles(_ entry: TestData.Entry) throws {
        let bytes = try entry.bytes()
        do {
            let image = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false))
            #expect(image.bitmap.pixels.count == image.bitmap.bytesPerRow * image.bitmap.height)
            if entry.intent == "quirky", let info = try? ImageInfo(probing: bytes) {
                #expect(image.bitmap.size == info.size)
            }
        } catch {
            // Quirky files that mainstream decoders accept must decode too.
            if entry.intent == "quirky" && entry.nativeResult == "OK" {
                Issue.record("\(entry.path) failed although the native decoder accepts it: \(error)")
            }
        }
    }

    @Test("the 12-bit JPEG is reported as an unsupported feature")
    func twelveBitJPEG() throws {
        let bytes = try TestData.bytes("libjpeg-turbo-testimages/monkey12.jpg")
        #expect(throws: ImageCodecError.unsupportedFeature(format: .jpeg, feature: "12-bit samples (only 8-bit JPEG is supported)")) {
            try DecodedImage(decoding: bytes)
        }
    }

    @Test("a PNG named .jpg is sniffed as PNG")
    func sniffingIgnoresNames() throws {
        let bytes = try TestData.bytes("jpeg-decoder-tests/reftest/mozilla/jpg-size-6x6.jpg")
        #expect(ImageFormat(sniffing: bytes) == .png)
        #expect(try DecodedImage(decoding: bytes).format == .png)
    }
}
