import Foundation
import ServiceKit
import TestSupport
import Testing

@Suite("photo-share: the WeChat app's message kinds, dry run as the bridge would be handed them")
struct PhotoShareWeChatKindsTests {
    static let sample = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples/waterfall.jpg").path

    func run(_ arguments: [String]) async throws -> ExampleProcess.Result {
        try await ExampleProcess.run("photo-share", arguments)
    }

    func handOff(_ result: ExampleProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        return try #require(try JSONValue(parsing: Array(result.standardOutput.utf8))["handoff"], sourceLocation: sourceLocation)
    }

    static func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("share-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test(
        "--platform: a mini program without a picture passes iOS's rules and not Android's; a video file passes Android's, not iOS's; each cap names its source"
    )
    func platforms() async throws {
        let bare = [
            "share", "--to", "wechat/session", "--mini-program", "gh_d43f693ca31f:pages/photo?id=42", "--link", "https://example.com/p/42", "--dry-run",
        ]
        let onIOS = try handOff(await run(bare + ["--json", "--platform", "ios"]))
        #expect(onIOS["platform"] == "ios" && onIOS["kind"] == "miniProgram")
        let sources = try #require(onIOS["limitSources"]?.arrayValue).compactMap(\.stringValue)
        #expect(sources.contains { $0.hasPrefix("WXMiniProgramObject.webpageUrl: WXApiObject.h") }, "\(sources)")
        let onAndroid = try await run(bare + ["--platform", "android"])
        #expect(onAndroid.status != 0 && onAndroid.standardError.contains("WXMediaMessage.thumbData"), "\(onAndroid.standardError)")
        let pictured = try handOff(await run(bare + ["--json", "--platform", "android", "--hd-image", Self.sample]))
        #expect(pictured["platform"] == "android")

        let video = try TestVideos.h264()
        let androidVideo = try handOff(await run(["share", "--to", "wechat/session", "--video", video, "--dry-run", "--json", "--platform", "android"]))
        #expect(androidVideo["kind"] == "videoFile")
        let iosVideo = try await run(["share", "--to", "wechat/session", "--video", video, "--dry-run", "--platform", "ios"])
        #expect(iosVideo.status != 0, "iOS's SDK has no video file: \(iosVideo.standardOutput)")
        let notDry = try await run(["share", "--to", "wechat/session", "--text", "hi", "--platform", "android"])
        #expect(notDry.status != 0 && notDry.standardError.contains("--platform goes with --dry-run"))
    }

