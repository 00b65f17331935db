import Foundation
import ProviderTestSupport
import ShareKit
import ShareKitTesting
import Testing
import WeChatShare
import WeChatShareTesting

@Suite("WeChat's whole message set: each kind's scenes, every field's limit to the byte, the refusals' wording")
struct WeChatMessageKindsTests {
    typealias Limits = WeChatTestLimits

    /// `count` bytes of URL.
    static func url(bytes count: Int) -> URL {
        let head = "https://example.com/"
        return URL(string: head + String(repeating: "a", count: max(0, count - head.utf8.count)))!
    }

    static func text(bytes count: Int) -> String {
        // A 3-byte character first, so the count is bytes, not characters.
        count >= 3 ? "长" + String(repeating: "x", count: count - 3) : String(repeating: "x", count: count)
    }

    static let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 10)

    /// One valid message of each kind.
    static func sample(_ kind: WeChatMessageKind) -> WeChatSendRequest.Message {
        switch kind {
        case .text: .text("hello")
        case .image: .image(data: [1, 2, 3], thumbnail: nil)
        case .webpage: .webpage(url: "https://example.com/p", title: "T", description: nil, thumbnail: nil)
        case .videoFile: .videoFile(path: "/tmp/share.mp4", thumbnail: nil)
        // A picture (Android requires the mini program's thumbData) and a title (Android requires a music video's).
        case .miniProgram: .miniProgram(WeChatMiniProgram(userName: "gh_d43f693ca31f", path: "pages/a?id=1", webpageURL: url(bytes: 40), hdImage: [1, 2, 3]))
        case .music: .music(WeChatMusic(url: url(bytes: 40), dataURL: url(bytes: 40)))
        case .musicVideo:
            .musicVideo(WeChatMusicVideo(musicURL: url(bytes: 40), musicDataURL: url(bytes: 40), singerName: "Singer", card: WeChatCard(title: "Song")))
        case .video: .video(WeChatVideoLink(url: url(bytes: 40)))
        case .file: .file(WeChatFile(data: [1, 2, 3], fileExtension: "pdf"))
        case .emoticon: .emoticon(WeChatEmoticon(data: gif, card: WeChatCard(thumbnail: [1, 2, 3])))
        }
    }

    static func violations(_ message: WeChatSendRequest.Message, scene: WeChatScene = .session, platform: AppPlatform = .iOS) -> [ConstraintViolation] {
        do {
            _ = try WeChatSendRequest(message, scene: scene, platform: platform)
            return []
        } catch {
            guard case .invalidContent(let found) = error else { return [.fieldInvalid(field: "test", reason: "\(error)")] }
            return found
        }
    }

    @Test("each scene takes exactly the kinds of its table, and a refusal names the kind, the scene and where it can go")
    func scenes() {
        let table: [WeChatScene: Set<WeChatMessageKind>] = [
            .session: Set(WeChatMessageKind.allCases),
            .timeline: [.text, .image, .webpage, .music, .musicVideo, .video],
            .favorite: [.text, .image, .webpage, .music, .video, .file],
        ]
        for scene in WeChatScene.allCases {
            for kind in WeChatMessageKind.allCases {
                let accepted = table[scene]!.contains(kind)
                #expect(scene.accepts(kind, on: .android) == accepted, "\(kind) in \(scene)")
                let found = Self.violations(Self.sample(kind), scene: scene, platform: .android)
                #expect(found.isEmpty == accepted, "\(kind) in \(scene): \(found)")
                // iOS: the same, but for the video file, which its SDK does not have.
                let onIOS = Self.violations(Self.sample(kind), scene: scene, platform: .iOS)
                #expect(onIOS.isEmpty == (accepted && kind != .videoFile), "\(kind) in \(scene) on iOS: \(onIOS)")
            }
        }
        let refusal = Self.violations(Self.sample(.miniProgram), scene: .timeline)
        #expect(
            refusal == [
                .kindNotAccepted(
                    kind: "mini program", destination: .timeline, reason: "WeChat takes a mini program message (WXMiniProgramObject) only in a chat")
            ])
        #expect(
            ShareError.invalidContent(refusal).description
                == "the content cannot be shared here: a mini program message cannot be shared to timeline: WeChat takes a mini program message (WXMiniProgramObject) only in a chat"
        )
        let file = Self.violations(Self.sample(.file), scene: .timeline)
        #expect(
            file.first?.description == "a file message cannot be shared to timeline: WeChat takes a file message (WXFileObject) only in a chat or Favorites")
        let song = Self.violations(Self.sample(.musicVideo), scene: .favorite)
        #expect(song.first?.description.hasSuffix("only in a chat or Moments") == true, "\(song)")
    }

    /// Builds a message whose field `name` is `bytes` long.
    static let fields: [(name: String, limit: Int, make: @Sendable (Int) -> WeChatSendRequest.Message)] = [
        // iOS's header caps a mini program's fallback URL at 1,024 bytes, not the 10 KB of other URLs.
        (
            "WXMiniProgramObject.webpageUrl", Limits.miniProgramURLBytes,
            { .miniProgram(WeChatMiniProgram(userName: "gh_1", webpageURL: url(bytes: $0))) }
        ),
        (
            "WXMiniProgramObject.hdImageData", Limits.miniProgramImageBytes,
            { .miniProgram(WeChatMiniProgram(userName: "gh_1", webpageURL: url(bytes: 40), hdImage: [UInt8](repeating: 1, count: $0))) }
        ),
        (
            "WXMediaMessage.title", Limits.titleBytes,
            { .miniProgram(WeChatMiniProgram(userName: "gh_1", webpageURL: url(bytes: 40), card: WeChatCard(title: text(bytes: $0)))) }
        ),
        ("WXMediaMessage.description", Limits.descriptionBytes, { .music(WeChatMusic(url: url(bytes: 40), card: WeChatCard(description: text(bytes: $0)))) }),
        (
            "WXMediaMessage.thumbData", Limits.thumbnailBytes,
            { .video(WeChatVideoLink(url: url(bytes: 40), card: WeChatCard(thumbnail: [UInt8](repeating: 1, count: $0)))) }
        ),
        ("WXMusicObject.musicUrl", Limits.urlBytes, { .music(WeChatMusic(url: url(bytes: $0))) }),
        ("WXMusicObject.musicLowBandUrl", Limits.urlBytes, { .music(WeChatMusic(lowBandURL: url(bytes: $0))) }),
        ("WXMusicObject.musicDataUrl", Limits.urlBytes, { .music(WeChatMusic(url: url(bytes: 40), dataURL: url(bytes: $0))) }),
        ("WXMusicObject.musicLowBandDataUrl", Limits.urlBytes, { .music(WeChatMusic(url: url(bytes: 40), lowBandDataURL: url(bytes: $0))) }),
        ("WXVideoObject.videoUrl", Limits.urlBytes, { .video(WeChatVideoLink(url: url(bytes: $0))) }),
        ("WXVideoObject.videoLowBandUrl", Limits.urlBytes, { .video(WeChatVideoLink(lowBandURL: url(bytes: $0))) }),
        ("WXMusicVideoObject.musicUrl", Limits.urlBytes, { musicVideo(musicURL: url(bytes: $0)) }),
        ("WXMusicVideoObject.musicDataUrl", Limits.urlBytes, { musicVideo(musicDataURL: url(bytes: $0)) }),
        ("WXMusicVideoObject.singerName", Limits.musicVideoNameBytes, { musicVideo(singerName: text(bytes: $0)) }),
        ("WXMusicVideoObject.songLyric", Limits.lyricBytes, { musicVideo { $0.lyric = text(bytes: $1) }($0) }),
        (
            "WXMusicVideoObject.hdAlbumThumbData", Limits.albumImageBytes,
            { musicVideo { $0.hdAlbumThumbnail = [UInt8](repeating: 1, count: $1) }($0) }
        ),
        ("WXMusicVideoObject.musicGenre", Limits.musicVideoNameBytes, { musicVideo { $0.genre = text(bytes: $1) }($0) }),
        ("WXMusicVideoObject.identification", Limits.musicVideoNameBytes, { musicVideo { $0.identification = text(bytes: $1) }($0) }),
        ("WXMusicVideoObject.albumName", Limits.musicVideoNameBytes, { musicVideo { $0.albumName = text(bytes: $1) }($0) }),
        ("WXMediaMessage.messageExt", Limits.messageExtBytes, { musicVideo { $0.messageExt = text(bytes: $1) }($0) }),
        ("WXFileObject.fileData", Limits.fileBytes, { .file(WeChatFile(data: [UInt8](repeating: 1, count: $0), fileExtension: "bin")) }),
        ("WXFileObject.fileExtension", Limits.fileExtensionBytes, { .file(WeChatFile(data: [1], fileExtension: String(repeating: "x", count: $0))) }),
        (
            "WXEmoticonObject.emoticonData", Limits.emoticonBytes,
            { .emoticon(WeChatEmoticon(data: gif + [UInt8](repeating: 0, count: $0 - gif.count), card: WeChatCard(thumbnail: [1]))) }
        ),
        ("SendMessageToWXReq.text", Limits.textBytes, { .text(text(bytes: $0)) }),
        ("WXImageObject.imageData", Limits.imageBytes, { .image(data: [UInt8](repeating: 1, count: $0), thumbnail: nil) }),
        ("WXWebpageObject.webpageUrl", Limits.urlBytes, { .webpage(url: url(bytes: $0).absoluteString, title: nil, description: nil, thumbnail: nil) }),
    ]

    static func musicVideo(musicURL: URL = url(bytes: 40), musicDataURL: URL = url(bytes: 40), singerName: String = "Singer") -> WeChatSendRequest.Message {
        .musicVideo(WeChatMusicVideo(musicURL: musicURL, musicDataURL: musicDataURL, singerName: singerName))
    }

    static func musicVideo(_ change: @escaping @Sendable (inout WeChatMusicVideo, Int) -> Void) -> @Sendable (Int) -> WeChatSendRequest.Message {
        { bytes in
            var song = WeChatMusicVideo(musicURL: url(bytes: 40), musicDataURL: url(bytes: 40), singerName: "Singer")
            change(&song, bytes)
            return .musicVideo(song)
        }
    }

    @Test("every capped field: its limit in bytes passes, one byte more is refused naming the field, its size and the cap")
    func byteEdges() {
        for field in Self.fields {
            let atLimit = Self.violations(field.make(field.limit))
            #expect(atLimit.isEmpty, "\(field.name) at \(field.limit) bytes: \(atLimit)")
            let over = Self.violations(field.make(field.limit + 1))
            #expect(over == [.fieldTooLarge(field: field.name, size: field.limit + 1, limit: field.limit, unit: .bytes)], "\(field.name): \(over)")
        }
        // Each kind's table is the one its checks use.
        for field in Self.fields {
            let kind = field.make(field.limit).kind
            #expect(kind.limits(on: .iOS).contains { $0.field == field.name && $0.limit == field.limit }, "\(field.name) in \(kind).limits")
        }
        // The table names each field's cap as the checks use it.
        let caps =
            (WeChatMiniProgram.limits(on: .iOS) + WeChatMusic.limits(on: .iOS) + WeChatVideoLink.limits(on: .iOS) + WeChatMusicVideo.limits(on: .iOS)
                + WeChatFile.limits(on: .iOS)
                + WeChatEmoticon.limits(on: .iOS) + WeChatCard.limits(on: .iOS))
        for field in Self.fields
        where !field.name.hasPrefix("SendMessageToWXReq") && !field.name.hasPrefix("WXImageObject") && !field.name.hasPrefix("WXWebpageObject") {
            #expect(caps.contains { $0.field == field.name && $0.limit == field.limit }, "\(field.name) is in a limits table")
        }
    }

    @Test("required fields, one-of-two URLs, web addresses only, a GIF sticker with its thumbnail, a duration that fits")
    func requiredAndInvalid() {
        #expect(
            Self.violations(.miniProgram(WeChatMiniProgram(userName: "", webpageURL: Self.url(bytes: 40))))
                == [.fieldRequired(field: "WXMiniProgramObject.userName")])
        #expect(
            Self.violations(.miniProgram(WeChatMiniProgram(userName: "gh_1", webpageURL: URL(string: "weixin://dl/business")!)))
                == [.fieldInvalid(field: "WXMiniProgramObject.webpageUrl", reason: "WeChat opens only http and https addresses with a host")])
        #expect(Self.violations(.music(WeChatMusic(dataURL: Self.url(bytes: 40)))) == [.fieldRequired(field: "WXMusicObject.musicUrl or musicLowBandUrl")])
        #expect(Self.violations(.video(WeChatVideoLink())) == [.fieldRequired(field: "WXVideoObject.videoUrl or videoLowBandUrl")])
        #expect(
            Self.violations(.musicVideo(WeChatMusicVideo(musicURL: Self.url(bytes: 40), musicDataURL: Self.url(bytes: 40), singerName: ""))) == [
                .fieldRequired(field: "WXMusicVideoObject.singerName")
            ])
        // A sticker's thumbnail: Android's checkArgs requires it, iOS's header does not.
        #expect(
            Self.violations(.emoticon(WeChatEmoticon(data: Self.gif, card: WeChatCard())), platform: .android) == [
                .fieldRequired(field: "WXMediaMessage.thumbData")
            ])
        #expect(Self.violations(.emoticon(WeChatEmoticon(data: Self.gif, card: WeChatCard()))).isEmpty)
        #expect(
            Self.violations(.emoticon(WeChatEmoticon(data: [0xFF, 0xD8, 0xFF], card: WeChatCard(thumbnail: [1]))))
                == [.fieldInvalid(field: "WXEmoticonObject.emoticonData", reason: "a sticker is a GIF (it starts with GIF87a or GIF89a)")])
        #expect(
            Self.violations(.file(WeChatFile(data: [1], fileExtension: ".pdf")))
                == [.fieldInvalid(field: "WXFileObject.fileExtension", reason: "letters and digits only, without the dot")])
        #expect(Self.violations(.file(WeChatFile(data: [], fileExtension: "pdf"))) == [.fieldRequired(field: "WXFileObject.fileData")])
        var song = WeChatMusicVideo(musicURL: Self.url(bytes: 40), musicDataURL: Self.url(bytes: 40), singerName: "S", duration: .milliseconds(215_250))
        #expect(song.durationMilliseconds == 215_250)
        #expect(Self.violations(.musicVideo(song)).isEmpty)
        song.duration = .milliseconds(Int64(Int32.max) + 1)
        #expect(song.durationMilliseconds == nil)
        #expect(Self.violations(.musicVideo(song)) == [.fieldInvalid(field: "WXMusicVideoObject.duration", reason: "whole milliseconds from 0 to 2147483647")])
        song.duration = .seconds(-1)
        #expect(Self.violations(.musicVideo(song)).count == 1)
    }

    @Test("the provider sends each kind through the bridge as built, refuses before the hand-off, and the fake's answers become outcomes")
    func throughTheBridge() async throws {
        let bridge = FakeWeChatBridge(answer: .errCode(0))
        let provider = WeChatAppProvider(bridge: bridge)
        for kind in WeChatMessageKind.allCases {
            let outcome = try await provider.send(Self.sample(kind), to: .session)
            guard case .outcomeUnknown = outcome else {
                Issue.record("\(kind): \(outcome)")
                continue
            }
        }
        #expect(bridge.requests.map(\.message.kind) == WeChatMessageKind.allCases)
        #expect(bridge.requests.map(\.kind) == WeChatMessageKind.allCases.map(\.rawValue))
        #expect(bridge.requests.allSatisfy { $0.scene == .session })

        // Refused before WeChat opens: nothing more reaches the bridge.
        await #expect(throws: ShareError.self) { try await provider.send(Self.sample(.miniProgram), to: .timeline) }
        await #expect(throws: ShareError.self) { try await provider.send(.file(WeChatFile(data: [], fileExtension: "pdf")), to: .session) }
        #expect(bridge.requests.count == WeChatMessageKind.allCases.count)

        bridge.setAnswer(.errCode(-2))
        await #expect(throws: ShareError.cancelled) { try await provider.send(Self.sample(.musicVideo), to: .timeline) }
        bridge.setAnswer(.errCode(-5, "too old"))
        do {
            _ = try await provider.send(Self.sample(.emoticon), to: .session)
            Issue.record("an unsupported sticker was not refused")
        } catch {
            #expect(error.description.contains("errCode -5: too old"), "\(error)")
        }
        await #expect(throws: ShareError.self) { try await provider.send(Self.sample(.text), to: "story") }
    }
}
