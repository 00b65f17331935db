// photodeck-fuzz: libFuzzer entry points for the parsers that see untrusted
// bytes. Built by scripts/fuzz.sh with -sanitize=fuzzer,address and
// -D FUZZING; the target is chosen with PHOTODECK_FUZZ_TARGET:
//
//   jpeg | png | webp   decode (full size, then at a small target size)
//   jxl                 JPEG XL probe and decode through libjxl (a codestream signature is forced)
//   probe               sniff and read the header only
//   exif                parse an EXIF block and rewrite its orientation
//   render              the streaming rendition pipeline
//   json                ShareKit's JSON reader (parse, read members, re-encode)
//   weibo               Weibo's answers: statuses/share.json and the OAuth token
//   tencent             WeChat's and WeCom's errcode answers and publish status
//   weibo-timeline      WeiboKit's status decoders (timeline, single status) and error answers
//   weibo-people        WeiboKit's comment, user, search and token-info decoders, the redirect reader
//   heif                HEIC/AVIF probe and decode through libheif (an ftyp box is forced)
//   icc                 ICC profile parsing, JPEG APP2 chunk reassembly, PNG iCCP inflation, conversion
//   gif                 GIF structure, still decode and every animation frame
//   heif-grid           HEIF grids, tiles, thumbnails and alpha: decoded at several sizes (thumbnails chosen), every frame
//   webp-anim           animated WebP: header, every frame, the first-frame still decode
//   png-file            PNG read from a file: probe, decode and rendition by path
//   multipart           the multipart/form-data reader (a boundary from the first line)
//   terminal            terminal replies and keys: TerminalKeyDecoder fed in pieces, then DA1/size detection
//   outbox              stored outbox content: an entry whose content is the input, processed
//   rewrite             metadata rewriting (every policy) and lossless JPEG transforms: an image that
//                       decoded before decodes after, to the same pixels (a rewrite), or the same size (a transform)
//   album-journal       an album store's journal beside an empty index: opened (replayed), listed, checked
//   cache-index         image cache index rows (key, file, size, last use per line): repaired, read, evicted
//   ledger              the rate-limit ledger's JSON: checked and reserved under rolling and calendar windows
//   keys                keys.conf: parsed as text and loaded from a file
//   png-text            a cached thumbnail's chunks: text entries read, the thumbnail looked up
//   weibo-cache         a stored post in the Weibo timeline cache: the timeline read back
//   video               a video container from a file: probed, a poster frame decoded small, and read from a range
//
// For weibo and tencent the first byte picks the HTTP status; the rest is the body.
//
// Without FUZZING it builds as a small executable that runs every target
// once over the files given, which is how crash regressions are replayed.

import Foundation
import ImageCodecs
import ServiceKit
import ShareKit
import WeChatShare
import WeiboKit
import WeiboShare

