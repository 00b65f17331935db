import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Lossless rotations and flips: the DCT blocks move, the pixels are the
/// decoded original's, rotated.
@Suite("Lossless JPEG transforms")
struct JPEGTransformTests {
    static let operations = JPEGTransform.Operation.allCases

    /// The orientation whose application is `operation` (to compare with Bitmap.oriented).
    static func orientation(of operation: JPEGTransform.Operation) -> ImageOrientation {
        ImageOrientation.allCases.first { JPEGTransform.operation(undoing: $0) == operation }!
    }

    static func jpeg(width: Int, height: Int, subsampling: EncodeOptions.ChromaSubsampling = .both420, orientation: ImageOrientation = .up) throws -> [UInt8] {
        let exif = orientation == .up ? nil : ExifMetadata(orientation: orientation)
        return try Bitmap.noise(width: width, height: height, seed: 44).encoded(
            as: .jpeg, options: EncodeOptions(quality: 92, chromaSubsampling: subsampling, exif: exif))
    }

    static func stored(_ jpeg: [UInt8]) throws -> Bitmap {
        // The stored pixels, no orientation applied.
        try DecodedImage(decoding: jpeg, options: DecodeOptions(appliesOrientation: false)).bitmap
    }

    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Where block `(column, row)` of a `wide` x `high` grid goes under `operation`, and coefficient `(u, v)` within it, with its sign.
    static func moved(
        _ operation: JPEGTransform.Operation, column: Int, row: Int, u: Int, v: Int, wide: Int, high: Int
    ) -> (column: Int, row: Int, u: Int, v: Int, sign: Int16) {
        func odd(_ n: Int) -> Int16 { n % 2 == 1 ? -1 : 1 }
        switch operation {
        case .flipHorizontal: return (wide - 1 - column, row, u, v, odd(u))
        case .flipVertical: return (column, high - 1 - row, u, v, odd(v))
        case .transpose: return (row, column, v, u, 1)
        case .transverse: return (high - 1 - row, wide - 1 - column, v, u, odd(u + v))
        case .rotate90: return (high - 1 - row, column, v, u, odd(v))
        case .rotate180: return (wide - 1 - column, high - 1 - row, u, v, odd(u + v))
        case .rotate270: return (row, wide - 1 - column, v, u, odd(u))
        }
    }

    /// Whether `after` holds exactly `before`'s coefficients moved by `operation`
    /// (over `before`'s first `wide` x `high` blocks: the kept area of a trim).
    static func coefficientsMoved(
        _ before: JPEGCoefficients, _ after: JPEGCoefficients, by operation: JPEGTransform.Operation, wide: Int? = nil, high: Int? = nil
    ) -> Bool {
        let wide = wide ?? before.blocksWide
        let high = high ?? before.blocksHigh
        for row in 0..<high {
            for column in 0..<wide {
                for v in 0..<8 {
                    for u in 0..<8 {
                        let to = moved(operation, column: column, row: row, u: u, v: v, wide: wide, high: high)
                        guard to.column < after.blocksWide, to.row < after.blocksHigh else { return false }
                        if after[to.column, to.row, to.u, to.v] != to.sign * before[column, row, u, v] { return false }
                    }
                }
            }
        }
        return true
    }

