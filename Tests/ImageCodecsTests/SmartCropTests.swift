import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Smart crop against the labelled set in `Tests/Fixtures/smartcrop` (see
/// its README): generated scenes whose subject the centre crop misses, and
/// real photos with a hand-drawn box.
@Suite("Smart crop", .dedicatedThreads)
struct SmartCropTests {
    static let folder = TestData.packageRoot.appendingPathComponent("Tests/Fixtures/smartcrop")
    static let fixtures = TestData.packageRoot.appendingPathComponent("Tests/Fixtures")

    struct Labelled {
        let name: String
        let url: URL
        let size: PixelSize
        let crop: PixelSize
        let subject: (x0: Int, y0: Int, x1: Int, y1: Int)

        /// The share of the subject's box inside `rect`.
        func held(by rect: PixelRect) -> Double {
            let width = max(0, min(rect.x + rect.width, subject.x1) - max(rect.x, subject.x0))
            let height = max(0, min(rect.y + rect.height, subject.y1) - max(rect.y, subject.y0))
            return Double(width * height) / Double(max(1, (subject.x1 - subject.x0) * (subject.y1 - subject.y0)))
        }

        /// A fill box of the crop's shape, its longer side 256 (a grid cell,
        /// a chat thumbnail) or the crop's own when that is smaller.
        var box: PixelSize {
            let scale = min(1, 256 / Double(max(crop.width, crop.height)))
            return PixelSize(width: max(1, Int((Double(crop.width) * scale).rounded())), height: max(1, Int((Double(crop.height) * scale).rounded())))
        }
    }

    static func table(_ name: String) throws -> [[String]] {
        let text = String(decoding: try fileBytes(folder.appendingPathComponent(name), limit: 1 << 20), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    static func labelled() throws -> [Labelled] {
        let generated = try table("labels.tsv").map { ($0, folder) }
        let real = try table("real.tsv").map { ($0, fixtures) }
        return try (generated + real).map { columns, base in
            let numbers = try columns[1...8].map { text throws(ParseError) -> Int in
                guard let value = Int(text) else { throw ParseError(text: text) }
                return value
            }
            return Labelled(
                name: columns[0], url: base.appendingPathComponent(columns[0]), size: PixelSize(width: numbers[0], height: numbers[1]),
                crop: PixelSize(width: numbers[2], height: numbers[3]), subject: (numbers[4], numbers[5], numbers[6], numbers[7]))
        }
    }

    struct ParseError: Error { let text: String }

    @Test("attention keeps the subject at least as often as libvips' attention, and far more often than the centre")
    func labelledSet() throws {
        let set = try Self.labelled()
        #expect(set.count == 56)
        let vips = Dictionary(
            uniqueKeysWithValues: try Self.table("vips-attention.tsv").map { columns in
                (columns[0], PixelRect(x: Int(columns[1]) ?? -1, y: Int(columns[2]) ?? -1, width: Int(columns[3]) ?? 0, height: Int(columns[4]) ?? 0))
            })
        var (attention, centre, libvips) = (0, 0, 0)
        for photo in set {
            let bytes = try fileBytes(photo.url)
            let image = try DecodedImage(rendering: bytes, in: photo.box, mode: .fill, options: RenditionOptions(crop: .attention))
            let crop = try #require(image.crop, "\(photo.name)")
            #expect(image.bitmap.size == photo.box, "\(photo.name)")
            // The reported rectangle is the labelled crop's shape, inside the upright photo.
            #expect(abs(crop.width - photo.crop.width) <= 2 && abs(crop.height - photo.crop.height) <= 2, "\(photo.name): \(crop)")
            #expect(crop.x >= 0 && crop.y >= 0 && crop.x + crop.width <= photo.size.width && crop.y + crop.height <= photo.size.height, "\(photo.name)")
            if photo.held(by: crop) >= 0.9 { attention += 1 }
            let centred = PixelRect(
                x: (photo.size.width - photo.crop.width) / 2, y: (photo.size.height - photo.crop.height) / 2, width: photo.crop.width,
                height: photo.crop.height)
            if photo.held(by: centred) >= 0.9 { centre += 1 }
            let theirs = try #require(vips[photo.name], "\(photo.name) has no libvips crop")
            if photo.held(by: theirs) >= 0.9 { libvips += 1 }
        }
        #expect(libvips == 51)
        #expect(attention >= libvips)
        #expect(attention >= 55)
        #expect(centre <= 7)
    }

    @Test("a photo stored turned is cropped as its upright twin, the rectangle in upright pixels")
    func orientation() throws {
        let root = TestData.root.appendingPathComponent("exif-orientation-examples")
        let box = PixelSize(width: 256, height: 256)
        let upright = try DecodedImage(
            rendering: try fileBytes(root.appendingPathComponent("Landscape_1.jpg")), in: box, mode: .fill, options: RenditionOptions(crop: .attention))
        for turned in ["Landscape_3.jpg", "Landscape_6.jpg", "Landscape_8.jpg"] {
            let image = try DecodedImage(
                rendering: try fileBytes(root.appendingPathComponent(turned)), in: box, mode: .fill, options: RenditionOptions(crop: .attention))
            let (a, b) = (try #require(upright.crop), try #require(image.crop))
            #expect(abs(a.x - b.x) <= 24 && abs(a.y - b.y) <= 24 && a.size == b.size, "\(turned): \(b) against \(a)")
            #expect(psnr(image.bitmap.packedBytes, upright.bitmap.packedBytes) > 25, "\(turned)")
        }
    }

    @Test("the pixels are the reported rectangle of the photo, and a centre crop reports the middle", arguments: CropStrategy.allCases)
    func reportedRectangle(_ strategy: CropStrategy) throws {
        let photo = try fileBytes(Self.folder.appendingPathComponent("generated/scene05-face.jpg"))
        let full = try DecodedImage(decoding: photo).bitmap
        let box = PixelSize(width: 200, height: 200)
        let image = try DecodedImage(rendering: photo, in: box, mode: .fill, options: RenditionOptions(crop: strategy))
        let crop = try #require(image.crop)
        let reference = try full.cropped(x: crop.x, y: crop.y, size: crop.size).referenceResized(to: box)
        #expect(psnr(image.bitmap.packedBytes, reference.packedBytes) > 30, "\(crop)")
        if strategy == .centre {
            #expect(crop == PixelRect(x: (full.width - full.height) / 2, y: 0, width: full.height, height: full.height))
        }
        // A fit reports no crop.
        #expect(try DecodedImage(rendering: photo, in: box, mode: .fit, options: RenditionOptions(crop: strategy)).crop == nil)
    }

    @Test("entropy keeps the detailed half; attention ignores what alpha hides")
    func entropyAndAlpha() throws {
        // Left half: noise; right half: flat grey.
        var pixels = [UInt8](repeating: 128, count: 400 * 200 * 3)
        let noise = Bitmap.noise(width: 200, height: 200, seed: 7).converted(to: .rgb8)
        for y in 0..<200 {
            for x in 0..<200 {
                for c in 0..<3 { pixels[(y * 400 + x) * 3 + c] = noise.pixels[(y * 200 + x) * 3 + c] }
            }
        }
        let halves = try Bitmap(width: 400, height: 200, pixelFormat: .rgb8, pixels: pixels)
        #expect(halves.cropRect(PixelSize(width: 200, height: 200), strategy: .entropy).x == 0)

        // A red disc on the right under alpha 0, a dark figure on the left in full view.
        var rgba = [UInt8](repeating: 0, count: 400 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<400 {
                let offset = (y * 400 + x) * 4
                let (dx, dy) = (x - 330, y - 100)
                let hidden = dx * dx + dy * dy < 40 * 40
                let figure = (40..<90).contains(x) && (50..<170).contains(y)
                let colour: (UInt8, UInt8, UInt8, UInt8) = hidden ? (255, 0, 0, 0) : figure ? (20, 20, 30, 255) : (200, 200, 190, 255)
                (rgba[offset], rgba[offset + 1], rgba[offset + 2], rgba[offset + 3]) = colour
            }
        }
        let layered = try Bitmap(width: 400, height: 200, pixelFormat: .rgba8, pixels: rgba)
        let rect = layered.cropRect(PixelSize(width: 150, height: 200), strategy: .attention)
        #expect(rect.x <= 40 && rect.x + rect.width >= 90, "\(rect)")
    }

    @Test("any shape, any crop size: a rectangle inside the bitmap, never a trap", arguments: CropStrategy.allCases)
    func hostileShapes(_ strategy: CropStrategy) throws {
        let shapes: [(PixelSize, PixelSize)] = [
            (PixelSize(width: 1, height: 1), PixelSize(width: 1, height: 1)),
            (PixelSize(width: 1, height: 20_000), PixelSize(width: 1, height: 1)),
            (PixelSize(width: 1, height: 300_000), PixelSize(width: 1, height: 5_000)),
            (PixelSize(width: 300_000, height: 2), PixelSize(width: 7, height: 2)),
            (PixelSize(width: 20_000, height: 1), PixelSize(width: 3, height: 1)),
            (PixelSize(width: 3, height: 9_000), PixelSize(width: 3, height: 2)),
            (PixelSize(width: 640, height: 480), PixelSize(width: 5_000, height: 5_000)),
            (PixelSize(width: 640, height: 480), PixelSize(width: 0, height: -4)),
            (PixelSize(width: 17, height: 5), PixelSize(width: 16, height: 5)),
        ]
        for (size, crop) in shapes {
            for format in [PixelFormat.gray8, .rgb8, .rgba8] {
                let bitmap = Bitmap.noise(width: size.width, height: size.height, seed: 3).converted(to: format)
                let rect = bitmap.cropRect(crop, strategy: strategy)
                let expected = PixelSize(width: min(size.width, max(1, crop.width)), height: min(size.height, max(1, crop.height)))
                #expect(rect.size == expected, "\(size) \(crop) \(format)")
                #expect(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= size.width && rect.y + rect.height <= size.height, "\(size) \(crop)")
                #expect(bitmap.cropped(to: crop, strategy: strategy).size == expected)
            }
        }
        // A bitmap with padded rows is read within its rows.
        let padded = try Bitmap(width: 300, height: 100, pixelFormat: .rgb8, bytesPerRow: 1000, pixels: [UInt8](repeating: 90, count: 100_000))
        #expect(padded.cropRect(PixelSize(width: 100, height: 100), strategy: strategy).size == PixelSize(width: 100, height: 100))
    }

    @Test("filling scales to cover the box, never up, and crops by the strategy")
    func filling() {
        let wide = Bitmap.noise(width: 600, height: 200, seed: 9)
        #expect(wide.filling(PixelSize(width: 100, height: 100), crop: .attention).size == PixelSize(width: 100, height: 100))
        #expect(
            wide.filling(PixelSize(width: 100, height: 100)).pixels
                == wide.resized(to: PixelSize(width: 300, height: 100)).centerCropped(to: PixelSize(width: 100, height: 100)).pixels)
        // Smaller than the box: cropped only where it overflows.
        #expect(wide.filling(PixelSize(width: 400, height: 400)).size == PixelSize(width: 400, height: 200))
    }
}