enum FuzzTarget: String, CaseIterable {
    case jpeg, png, webp, jxl, probe, exif, render, json, weibo, tencent
    case weiboTimeline = "weibo-timeline"
    case weiboPeople = "weibo-people"
    case heif, icc, gif
    case heifGrid = "heif-grid"
    case webpAnimation = "webp-anim"
    case pngFile = "png-file"
    case multipart, terminal, outbox, rewrite
    case albumJournal = "album-journal"
    case cacheIndex = "cache-index"
    case ledger, keys
    case pngText = "png-text"
    case weiboCache = "weibo-cache"
    case video

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PHOTODECK_FUZZ_TARGET"] ?? "probe"
        return FuzzTarget(rawValue: name) ?? .probe
    }()

    /// A small Adobe CMYK JPEG (the repository's conformance copy; run from
    /// the repository's root, as scripts/fuzz.sh does).
    static let cmykJPEG: [UInt8]? = FileManager.default.contents(atPath: "Tests/Fixtures/conformance/pillow-edgecases/pil_sample_cmyk.jpg").map(Array.init)

    /// Runs the target on one input. Errors are expected; only crashes,
    /// leaks, hangs and memory errors are findings.
    func run(_ bytes: [UInt8]) {
        let limits = ImageLimits(maxPixelCount: 16_000_000, maxDimension: 8_192)
        switch self {
        case .jpeg, .png, .webp, .jxl:
            let prefix: [UInt8]
            switch self {
            case .jpeg: prefix = [0xFF, 0xD8, 0xFF]
            case .png: prefix = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            case .jxl: prefix = data(startsWithJXL: bytes) ? [] : [0xFF, 0x0A]
            default: prefix = Array("RIFF".utf8)
            }
            // Keep the fuzzer inside the chosen format: force its signature.
            var data = bytes
            if !data.starts(with: prefix) { data = prefix + data }
            if self == .jxl { _ = try? ImageInfo(probing: data) }
            _ = try? DecodedImage(decoding: data, options: DecodeOptions(limits: limits))
            _ = try? DecodedImage(
                decoding: data, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 64, height: 64)), limits: limits, acceptsTruncatedData: true))
        case .probe:
            _ = try? ImageInfo(probing: bytes)
        case .exif:
            if let exif = ExifMetadata(bytes: bytes) {
                _ = exif.settingOrientation(.left).orientation
                _ = exif.captureDate?.date
            }
        case .render:
            _ = try? DecodedImage(rendering: bytes, in: PixelSize(width: 48, height: 48), mode: .fill, options: RenditionOptions(limits: limits))
        case .json:
            if let value = try? JSONValue(parsing: bytes) {
                _ = value["errcode"]?.intValue
                _ = value[0]?.stringValue
                _ = try? JSONValue(parsing: value.encoded())
            }
        case .weibo:
            let response = Self.response(bytes)
            _ = try? WeiboResponse.outcome(of: response, sentStatus: "fuzz status")
            _ = try? WeiboAuthorizer.credential(from: response, issuedAt: Date(timeIntervalSince1970: 0))
        case .weiboTimeline:
            let response = Self.response(bytes)
            if let page = try? WeiboDecoder.timeline(from: response.body) { _ = (page.posts.map { $0.repost?.sortKey ?? $0.sortKey }, page.nextQuery) }
            _ = try? WeiboDecoder.timeline(from: response.body, key: "reposts")
            _ = try? WeiboDecoder.post(from: response.body)
            _ = WeiboErrorAnswer(response)?.error(endpoint: "fuzz", uid: "1", sentText: "fuzz")
        case .weiboPeople:
            let response = Self.response(bytes)
            _ = try? WeiboDecoder.comments(from: response.body)
            _ = try? WeiboDecoder.comment(from: response.body)
            _ = try? WeiboDecoder.user(from: response.body)
            _ = try? WeiboDecoder.userSuggestions(from: response.body)
            _ = try? WeiboDecoder.users(from: response.body)
            _ = try? WeiboDecoder.topics(from: response.body)
            _ = try? WeiboDecoder.tokenInfo(from: response.body)
            let authorizer = WeiboAuthorizer(appKey: "1", appSecret: "s", redirectURI: URL(string: "https://example.com/cb")!)
            _ = try? authorizer.code(fromRedirect: String(decoding: response.body, as: UTF8.self), expectedState: "s")
        case .heif:
            // Keep the fuzzer inside HEIF: force an ftyp box naming HEIC or AVIF.
            var data = bytes
            if !(data.count > 12 && data[4..<8].elementsEqual("ftyp".utf8)) {
                data = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + data
            }
            _ = try? ImageInfo(probing: data)
            _ = try? DecodedImage(decoding: data, options: DecodeOptions(limits: limits))
            _ = try? DecodedImage(decoding: data, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 32, height: 32)), limits: limits))
        case .icc:
            // First byte: which reader; the rest is the payload.
            let payload = Array(bytes.dropFirst())
            switch bytes.first.map({ $0 % 3 }) {
            case 0?:
                if let profile = ColorProfile(iccData: payload) {
                    // A CMYK profile also goes through a CMYK JPEG's conversion.
                    if profile.colorSpace == .cmyk, let jpeg = Self.cmykJPEG, payload.count <= 65_519 {
                        let length = 2 + JPEGICCChunks.marker.count + 2 + payload.count
                        let segment = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + JPEGICCChunks.marker + [1, 1] + payload
                        _ = try? DecodedImage(decoding: Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2)))
                    }
                    var image = DecodedImage(
                        bitmap: Bitmap(zeroedWidth: 4, height: 4, pixelFormat: profile.colorSpace == .gray ? .gray8 : .rgb8), format: .png, orientation: .up,
                        sourceOrientation: .up, sourceSize: PixelSize(width: 4, height: 4), colorProfile: profile)
                    image.convertToSRGB()
                }
            case 1?:
                var chunks = JPEGICCChunks()
                var rest = payload[...]
                while rest.count > 2 {
                    let length = Int(rest[rest.startIndex]) % 64 + 1
                    chunks.add(segment: JPEGICCChunks.marker + Array(rest.dropFirst().prefix(length)))
                    rest = rest.dropFirst(length + 1)
                }
                _ = chunks.color
            default:
                var chunks = PNGColorChunks()
                chunks.add(type: "iCCP", body: payload)
                _ = chunks.color(isGray: false)
            }
        case .gif:
            var data = bytes
            if !data.starts(with: Array("GIF8".utf8)) { data = Array("GIF89a".utf8) + data }
            _ = try? ImageInfo(probing: data)
            _ = try? DecodedImage(decoding: data, options: DecodeOptions(limits: limits))
            if let frames = try? ImageFrames(decoding: data, limits: .init(image: limits, maxFrameCount: 64, maxTotalPixels: 64_000_000)) {
                while (try? frames.next()) != nil {}
            }
        case .heifGrid, .webpAnimation, .pngFile, .multipart, .terminal, .outbox, .rewrite:
            runHostileTarget(bytes, limits: limits)
        case .albumJournal, .cacheIndex, .ledger, .keys, .pngText, .weiboCache:
            runPersistedTarget(bytes)
        case .video:
            runVideoTarget(bytes)
        case .tencent:
            let response = Self.response(bytes)
            if let json = try? TencentAnswer.check(response, provider: "wechat-oa", step: "fuzz", now: Date(timeIntervalSince1970: 1_800_000_000)) {
                _ = json["publish_status"]?.intValue
                _ = json["article_detail"]?["item"]?[0]?["article_url"]?.stringValue.flatMap(URL.init(string:))
                _ = json["fail_idx"]?.arrayValue?.compactMap(\.intValue)
            }
        }
    }

    /// An HTTP answer from fuzz bytes: the first byte picks the status.
    static func response(_ bytes: [UInt8]) -> HTTPResponse {
        let statuses = [200, 201, 400, 403, 404, 429, 500, 502, 503, 504]
        let status = bytes.first.map { statuses[Int($0) % statuses.count] } ?? 200
        return HTTPResponse(status: status, headers: ["Retry-After": "\(bytes.count)"], body: Array(bytes.dropFirst()))
    }
}

