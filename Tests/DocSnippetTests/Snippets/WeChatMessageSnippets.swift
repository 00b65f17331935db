// The WeChat message set's code samples of the doc comments, compiled.

import Foundation
import ShareKit
import Testing
import WeChatShare
import WeChatShareTesting

enum WeChatMessageSnippets {
    static func kinds() {
        let scenes = WeChatMessageKind.miniProgram.acceptingScenes(on: .iOS)  // [.session]
        let takesFiles = WeChatScene.timeline.accepts(.file, on: .android)  // false
        _ = (scenes, takesFiles)
    }

    static func rules() {
        let android = WeChatRules.on(.android)
        print(android.inlineDataBytes ?? 0, android.text.unit)  // 1048576 characters
    }

    static func platform() {
        let rules = WeChatRules.on(.android)  // imageData 1 MB inline, thumbData required for a mini program…
        _ = rules
    }

    static func card(jpegUnder32KB: [UInt8]) {
        let card = WeChatCard(title: "Sunset", description: "At the pier", thumbnail: jpegUnder32KB)
        _ = card
    }

    static func miniProgram(cardJPEG: [UInt8]) throws(ShareError) {
        let card = WeChatMiniProgram(
            userName: "gh_d43f693ca31f", path: "pages/photo?id=42",
            webpageURL: URL(string: "https://example.com/photo/42")!,
            hdImage: cardJPEG, card: WeChatCard(title: "Sunset at the pier"))
        let request = try WeChatSendRequest(.miniProgram(card), scene: .session, platform: .iOS)
        _ = request
    }

    static func send(wechat: WeChatAppProvider) async throws(ShareError) {
        let card = WeChatMiniProgram(
            userName: "gh_d43f693ca31f", path: "pages/photo?id=42",
            webpageURL: URL(string: "https://example.com/photo/42")!)
        let outcome = try await wechat.send(.miniProgram(card), to: .session)
        _ = outcome
    }

    static func music() {
        let song = WeChatMusic(
            url: URL(string: "https://music.example.com/song/7")!,
            dataURL: URL(string: "https://cdn.example.com/7.mp3")!, card: WeChatCard(title: "Song"))
        _ = song
    }

    static func video() {
        let clip = WeChatVideoLink(url: URL(string: "https://video.example.com/v/9")!, card: WeChatCard(title: "Clip"))
        _ = clip
    }

    static func musicVideo() {
        let song = WeChatMusicVideo(
            musicURL: URL(string: "https://music.example.com/song/7")!,
            musicDataURL: URL(string: "https://cdn.example.com/7.mp3")!,
            singerName: "Singer", card: WeChatCard(title: "Song"))
        _ = song
    }

    static func file(pdfBytes: [UInt8]) {
        let report = WeChatFile(data: pdfBytes, fileExtension: "pdf", card: WeChatCard(title: "Report.pdf"))
        _ = report
    }

    static func sticker(gifBytes: [UInt8], firstFrameJPEG: [UInt8]) {
        let sticker = WeChatEmoticon(data: gifBytes, card: WeChatCard(thumbnail: firstFrameJPEG))
        _ = sticker
    }
}

enum WeChatMessageTestingSnippets {
    static func fake() async throws {
        let bridge = FakeWeChatBridge(answer: .errCode(0))
        let wechat = WeChatAppProvider(bridge: bridge)
        let program = WeChatMiniProgram(userName: "gh_d43f693ca31f", webpageURL: URL(string: "https://example.com/")!)
        _ = try await wechat.send(.miniProgram(program), to: .session)
        #expect(bridge.requests.first?.message.kind == .miniProgram)
    }
}