    @Test(
        "on whole blocks every operation moves the DCT coefficients exactly (nothing lost), gives jpegtran's bytes, and the pixels of decode + rotate within the IDCT's rounding",
        arguments: operations)
    func aligned(_ operation: JPEGTransform.Operation) throws {
        for subsampling in [EncodeOptions.ChromaSubsampling.both420, .none444] {
            let original = try Self.jpeg(width: 64, height: 48, subsampling: subsampling)
            let turned = try JPEGTransform.apply(operation, to: original, metadata: .strict)
            #expect(
                Self.coefficientsMoved(try JPEGCoefficients(of: original), try JPEGCoefficients(of: turned.bytes), by: operation),
                "\(operation) \(subsampling): luma")
            #expect(
                Self.coefficientsMoved(try JPEGCoefficients(of: original, component: 1), try JPEGCoefficients(of: turned.bytes, component: 1), by: operation),
                "\(operation) \(subsampling): chroma")
            #expect(try Jpegtran.transform(original, operation) == turned.bytes, "\(operation): the same bytes as jpegtran -copy none")
            // The integer IDCT is not exactly symmetric: decoding moved blocks differs from moving decoded pixels by a few levels.
            let expected = try Self.stored(original).oriented(Self.orientation(of: operation))
            let result = try Self.stored(turned.bytes)
            #expect(result.size == expected.size)
            #expect(Self.maxDifference(result, expected) <= 4, "\(operation) \(subsampling): \(Self.maxDifference(result, expected)) levels")
            #expect(psnr(result.pixels, expected.pixels) > 45)
        }
    }

    @Test("partial edge blocks: perfect refuses and says what a trim would take; trim drops them and moves the kept blocks exactly")
    func edges() throws {
        let original = try Self.jpeg(width: 70, height: 53)  // 4:2:0: 16x16 blocks, 6 and 5 pixels over
        #expect {
            try JPEGTransform.apply(.rotate90, to: original)
        } throws: { error in
            guard case .unsupportedFeature(.jpeg, let feature) = error as? ImageCodecError else { return false }
            return feature.contains("bottom 5 pixels") && feature.contains("Edges.trim")
        }
        let trimmed = try JPEGTransform.apply(.rotate90, to: original, edges: .trim)
        #expect(try Self.stored(trimmed.bytes).size == PixelSize(width: 48, height: 70), "the partial bottom row of blocks is gone, the width stays")
        // The kept area: the original's top 48 rows (6 luma block rows), every block where rotate90 puts it.
        let before = try JPEGCoefficients(of: original)
        #expect(Self.coefficientsMoved(before, try JPEGCoefficients(of: trimmed.bytes), by: .rotate90, wide: before.blocksWide, high: 6))
        // Transpose needs no whole edge; a horizontal flip only a whole width.
        #expect(try JPEGTransform.apply(.transpose, to: original).bytes.count > 0)
        #expect(throws: ImageCodecError.self) { try JPEGTransform.apply(.flipHorizontal, to: original) }
        #expect(
            try Self.stored(try JPEGTransform.apply(.flipVertical, to: try Self.jpeg(width: 70, height: 48)).bytes).size == PixelSize(width: 70, height: 48))
    }

    @Test("a photo's EXIF orientation is applied losslessly, its tag reset to 1; the result shows as the original did")
    func orientationApplied() throws {
        for orientation in ImageOrientation.allCases {
            let original = try Self.jpeg(width: 64, height: 48, orientation: orientation)
            let upright = try JPEGTransform.applyingOrientation(of: original)
            let header = try JPEGHeader(reading: MemoryByteSource(upright.bytes))
            #expect((header.exif?.orientation ?? .up) == .up, "\(orientation)")
            if let operation = JPEGTransform.operation(undoing: orientation) {
                #expect(Self.coefficientsMoved(try JPEGCoefficients(of: original), try JPEGCoefficients(of: upright.bytes), by: operation), "\(orientation)")
            } else {
                #expect(upright.bytes == original)
            }
            let shown = try DecodedImage(decoding: original).bitmap
            let result = try DecodedImage(decoding: upright.bytes).bitmap
            #expect(result.size == shown.size && Self.maxDifference(result, shown) <= 4, "\(orientation)")
        }
    }

    @Test("an operation composes with the photo's own orientation in one pass")
    func composition() throws {
        let original = try Self.jpeg(width: 64, height: 48, orientation: .right)
        let turned = try JPEGTransform.apply(.rotate90, to: original)
        // Shown upright (a quarter turn), then a quarter turn more: half a turn of the stored blocks.
        #expect(Self.coefficientsMoved(try JPEGCoefficients(of: original), try JPEGCoefficients(of: turned.bytes), by: .rotate180))
        for a in Self.operations {
            for b in Self.operations {
                let combined = JPEGTransform.Matrix(a).times(JPEGTransform.Matrix(b))
                #expect(combined.operation != nil || combined == JPEGTransform.Matrix(nil), "\(a) after \(b) is one of the eight")
            }
        }
    }

    @Test("a progressive bomb is refused before TurboJPEG decodes its scans")
    func scanBudget() throws {
        let bomb = try HostileJPEG.manyScans(side: 256, extraScans: 3_000)
        #expect {
            try JPEGTransform.apply(.rotate90, to: bomb)
        } throws: { error in
            guard case .corrupt(.jpeg, let message) = error as? ImageCodecError else { return false }
            return message.contains("more than")
        }
    }
}

/// Debian's jpegtran (libjpeg-turbo-progs), the reference for lossless transforms.
enum Jpegtran {
    static func transform(_ jpeg: [UInt8], _ operation: JPEGTransform.Operation) throws -> [UInt8] {
        let arguments: [String] =
            switch operation {
            case .flipHorizontal: ["-flip", "horizontal"]
            case .flipVertical: ["-flip", "vertical"]
            case .transpose: ["-transpose"]
            case .transverse: ["-transverse"]
            case .rotate90: ["-rotate", "90"]
            case .rotate180: ["-rotate", "180"]
            case .rotate270: ["-rotate", "270"]
            }
        let input = FileManager.default.temporaryDirectory.appending(path: "jpegtran-\(UUID()).jpg")
        try Data(jpeg).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        process.arguments = ["-copy", "none", "-perfect"] + arguments + [input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = try TestSupport.bytes(readingToEndOf: output.fileHandleForReading, limit: 256 << 20)
        process.waitUntilExit()
        return bytes
    }
}