#if FUZZING
    /// libFuzzer's driver, from libclang_rt.fuzzer_no_main (linked by scripts/fuzz.sh).
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    @main
    struct FuzzMain {
        static func main() {
            var argc = CommandLine.argc
            var argv = Optional(CommandLine.unsafeArgv)
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    FuzzTarget.selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                    return 0
                })
        }
    }
#else
    @main
    struct ReplayMain {
        static func main() {
            let paths = CommandLine.arguments.dropFirst()
            guard !paths.isEmpty else {
                print("usage: photodeck-fuzz FILE... (replays every fuzz target over the files)")
                return
            }
            for path in paths {
                // FoundationEssentials leaks its 4 KB read buffer for an empty
                // file (seen under LeakSanitizer): do not read those.
                let isEmpty = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0
                guard let data = isEmpty ? Data() : FileManager.default.contents(atPath: path) else {
                    print("error: cannot read \(path)")
                    exit(1)
                }
                for target in FuzzTarget.allCases { target.run([UInt8](data)) }
                print("ok \(path)")
            }
        }
    }
#endif

/// Whether `bytes` already start like a JPEG XL file (a codestream or the container).
private func data(startsWithJXL bytes: [UInt8]) -> Bool {
    JXLCodec().recognizes(bytes.prefix(12))
}