    @Test("a mini program card: user name, path, fallback page, build, share ticket, an HD picture under 128 KB and a thumbnail under 32 KB")
    func miniProgram() async throws {
        let card = try handOff(
            await run([
                "share", "--to", "wechat/session", "--mini-program", "gh_d43f693ca31f:pages/photo?id=42", "--link", "https://example.com/p/42",
                "--title", "日落", "--build", "preview", "--share-ticket", "--hd-image", Self.sample, "--thumbnail", Self.sample, "--dry-run", "--json",
            ]))
        #expect(card["kind"] == "miniProgram" && card["scene"] == "session")
        #expect(card["userName"] == "gh_d43f693ca31f" && card["path"] == "pages/photo?id=42" && card["webpageUrl"] == "https://example.com/p/42")
        #expect(card["miniProgramType"] == 2 && card["withShareTicket"] == .bool(true) && card["title"] == "日落")
        let checked = try #require(card["limitsChecked"]?.arrayValue).compactMap(\.stringValue)
        #expect(
            checked.contains("WXMiniProgramObject.hdImageData: at most 131072 bytes") && checked.contains("WXMediaMessage.title: at most 512 bytes"),
            "\(checked)")
        let hd = try #require(card["hdImageBytes"]?.intValue)
        let thumbnail = try #require(card["thumbBytes"]?.intValue)
        #expect(hd > 1_000 && hd <= 128 * 1024, "\(hd)")
        #expect(thumbnail > 100 && thumbnail <= 32 * 1024, "\(thumbnail)")
    }

    @Test("refusals before any hand-off, each naming what is wrong: Moments takes no mini program, a missing singer, a file over 10 MB")
    func refusals() async throws {
        let moments = try await run(["share", "--to", "wechat/timeline", "--mini-program", "gh_1", "--link", "https://example.com/", "--dry-run"])
        #expect(moments.status == 1)
        #expect(
            moments.standardError
                == "error: the content cannot be shared here: a mini program message cannot be shared to timeline: WeChat takes a mini program message (WXMiniProgramObject) only in a chat\n"
        )
        #expect(!moments.standardOutput.contains("would hand"))

        let singer = try await run([
            "share", "--to", "wechat/session", "--music-video", "https://m.example.com/1", "--music-data", "https://cdn.example.com/1.mp3", "--dry-run",
        ])
        #expect(singer.status == 1)
        #expect(singer.standardError.contains("WXMusicVideoObject.singerName is required"), "\(singer.standardError)")

        let large = try Self.temporary("big.bin", [UInt8](repeating: 1, count: 10 * 1024 * 1024 + 1))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: large).deletingLastPathComponent().path) }
        let file = try await run(["share", "--to", "wechat/session", "--file", large, "--dry-run"])
        #expect(file.status == 1)
        #expect(file.standardError.contains("WXFileObject.fileData is 10485761 bytes; at most 10485760 fit"), "\(file.standardError)")
        let fits = try Self.temporary("fits.bin", [UInt8](repeating: 1, count: 10 * 1024 * 1024))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: fits).deletingLastPathComponent().path) }
        let handed = try handOff(await run(["share", "--to", "wechat/favorite", "--file", fits, "--dry-run", "--json"]))
        #expect(handed["fileBytes"] == 10_485_760 && handed["fileExtension"] == "bin" && handed["title"] == "fits.bin" && handed["scene"] == "favorite")

        let mixed = try await run(["share", "--to", "wechat/session", "--file", fits, "--text", "hi", "--dry-run"])
        #expect(mixed.status == 1 && mixed.standardError.contains("goes alone"))
        let elsewhere = try await run(["share", "--to", "weibo/timeline", "--music", "https://m.example.com/1", "--dry-run"])
        #expect(elsewhere.status == 1 && elsewhere.standardError.contains("go to wechat/... or qq/... targets"))
    }

    @Test("a sticker's thumbnail is made from the GIF's first frame; music, music video and video link cards carry their URLs")
    func cards() async throws {
        let gif = try GIFWriter.encode(
            width: 64, height: 64, palette: [(255, 0, 0), (0, 0, 255)],
            frames: [
                .init(width: 64, height: 64, indices: [UInt8](repeating: 0, count: 4096)),
                .init(width: 64, height: 64, indices: [UInt8](repeating: 1, count: 4096)),
            ])
        let path = try Self.temporary("wave.gif", gif)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let sticker = try handOff(await run(["share", "--to", "wechat/session", "--sticker", path, "--dry-run", "--json"]))
        #expect(sticker["kind"] == "emoticon" && sticker["emoticonBytes"] == .number(Double(gif.count)))
        let thumbnail = try #require(sticker["thumbBytes"]?.intValue)
        #expect(thumbnail > 0 && thumbnail <= 32 * 1024)
        let gifToMoments = try await run(["share", "--to", "wechat/timeline", "--sticker", path, "--dry-run"])
        #expect(gifToMoments.standardError.contains("WeChat takes a sticker message (WXEmoticonObject) only in a chat"), "\(gifToMoments.standardError)")

        let music = try handOff(
            await run([
                "share", "--to", "wechat/timeline", "--music", "https://m.example.com/1", "--music-data", "https://cdn.example.com/1.mp3", "--title", "Song",
                "--dry-run", "--json",
            ]))
        #expect(music["kind"] == "music" && music["musicUrl"] == "https://m.example.com/1" && music["musicDataUrl"] == "https://cdn.example.com/1.mp3")
        let song = try handOff(
            await run([
                "share", "--to", "wechat/timeline", "--music-video", "https://m.example.com/1", "--music-data", "https://cdn.example.com/1.mp3",
                "--singer", "歌手", "--duration", "215.25", "--dry-run", "--json",
            ]))
        #expect(song["kind"] == "musicVideo" && song["singerName"] == "歌手" && song["durationMilliseconds"] == 215_250)
        let video = try handOff(await run(["share", "--to", "wechat/favorite", "--video-url", "https://v.example.com/9", "--dry-run", "--json"]))
        #expect(video["kind"] == "video" && video["videoUrl"] == "https://v.example.com/9")
        let notWeb = try await run(["share", "--to", "wechat/session", "--video-url", "file:///etc/passwd", "--dry-run"])
        #expect(notWeb.status == 1 && notWeb.standardError.contains("--video-url needs an http(s) URL"))
    }
}
