// photo-fit: convert or fit a photo into a box, orientation applied.
//
//   photo-fit [--width W --height H] [--mode fit|fill] [--crop centre|attention|entropy] [--quality Q] [--speed S]
//             [--drop-gain-map] INPUT OUTPUT
//   photo-fit --thumbhash INPUT
//   photo-fit --blurhash [--components XxY] INPUT
//   photo-fit --gain-map-info [--json] INPUT
//   photo-fit [--width W --height H] [--at SECONDS] VIDEO OUTPUT
//
// The output format follows OUTPUT's extension (.jpg/.jpeg, .png, .webp, .avif).
// --crop chooses what a fill keeps (the centre by default; attention keeps
// what draws the eye, entropy the most detail) and implies --mode fill; the
// summary line names the part of the photo kept.
// An HDR photo (Ultra HDR JPEG, iPhone HEIC) keeps its gain map, shaped as
// the photo was, when OUTPUT is a JPEG (written as Ultra HDR); --drop-gain-map
// writes it flat. The summary line says which.
// --thumbhash and --blurhash print the image's placeholder hash instead
// (ThumbHash as base64, BlurHash as its string), made from a decode at
// 1/8 scale fitted into 100x100.
// --gain-map-info reports an HDR photo's gain map (an Ultra HDR JPEG's or
// an iPhone HEIC's: its size and parameters), says there is none, or why
// the one the file names cannot be used; --json prints it as one JSON object.
// A video INPUT (MP4, MOV, WebM, MKV, AVI, MPEG-TS) gives its poster
// frame: the frame shown at --at SECONDS (the first by default), upright,
// fitted into the box when one is given.
// Any failure prints one line starting with "error:" and exits with status 1.

import ExampleSupport
import Foundation
import ImageCodecs
import VideoCodecs

struct Arguments {
    enum Placeholder { case thumbHash, blurHash }
    var placeholder: Placeholder?
    /// `--gain-map-info`, and whether as JSON.
    var gainMapInfo = false
    var json = false
    var components = BlurHash.Components.standard
    var box: PixelSize?
    var mode = RenditionMode.fit
    var crop = CropStrategy.centre
    var quality = 85
    var speed = 6
    /// `--drop-gain-map`: an HDR photo's output written flat.
    var dropsGainMap = false
    /// When the poster frame of a video is taken (`--at`).
    var at: Duration?
    var input = ""
    var output = ""

    static let usage = """
        usage: photo-fit [--width W --height H] [--mode fit|fill] [--crop centre|attention|entropy] [--quality Q] [--speed S]
                         [--drop-gain-map] INPUT OUTPUT
               (--crop: what a fill keeps, the centre by default; implies --mode fill)
               (an HDR photo's gain map is kept in a .jpg OUTPUT, as Ultra HDR; --drop-gain-map writes it flat)
               (--speed: AVIF's AV1 encoder, 0 slowest and smallest ... 9 fastest; 6 by default)
               photo-fit --thumbhash INPUT
               photo-fit --blurhash [--components XxY] INPUT
               photo-fit --gain-map-info [--json] INPUT
               photo-fit [--width W --height H] [--at SECONDS] VIDEO OUTPUT
               (a video's poster frame: the frame shown at SECONDS, the first by default)
        """
    /// One line, for errors (each error is one line).
    static let shortUsage = "usage: photo-fit [options] INPUT OUTPUT, or --thumbhash INPUT, or --blurhash INPUT (see --help)"

