import Foundation
import QQShare
import ServiceKit
import ShareKit

/// A QQ bridge for `--dry-run`: it records the request the QQ app would be
/// handed and answers as QQ does when the user sends it ("0").
struct DryRunQQBridge: QQBridge {
    let recorder: DryRunRecorder
    /// The SDK whose rules the requests were checked against (`--platform`).
    let platform: AppPlatform
    private let relay = AnswerRelay<QQResponse>()

    init(recorder: DryRunRecorder, platform: AppPlatform) {
        self.recorder = recorder
        self.platform = platform
    }

    func status() async -> AppStatus { .available }

    func handOff(_ request: QQSendRequest) async -> QQSendResult {
        var summary: [String: JSONValue] = [
            "destination": .string(request.destination.description), "kind": .string(request.message.kind.rawValue),
            "platform": .string(request.platform.rawValue),
            "object": .string(request.sdkObject), "cflag": .number(Double(request.controlFlags)),
            // The SDK's caps the request was checked against.
            "limitsChecked": .array(QQSendRequest.limits(of: request.message.kind, to: request.destination).map { .string($0.description) }),
        ]
        var lines = [
            "would hand to QQ (\(request.platform)): \(request.message.kind) message for \(request.destination) as \(request.sdkObject), cflag \(request.controlFlags)"
        ]
        func describe(_ card: QQCard) {
            summary["title"] = card.title.map(JSONValue.string) ?? .null
            summary["description"] = card.summary.map(JSONValue.string) ?? .null
            summary["previewBytes"] = .number(Double(card.previewImage?.count ?? 0))
            lines.append("  title \"\(card.title ?? "")\", preview: \(DryRunTransport.bytes(card.previewImage?.count ?? 0))")
        }
        switch request.message {
        case .text(let text):
            summary["textCharacters"] = .number(Double(text.utf16.count))
            lines.append("  text: \(text.utf16.count) characters")
        case .image(let data, let card):
            summary["imageBytes"] = .number(Double(data.count))
            lines.append("  picture: \(DryRunTransport.bytes(data.count))")
            describe(card)
        case .images(let pictures, let text):
            summary["imageBytes"] = .array(pictures.map { .number(Double($0.count)) })
            summary["text"] = text.map(JSONValue.string) ?? .null
            lines.append("  \(pictures.count) pictures: \(pictures.map { DryRunTransport.bytes($0.count) }.joined(separator: ", "))")
        case .news(let url, let card), .audio(let url, _, let card), .videoLink(let url, _, let card):
            summary["url"] = .string(url.absoluteString)
            lines.append("  link: \(url.absoluteString)")
            describe(card)
        case .videoFile(_, let byteCount, let text):
            summary["videoBytes"] = .number(Double(byteCount))
            summary["text"] = text.map(JSONValue.string) ?? .null
            lines.append("  video file: \(DryRunTransport.bytes(byteCount))")
        case .file(let data, let fileName, let card):
            summary["fileBytes"] = .number(Double(data.count))
            summary["fileName"] = .string(fileName)
            lines.append("  file: \(fileName), \(DryRunTransport.bytes(data.count))")
            describe(card)
        case .miniProgram(let appID, let path, let webpageURL, let build, let card):
            summary["miniAppID"] = .string(appID)
            summary["miniPath"] = .string(path)
            summary["webpageUrl"] = .string(webpageURL.absoluteString)
            summary["miniprogramType"] = .number(Double(build.rawValue))
            lines.append("  mini program: \(appID) \(path), fallback \(webpageURL.absoluteString)")
            describe(card)
        }
        recorder.recordHandOff(.object(summary), lines: lines)
        relay.deliver(QQResponse(result: "0", transaction: request.transaction))
        return .sent
    }

    func responses() -> AsyncStream<QQResponse> { relay.stream() }
}
