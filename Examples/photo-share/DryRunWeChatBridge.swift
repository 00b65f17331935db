import Foundation
import ServiceKit
import ShareKit
import WeChatShare

/// A WeChat bridge for `--dry-run`: it records the request the WeChat app
/// would be handed and answers as WeChat does when it took it (errCode 0).
struct DryRunWeChatBridge: WeChatBridge {
    let recorder: DryRunRecorder
    /// The SDK whose rules the requests were checked against (`--platform`).
    let platform: AppPlatform
    private let relay = WeChatResponseRelay()

    init(recorder: DryRunRecorder, platform: AppPlatform) {
        self.recorder = recorder
        self.platform = platform
    }

    func status() async -> AppStatus { .available }

    func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff {
        var summary: [String: JSONValue] = [
            "scene": .string(request.scene.description), "kind": .string(request.kind), "platform": .string(request.platform.rawValue),
            "dataGoesAsFile": .bool(request.dataGoesAsFile),
            // The SDK's caps the request was checked against, and where each comes from.
            "limitsChecked": .array(request.message.kind.limits(on: request.platform).map { .string($0.description) }),
            "limitSources": .array(request.message.kind.limits(on: request.platform).map { .string("\($0.field): \($0.source)") }),
        ]
        var lines = ["would hand to WeChat (\(request.platform)): \(request.kind) message for the \(request.scene) scene"]
        if request.dataGoesAsFile { lines.append("  its data goes as a file (over \(WeChatRules.on(request.platform).inlineDataBytes ?? 0) bytes inline)") }
        switch request.message {
        case .text(let text):
            summary["textBytes"] = .number(Double(text.utf8.count))
            lines.append("  text: \(text.utf8.count) B")
        case .image(let data, let thumbnail):
            summary["imageBytes"] = .number(Double(data.count))
            summary["thumbBytes"] = .number(Double(thumbnail?.count ?? 0))
            lines.append("  image: \(DryRunTransport.bytes(data.count)), thumbnail: \(DryRunTransport.bytes(thumbnail?.count ?? 0))")
        case .webpage(let url, let title, let description, let thumbnail):
            summary["url"] = .string(url)
            summary["title"] = title.map(JSONValue.string) ?? .null
            summary["description"] = description.map(JSONValue.string) ?? .null
            summary["thumbBytes"] = .number(Double(thumbnail?.count ?? 0))
            lines.append("  web page: \(url) \"\(title ?? "")\", thumbnail: \(DryRunTransport.bytes(thumbnail?.count ?? 0))")
        case .videoFile(let path, let thumbnail):
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            summary["videoBytes"] = .number(Double(bytes))
            summary["thumbBytes"] = .number(Double(thumbnail?.count ?? 0))
            lines.append("  video file: \(DryRunTransport.bytes(bytes)), thumbnail: \(DryRunTransport.bytes(thumbnail?.count ?? 0))")
        case .miniProgram(let program):
            summary["userName"] = .string(program.userName)
            summary["path"] = program.path.map(JSONValue.string) ?? .null
            summary["webpageUrl"] = .string(program.webpageURL.absoluteString)
            summary["miniProgramType"] = .number(Double(program.build.rawValue))
            summary["withShareTicket"] = .bool(program.withShareTicket)
            summary["hdImageBytes"] = .number(Double(program.hdImage?.count ?? 0))
            lines.append(
                "  mini program: \(program.userName) \(program.path ?? "(home page)"), fallback \(program.webpageURL.absoluteString), "
                    + "HD image: \(DryRunTransport.bytes(program.hdImage?.count ?? 0))")
            Self.describe(program.card, into: &summary, lines: &lines)
        case .music(let music):
            summary["musicUrl"] = music.url.map { .string($0.absoluteString) } ?? .null
            summary["musicDataUrl"] = music.dataURL.map { .string($0.absoluteString) } ?? .null
            lines.append("  music: \((music.url ?? music.lowBandURL)?.absoluteString ?? "")")
            Self.describe(music.card, into: &summary, lines: &lines)
        case .musicVideo(let song):
            summary["musicUrl"] = .string(song.musicURL.absoluteString)
            summary["musicDataUrl"] = .string(song.musicDataURL.absoluteString)
            summary["singerName"] = .string(song.singerName)
            summary["durationMilliseconds"] = song.durationMilliseconds.map { .number(Double($0)) } ?? .null
            lines.append("  music video: \(song.singerName), \(song.musicURL.absoluteString)")
            Self.describe(song.card, into: &summary, lines: &lines)
        case .video(let video):
            summary["videoUrl"] = video.url.map { .string($0.absoluteString) } ?? .null
            lines.append("  video page: \((video.url ?? video.lowBandURL)?.absoluteString ?? "")")
            Self.describe(video.card, into: &summary, lines: &lines)
        case .file(let file):
            summary["fileBytes"] = .number(Double(file.data.count))
            summary["fileExtension"] = .string(file.fileExtension)
            lines.append("  file: \(DryRunTransport.bytes(file.data.count)) .\(file.fileExtension)")
            Self.describe(file.card, into: &summary, lines: &lines)
        case .emoticon(let sticker):
            summary["emoticonBytes"] = .number(Double(sticker.data.count))
            lines.append("  sticker: \(DryRunTransport.bytes(sticker.data.count))")
            Self.describe(sticker.card, into: &summary, lines: &lines)
        }
        recorder.recordHandOff(.object(summary), lines: lines)
        relay.deliver(WeChatResponse(errCode: 0, transaction: request.transaction))
        return .accepted
    }

    func responses() -> AsyncStream<WeChatResponse> { relay.stream() }

    /// A media message's title, description and thumbnail size.
    private static func describe(_ card: WeChatCard, into summary: inout [String: JSONValue], lines: inout [String]) {
        summary["title"] = card.title.map(JSONValue.string) ?? .null
        summary["description"] = card.description.map(JSONValue.string) ?? .null
        summary["thumbBytes"] = .number(Double(card.thumbnail?.count ?? 0))
        lines.append("  title \"\(card.title ?? "")\", thumbnail: \(DryRunTransport.bytes(card.thumbnail?.count ?? 0))")
    }
}
