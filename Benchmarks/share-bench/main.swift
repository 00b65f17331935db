// share-bench: how long ShareKit takes to prepare a WeChat-sized share
// (image under 10 MB, thumbnail under 32 KB in 200x200) from a photo file,
// and how many encodes the byte-cap search made. Build with -c release.
//
//   share-bench FILE [--runs N]
//   share-bench --video FILE     one preparation of a video for a WeChat chat
//                                (H.264/AAC MP4 up to 100 MB): one JSON line
//                                with the seconds, size, bit rate and bytes

import Dispatch
import Foundation
import ImageCodecs
import ShareKit
import ShareMedia

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--video", arguments.count == 2 {
    let chat = ShareConstraints(
        text: nil, images: nil, links: .unsupported,
        videos: .init(maxBytes: 100 * 1024 * 1024, videoCodecs: ["h264"], audioCodecs: ["aac"], acceptsText: false))
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        let prepared = try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: arguments[1])), for: chat)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard let video = prepared.video else { exit(1) }
        print(
            "{\"seconds\": \(seconds), \"width\": \(video.size.width), \"height\": \(video.size.height), "
                + "\"bitRate\": \(video.targetBitRate ?? 0), \"bytes\": \(video.byteCount), \"transcoded\": \(video.isTranscoded)}")
        exit(0)
    } catch {
        try? FileHandle.standardError.write(contentsOf: Data("error: \(error)\n".utf8))
        exit(1)
    }
}
guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
    try? FileHandle.standardError.write(contentsOf: Data("error: usage: share-bench FILE [--runs N]\n".utf8))
    exit(1)
}
let runs = arguments.firstIndex(of: "--runs").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? 5
let wechat = ShareConstraints(
    text: .init(maxLength: 10_240), images: .init(maxCount: 1, maxBytes: 10_000_000, formats: [.jpeg, .png]),
    thumbnail: .init(maxBytes: 32_768, maxSize: PixelSize(width: 200, height: 200)), links: .inText
)
let content = ShareContent(text: "A photo", images: [.encoded([UInt8](data))])
var times: [Double] = []
var prepared: PreparedContent?
do {
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        prepared = try await MediaContentAdapter().prepare(content, for: wechat)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("error: \(error)\n".utf8))
    exit(1)
}
times.sort()
let result = prepared!
print(
    String(
        format: "median %.1f ms over %d runs; %d encodes; image %d bytes (%@); thumbnail %d bytes %@",
        times[times.count / 2], runs, result.encodeCount, result.images[0].bytes.count,
        result.images[0].bytes.count == data.count ? "unchanged" : "re-encoded",
        result.thumbnail?.bytes.count ?? 0, result.thumbnail?.size.description ?? "-"))