    init(_ arguments: [String]) throws(CLIError) {
        var width: Int?
        var height: Int?
        var positional: [String] = []
        var explicitMode: RenditionMode?
        var cropGiven = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--width": width = try reader.number(for: argument, in: 1...65_535)
            case "--height": height = try reader.number(for: argument, in: 1...65_535)
            case "--quality": quality = try reader.number(for: argument, in: 1...100)
            case "--speed": speed = try reader.number(for: argument, in: 0...9)
            case "--at": at = .milliseconds(Int64((try reader.decimal(for: argument, in: 0...86_400) * 1_000).rounded()))
            case "--mode":
                let text = try reader.value(for: argument)
                guard let parsed = RenditionMode(rawValue: text) else { throw CLIError("--mode must be fit or fill, got '\(text)'") }
                explicitMode = parsed
            case "--crop":
                let text = try reader.value(for: argument)
                guard let parsed = CropStrategy(rawValue: text) else { throw CLIError("--crop must be centre, attention or entropy, got '\(text)'") }
                crop = parsed
                cropGiven = true
            case "--gain-map-info": gainMapInfo = true
            case "--drop-gain-map": dropsGainMap = true
            case "--json": json = true
            case "--thumbhash": placeholder = .thumbHash
            case "--blurhash": placeholder = .blurHash
            case "--components":
                let text = try reader.value(for: argument)
                let counts = text.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
                guard counts.count == 2, let x = counts[0], let y = counts[1],
                    let parsed = try? BlurHash.Components(x: x, y: y)
                else { throw CLIError("--components is XxY with each 1...9, such as 4x3") }
                components = parsed
            case "-h", "--help":
                Console.line(Self.usage)
                exit(0)
            case _ where argument.hasPrefix("--"):
                throw CLIError("unknown option \(argument)")
            default:
                positional.append(argument)
            }
        }
        if cropGiven && explicitMode == .fit { throw CLIError("--crop applies to --mode fill, not fit") }
        mode = explicitMode ?? (cropGiven ? .fill : .fit)
        if json && !gainMapInfo { throw CLIError("--json goes with --gain-map-info") }
        if gainMapInfo {
            guard positional.count == 1, placeholder == nil else { throw CLIError("--gain-map-info reads one INPUT, with no OUTPUT; \(Self.shortUsage)") }
            input = positional[0]
            return
        }
        if placeholder != nil {
            guard positional.count == 1 else { throw CLIError("a hash is printed for one INPUT, with no OUTPUT; \(Self.shortUsage)") }
            input = positional[0]
            return
        }
        guard positional.count == 2 else { throw CLIError("expected INPUT and OUTPUT; \(Self.shortUsage)") }
        input = positional[0]
        output = positional[1]
        switch (width, height) {
        case let (width?, height?): box = PixelSize(width: width, height: height)
        case (nil, nil): box = nil
        default: throw CLIError("--width and --height go together")
        }
        if mode == .fill && box == nil { throw CLIError("--mode fill needs --width and --height") }
    }
}

