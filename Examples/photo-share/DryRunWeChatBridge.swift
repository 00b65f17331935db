import Foundation
import ServiceKit
import ShareKit
import WeChatAppShare

/// A WeChat bridge for `--dry-run`: it records the request the WeChat app
/// would be handed and answers as WeChat does when it took it (errCode 0).
struct DryRunWeChatBridge: WeChatBridge {
    let recorder: DryRunRecorder
    private let relay = WeChatResponseRelay()

    init(recorder: DryRunRecorder) { self.recorder = recorder }

    func status() async -> WeChatAppStatus { .available }

    func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff {
        var summary: [String: JSONValue] = ["scene": .string(request.scene.description), "kind": .string(request.kind)]
        var lines = ["would hand to WeChat: \(request.kind) message for the \(request.scene) scene"]
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
        }
        recorder.recordHandOff(.object(summary), lines: lines)
        relay.deliver(WeChatResponse(errCode: 0, transaction: request.transaction))
        return .accepted
    }

    func responses() -> AsyncStream<WeChatResponse> { relay.stream() }
}
