// The ImageCodecs code samples of the README and the doc comments,
// compiled. Each function is one sample with its context as parameters;
// SnippetCoverageTests checks that the samples' text is here.

import Foundation
import ImageCodecs
import TestSupport

/// The registry's doc sample registers "an app's own decoder": TestSupport's.
typealias MyPGMDecoder = PGMDecoder

enum ImageCodecsSnippets {
    static func readme(_ unused: Void = ()) throws {
        let info = try ImageInfo(probingFileAt: "IMG_0001.jpg")  // header only: size, orientation, alpha, date
        let image = try DecodedImage(
            decodingFileAt: "IMG_0001.jpg",
            options: DecodeOptions(targetSize: .fitting(PixelSize(width: 1170, height: 2532))))
        let thumbnail = image.bitmap.resized(to: image.bitmap.size.fitting(in: PixelSize(width: 320, height: 320)))
        let jpeg = try thumbnail.encoded(as: .jpeg, options: EncodeOptions(quality: 85, exif: image.exif))
        _ = (info, jpeg)
    }

    static func exifDetails(path: String) throws {
        if let exif = try ExifMetadata(readingFileAt: path) {
            let shot = exif.details
            print(shot.camera ?? "unknown camera", shot.exposureTime?.description ?? "")
        }
    }

    static func imageMemory() {
        ImageMemory.returnLargeBuffersToSystem()  // first thing in main
    }

    static func exifReading() throws {
        let shot = try ExifMetadata(readingFileAt: "IMG_0001.jpg")?.details
        print(shot?.camera ?? "no camera recorded")
    }

    static func readmeRendition() throws {
        let page = try DecodedImage(renderingFileAt: "IMG_0001.jpg", in: PixelSize(width: 1170, height: 2532), mode: .fit)
        _ = page
    }

    static func backgroundWork(next: String, screen: PixelSize) {
        Task.detached(priority: .utility) {
            _ = try await ImageWorkers.shared.run { try DecodedImage(renderingFileAt: next, in: screen, mode: .fit) }
        }
    }

    static func decodeOptions(data: [UInt8]) throws {
        // Decode a 24 MP photo for a 1170×2532 screen: JPEG's DCT scaling
        // produces the smallest image that still covers the fitted size.
        let options = DecodeOptions(targetSize: .fitting(PixelSize(width: 1170, height: 2532)))
        let image = try DecodedImage(decoding: data, options: options)
        _ = image
    }

    static func encodeOptions(bitmap: Bitmap) throws {
        var options = EncodeOptions(quality: 85)
        options.isProgressive = true
        let jpeg = try bitmap.encoded(as: .jpeg, options: options)
        _ = jpeg
    }

    static func errors(data: [UInt8]) {
        do {
            _ = try DecodedImage(decoding: data)
        } catch {
            print(error)  // "PNG data is truncated: unexpected end of PNG data"
        }
    }

    static func format() {
        let heif = ImageFormat(identifier: "heif", mediaType: "image/heif", fileExtensions: ["heic", "heif"])
        _ = heif
    }

    static func info() throws {
        let info = try ImageInfo(probingFileAt: "/photos/IMG_0001.jpg")
        print(info.orientedSize, info.captureDate as Any)
    }

    static func pixelSize() -> PixelSize {
        PixelSize(width: 4000, height: 3000).fitting(in: PixelSize(width: 1920, height: 1080))
        // 1440 × 1080
    }

    static func exif(bitmap: Bitmap) throws {
        let exif = ExifMetadata(orientation: .right)
        let jpeg = try bitmap.encoded(as: .jpeg, options: EncodeOptions(exif: exif))
        _ = jpeg
    }

    static func resize(bitmap: Bitmap) {
        let thumbnail = bitmap.resized(to: bitmap.size.fitting(in: PixelSize(width: 320, height: 320)))
        _ = thumbnail
    }

    static func registry(pgmBytes: [UInt8]) throws {
        ImageCodecRegistry.shared.register(MyPGMDecoder())
        let image = try DecodedImage(decoding: pgmBytes)  // now understood
        _ = image
    }

    static func decodeAtSize(bytes: [UInt8]) throws {
        let image = try DecodedImage(decoding: bytes, options: .init(targetSize: .maxDimension(2048)))
        _ = image
    }

    static func encode(bitmap: Bitmap) throws {
        let png = try bitmap.encoded(as: .png)
        let jpeg = try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        _ = (png, jpeg)
    }

    static func rendition(jpegBytes: [UInt8]) throws {
        let screen = PixelSize(width: 1170, height: 2532)
        let page = try DecodedImage(rendering: jpegBytes, in: screen, mode: .fit)
        // page.bitmap is at most 1170x2532, upright, never upscaled.
        _ = page
    }
}

extension ImageCodecsSnippets {
    /// README: "A first app, one module at a time".
    static func firstApp() throws {
        let page = try DecodedImage(renderingFileAt: "IMG_0001.jpg", in: PixelSize(width: 1170, height: 2532), mode: .fit)
        let jpeg = try page.bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 85))
        try Data(jpeg).write(to: URL(fileURLWithPath: "page.jpg"))
    }
}

extension ImageCodecsSnippets {
    static func workers(path: String, screen: PixelSize) async throws {
        let page = try await ImageWorkers.shared.run {
            try DecodedImage(renderingFileAt: path, in: screen, mode: .fit)
        }
        _ = page
    }
}

extension ImageCodecsSnippets {
    static func colorProfile(adobeRGBJPEG: [UInt8]) throws {
        let photo = try DecodedImage(decoding: adobeRGBJPEG, options: DecodeOptions(colorHandling: .preserve))
        print(photo.colorProfile?.name ?? "sRGB")  // "Adobe RGB (1998)"
    }

    static func show(_ bitmap: Bitmap, for duration: Duration) {}

    static func frames(gifBytes: [UInt8]) throws {
        let frames = try ImageFrames(decoding: gifBytes)
        print(frames.frameCount, frames.loopCount)  // 12, 0 (forever)
        while let frame = try frames.next() {
            show(frame.bitmap, for: frame.duration)
        }
    }

    static func pngText(bitmap: Bitmap, uri: String) throws {
        let png = try PNGText.adding([("Thumb::URI", uri), ("Thumb::MTime", "1700000000")], to: try bitmap.encoded(as: .png))
        let uri = PNGText.entries(in: png)["Thumb::URI"]
        _ = uri
    }

    static func embeddedThumbnail(path: String) throws {
        let preview = try EmbeddedThumbnail.rendition(ofFileAt: path, fitting: PixelSize(width: 128, height: 128))
        let bitmap = try preview ?? DecodedImage(renderingFileAt: path, in: PixelSize(width: 128, height: 128)).bitmap
        _ = bitmap
    }

    static func avif(bitmap: Bitmap) throws {
        var options = EncodeOptions(quality: 60)
        options.speed = 6
        let avif = try bitmap.encoded(as: .avif, options: options)
        _ = avif
    }

    static func readingWhole(path: String) throws {
        let bytes = try FileByteSource(path: path).readAll(limit: 256 << 20)
        _ = bytes
    }
}