func run() throws -> String? {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.gainMapInfo { return try GainMapInfo.report(arguments.input, json: arguments.json) }
    switch arguments.placeholder {
    case .thumbHash: return try ThumbHash(summarizingImageAt: arguments.input).base64
    case .blurHash: return try BlurHash(summarizingImageAt: arguments.input, components: arguments.components).string
    case nil: break
    }
    let fileExtension = (arguments.output as NSString).pathExtension
    guard let format = ImageFormat.forFileExtension(fileExtension, among: [.jpeg, .png, .webp, .avif]) else {
        throw CLIError("cannot tell the output format from '\(arguments.output)'; use .jpg, .png, .webp or .avif")
    }

    // A video gives its poster frame: asked for with --at, or when the input is no image but starts
    // like a video (FFmpeg is loaded only then: a damaged photo costs no video libraries).
    if arguments.at != nil || isVideo(arguments.input) {
        return try writePoster(arguments, format: format)
    }

    // Colours end in sRGB; a tagged source says so in its output. An HDR photo's bytes are read once, for its map too.
    let hdr = try GainMapOutput.source(arguments.input, keep: !arguments.dropsGainMap)
    let renditionOptions = RenditionOptions(colorHandling: .preserve, crop: arguments.crop)
    var decoded: DecodedImage
    switch (arguments.box, hdr) {
    case (let box?, let hdr?): decoded = try DecodedImage(rendering: hdr.bytes, in: box, mode: arguments.mode, options: renditionOptions)
    case (let box?, nil): decoded = try DecodedImage(renderingFileAt: arguments.input, in: box, mode: arguments.mode, options: renditionOptions)
    case (nil, let hdr?): decoded = try DecodedImage(decoding: hdr.bytes, options: DecodeOptions(colorHandling: .preserve))
    case (nil, nil): decoded = try DecodedImage(decodingFileAt: arguments.input, options: DecodeOptions(colorHandling: .preserve))
    }
    let sourceProfile = decoded.colorProfile
    decoded.convertToSRGB()
    let bitmap = decoded.bitmap
    var options = EncodeOptions(quality: arguments.quality, colorProfile: sourceProfile == nil ? nil : .sRGB)
    options.speed = arguments.speed
    var encoded: [UInt8]
    var gainMapNote = ""
    if let hdr {
        (encoded, gainMapNote) = try hdr.encode(bitmap, of: decoded, as: format, options: options)
    } else {
        encoded = try bitmap.encoded(as: format, options: options)
    }
    do {
        try Data(encoded).write(to: URL(fileURLWithPath: arguments.output), options: .atomic)
    } catch {
        throw CLIError("cannot write \(arguments.output): \(error.localizedDescription)")
    }
    let oriented = decoded.sourceOrientation == .up ? "" : ", orientation \(decoded.sourceOrientation) applied"
    let converted = sourceProfile.map { ", \($0.name ?? "tagged colours") converted to sRGB" } ?? ""
    let kept = decoded.crop.map { ", kept \($0) (\(arguments.crop))" } ?? ""
    return
        "\(arguments.input): \(decoded.format) \(decoded.sourceSize)\(oriented)\(converted)\(kept) -> \(format) \(bitmap.size), \(encoded.count) bytes\(gainMapNote)"
}

/// Whether the file at `path` is no image but a video: its first bytes look
/// like a container PhotoDeck opens, and FFmpeg agrees.
func isVideo(_ path: String) -> Bool {
    (try? ImageInfo(probingFileAt: path)) == nil && VideoInfo.probeIfVideo(fileAt: path) != nil
}

/// The poster frame of the video at `arguments.input`, fitted into the box.
func writePoster(_ arguments: Arguments, format: ImageFormat) throws -> String {
    guard arguments.mode == .fit else { throw CLIError("a video's poster frame is fitted; --mode fill and --crop take a photo") }
    let poster = try VideoPosterFrame(ofFileAt: arguments.input, at: arguments.at ?? .zero, fitting: arguments.box)
    var options = EncodeOptions(quality: arguments.quality)
    options.speed = arguments.speed
    let encoded = try poster.bitmap.encoded(as: format, options: options)
    do {
        try Data(encoded).write(to: URL(fileURLWithPath: arguments.output), options: .atomic)
    } catch {
        throw CLIError("cannot write \(arguments.output): \(error.localizedDescription)")
    }
    let video = poster.info.video
    let turned = video.rotation == 0 ? "" : ", turned \(video.rotation)°"
    let seconds = Double(poster.time.components.seconds) + Double(poster.time.components.attoseconds) / 1e18
    return
        "\(arguments.input): video \(video.codec) \(video.codedSize)\(turned), the frame at \(String(format: "%.3f", seconds)) s -> \(format) \(poster.bitmap.size), \(encoded.count) bytes"
}

do {
    guard let summary = try run() else { exit(0) }
    let printsHash = ["--thumbhash", "--blurhash", "--gain-map-info"].contains { CommandLine.arguments.contains($0) }
    if printsHash || ProcessInfo.processInfo.environment["PHOTO_FIT_QUIET"] == nil { Console.line(summary) }
} catch {
    // The error may quote a file name or a codec's message: terminal-safe.
    Console.error("error: \(error)")
    exit(1)
}
