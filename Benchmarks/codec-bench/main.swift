// codec-bench: times PhotoDeck's decoders in-process, for Benchmarks/Scripts/decode.sh.
//
//   codec-bench FILE [--fit WxH | --render WxH | --resize WxH | --strip | --rotate | --reencode-rotate] [--runs N]
//   codec-bench FILE --fill WxH [--crop centre|attention|entropy] [--runs N]
//   codec-bench FILE --placeholders [--runs N]
//   codec-bench FILE --render WxH [--headroom N] [--encode Q] [--out FILE]
//   codec-bench FILE --ultra-hdr MAP --out FILE
//
// --fit decodes at size; --render makes a display rendition; --resize times
// only the resampler on the full decode. --strip rewrites the metadata under
// MetadataPolicy.default; --rotate turns a JPEG a quarter turn losslessly
// (JPEGTransform, trimming partial blocks); --reencode-rotate does what that
// replaces (decode, rotate the pixels, encode at quality 92). --fill makes
// a fill rendition cropped by --crop's strategy (centre by default) and adds
// the crop rectangle in the upright source's pixels (x, y, width, height)
// to its line. --headroom sets RenditionOptions.shrinkOnLoadHeadroom for
// --render and --fill; --encode Q adds a JPEG encode at quality Q to each
// timed run (the whole of photo-fit's work, in process). --out FILE
// writes the last result (for PSNR and exiftool checks).
//
// --ultra-hdr assembles FILE (a JPEG) and MAP (a grey JPEG) into an
// Ultra HDR JPEG (boosts 0 to 3 stops) written to --out, untimed: the
// fixture of Benchmarks/Scripts/gainmap.py.
//
// --placeholders times ThumbHash and BlurHash (4x3): each from the file's
// bytes (decode at 1/8, fit into 100x100, encode), each from the 1/8
// decode alone (fit and encode), and each hash drawn (32 px).
//
// Prints one tab-separated line: median milliseconds, source megapixels per
// second, and the decoded size (--placeholders: six medians and the two
// hashes). Build with -c release.

import Dispatch
import ExampleSupport
import Foundation
import ImageCodecs

func fail(_ message: String) -> Never {
    try? FileHandle.standardError.write(contentsOf: Data("error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 15
var box: PixelSize?
var mode = "--fit"
var path: String?
var outputPath: String?
var strategy = CropStrategy.centre
var headroom = RenditionOptions.default.shrinkOnLoadHeadroom
var encodeQuality: Int?
var mapPath: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--runs":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail("--runs needs a positive number") }
        runs = value
        arguments.removeFirst()
    case "--strip", "--rotate", "--reencode-rotate", "--placeholders":
        mode = argument
    case "--ultra-hdr":
        mode = argument
        mapPath = arguments.first
        arguments.removeFirst()
    case "--out":
        outputPath = arguments.first
        arguments.removeFirst()
    case "--headroom":
        guard let value = arguments.first.flatMap(Int.init), value >= 1 else { fail("--headroom needs a number from 1") }
        headroom = value
        arguments.removeFirst()
    case "--encode":
        guard let value = arguments.first.flatMap(Int.init), (1...100).contains(value) else { fail("--encode needs a quality from 1 to 100") }
        encodeQuality = value
        arguments.removeFirst()
    case "--crop":
        guard let value = arguments.first.flatMap(CropStrategy.init(rawValue:)) else { fail("--crop is centre, attention or entropy") }
        strategy = value
        arguments.removeFirst()
    case "--fit", "--render", "--resize", "--fill":
        mode = argument
        do {
            let size = try SizeArgument(arguments.first ?? "", what: argument, wholeNumbers: true)
            box = PixelSize(width: size.pixelWidth, height: size.pixelHeight)
        } catch {
            fail("\(error)")
        }
        arguments.removeFirst()
    default:
        path = argument
    }
}
guard let path, let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
    fail("usage: codec-bench FILE [--fit WxH] [--runs N]")
}

/// The median of `runs` timings of `body` in milliseconds, after one warm-up.
@MainActor func medianMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
}

if mode == "--ultra-hdr" {
    guard let mapPath, let outputPath, let map = FileManager.default.contents(atPath: mapPath) else { fail("--ultra-hdr MAP needs --out FILE") }
    do {
        let parameters = try GainMapParameters(channels: [.init(maximumBoost: 3)], alternateHeadroom: 3)
        let assembled = try UltraHDRJPEG.assemble(base: bytes, map: [UInt8](map), parameters: parameters)
        try Data(assembled).write(to: URL(fileURLWithPath: outputPath))
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if mode == "--placeholders" {
    do {
        let small = try DecodedImage(decoding: bytes, options: .placeholder(limits: .default)).bitmap
        var thumb = ThumbHash(summarizing: small)
        var blur = BlurHash(summarizing: small)
        let fromBytesThumb = try medianMilliseconds { thumb = try ThumbHash(summarizingImage: bytes) }
        let fromBytesBlur = try medianMilliseconds { blur = try BlurHash(summarizingImage: bytes) }
        let encodeThumb = medianMilliseconds { thumb = ThumbHash(summarizing: small) }
        let encodeBlur = medianMilliseconds { blur = BlurHash(summarizing: small) }
        let drawThumb = medianMilliseconds { _ = thumb.rendered() }
        let drawBlur = try medianMilliseconds { _ = try blur.rendered(size: PixelSize(width: 32, height: 24)) }
        print(
            String(
                format: "%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%@\t%@\t%@", fromBytesThumb, fromBytesBlur, encodeThumb, encodeBlur, drawThumb,
                drawBlur, thumb.base64, blur.string, small.size.description))
    } catch {
        fail("\(error)")
    }
    exit(0)
}

// The container paths: bytes in, bytes out.
if ["--strip", "--rotate", "--reencode-rotate"].contains(mode) {
    func once() throws -> [UInt8] {
        switch mode {
        case "--strip": return try MetadataPolicy.default.rewriting(bytes).bytes
        case "--rotate": return try JPEGTransform.apply(.rotate90, to: bytes, edges: .trim, metadata: .keepAll).bytes
        default:
            let decoded = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false))
            return try decoded.bitmap.oriented(.right).encoded(as: .jpeg, options: EncodeOptions(quality: 92, exif: decoded.exif?.settingOrientation(.up)))
        }
    }
    var output: [UInt8] = []
    var times: [Double] = []
    do {
        output = try once()
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            output = try once()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
    } catch {
        fail("\(error)")
    }
    if let outputPath { _ = FileManager.default.createFile(atPath: outputPath, contents: Data(output)) }
    times.sort()
    let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    print(String(format: "%.2f\t%d\t%d", median, bytes.count, output.count))
    exit(0)
}

let options = DecodeOptions(targetSize: box.map { .fitting($0) } ?? .original, appliesOrientation: false)
var times: [Double] = []
var decodedSize = PixelSize(width: 0, height: 0)
var sourceSize = PixelSize(width: 0, height: 0)
var crop: PixelRect?
var encoded: [UInt8] = []
do {
    let full = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false))
    func once() throws -> DecodedImage {
        switch (mode, box) {
        case ("--render", let box?):
            return try DecodedImage(rendering: bytes, in: box, options: RenditionOptions(shrinkOnLoadHeadroom: headroom))
        case ("--fill", let box?):
            return try DecodedImage(rendering: bytes, in: box, mode: .fill, options: RenditionOptions(shrinkOnLoadHeadroom: headroom, crop: strategy))
        case ("--resize", let box?):
            var image = full
            image.bitmap = full.bitmap.resized(to: full.bitmap.size.fitting(in: box))
            return image
        default:
            return try DecodedImage(decoding: bytes, options: options)
        }
    }
    _ = try once()  // warm-up
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let image = try once()
        if let encodeQuality { encoded = try image.bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: encodeQuality)) }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        decodedSize = image.bitmap.size
        sourceSize = image.sourceSize
        crop = image.crop
    }
} catch {
    fail("\(error)")
}
if let outputPath, !encoded.isEmpty { _ = FileManager.default.createFile(atPath: outputPath, contents: Data(encoded)) }
times.sort()
let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
let megapixelsPerSecond = Double(sourceSize.pixelCount) / 1e6 / (median / 1000)
let cropColumns = crop.map { "\t\($0.x)\t\($0.y)\t\($0.width)\t\($0.height)" } ?? ""
print(String(format: "%.2f\t%.1f\t%@", median, megapixelsPerSecond, decodedSize.description) + cropColumns)
