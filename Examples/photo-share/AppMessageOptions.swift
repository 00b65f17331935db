import ExampleSupport
import Foundation
import ImageCodecs
import QQShare
import ShareKit
import ShareMedia
import WeChatShare

/// The message kinds an app hands to WeChat or QQ, on the command line:
/// `--mini-program`, `--music`, `--music-video`, `--video-url`, `--file`,
/// `--sticker`, with the card's `--title`, `--summary` and `--thumbnail`.
struct AppMessageOptions {
    static let usage = """
        App messages, to wechat/session, wechat/timeline, wechat/favorite and to qq/session, qq/timeline (Qzone),
        qq/favorites, qq/dataline (each kind's destinations and limits are checked before the hand-off, and a
        refusal names the kind and the destination):
          --mini-program ID[:PATH]      a mini program card (WeChat: its gh_ id; QQ: its AppId and a PATH);
                                        --link URL is the page older clients open (required);
                                        --build release|test|preview, --share-ticket (WeChat),
                                        --hd-image FILE (WeChat's card picture, re-encoded under 128 KB)
          --music URL [--music-data URL]                a music (QQ: audio) card: the song's page, its stream
          --music-video URL --music-data URL --singer NAME [--lyrics FILE] [--duration SECONDS]
                                        a music video for WeChat's player (WeChat only)
          --video-url URL               a video by its web page
          --file PATH                   a file (WeChat: 10 MB, QQ: 5 MB to qq/dataline)
          --sticker GIF                 an animated sticker, its thumbnail from the first frame (WeChat only)
          --title T, --summary S        the card's title and description
          --thumbnail IMAGE             the card's thumbnail (made under each card's cap; with a plain --link too)
        """

    /// Which kind, with its own values.
    enum Kind {
        case miniProgram(userName: String, path: String?)
        case music(URL)
        case musicVideo(URL)
        case videoURL(URL)
        case file(String)
        case sticker(String)
    }

    var kind: Kind?
    var build = WeChatMiniProgram.Build.release
    var shareTicket = false
    var hdImage: String?
    var musicData: URL?
    var singer: String?
    var lyrics: String?
    var duration: Duration?
    var thumbnail: String?

    /// Takes `argument` (and its value) if it is one of these options; `false` otherwise.
    mutating func take(_ argument: String, value: () throws(CLIError) -> String) throws(CLIError) -> Bool {
        func setKind(_ new: Kind) throws(CLIError) {
            guard kind == nil else { throw CLIError("one WeChat message kind at a time (\(argument) came after another)") }
            kind = new
        }
        switch argument {
        case "--mini-program":
            let raw = try value()
            let parts = raw.split(separator: ":", maxSplits: 1).map(String.init)
            guard let userName = parts.first, !userName.isEmpty else { throw CLIError("--mini-program takes GH_ID[:PATH], got '\(raw.oneLine)'") }
            try setKind(.miniProgram(userName: userName, path: parts.count == 2 ? parts[1] : nil))
        case "--build":
            let raw = try value()
            guard let chosen = ["release": WeChatMiniProgram.Build.release, "test": .test, "preview": .preview][raw] else {
                throw CLIError("--build takes release, test or preview, got '\(raw.oneLine)'")
            }
            build = chosen
        case "--share-ticket": shareTicket = true
        case "--hd-image": hdImage = try value()
        case "--music": try setKind(.music(try Self.webURL(value(), flag: argument)))
        case "--music-video": try setKind(.musicVideo(try Self.webURL(value(), flag: argument)))
        case "--music-data": musicData = try Self.webURL(value(), flag: argument)
        case "--singer": singer = try value()
        case "--lyrics": lyrics = try value()
        case "--duration":
            let raw = try value()
            guard let seconds = Double(raw), seconds.isFinite, seconds >= 0, seconds <= 2_000_000 else {
                throw CLIError("--duration takes seconds (0 to 2000000), got '\(raw.oneLine)'")
            }
            duration = .milliseconds(Int64((seconds * 1000).rounded()))
        case "--video-url": try setKind(.videoURL(try Self.webURL(value(), flag: argument)))
        case "--file": try setKind(.file(try value()))
        case "--sticker": try setKind(.sticker(try value()))
        case "--thumbnail": thumbnail = try value()
        default: return false
        }
        return true
    }

    static func webURL(_ raw: String, flag: String) throws(CLIError) -> URL {
        guard let url = URL(string: raw), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw CLIError("\(flag) needs an http(s) URL, got '\(raw.oneLine)'")
        }
        return url
    }

    /// The message, its files read (each with a bound a little over its
    /// limit, so a file too large is reported by the check, not read whole)
    /// and its pictures made to fit.
    func message(link: ShareLink?, platform: AppPlatform) async throws -> WeChatSendRequest.Message? {
        guard let kind else { return nil }
        let rules = WeChatRules.on(platform)
        // A little over each cap (a character is up to 4 bytes of UTF-8), so one too large is reported by the check, not read whole.
        func bound(_ limit: FieldLimit?) -> Int { min((limit?.limit ?? 64 << 20) * (limit?.unit == .characters ? 4 : 1), 64 << 20) + 1 }
        var card = WeChatCard(title: link?.title, description: link?.summary)
        if let thumbnail { card.thumbnail = try await Self.fitted(readInputFile(thumbnail, limit: 64 << 20), as: .thumbnail, on: platform) }
        switch kind {
        case .miniProgram(let userName, let path):
            guard let link else { throw CLIError("--mini-program needs --link URL: the page WeChat opens where mini programs do not") }
            var image: [UInt8]?
            if let hdImage { image = try await Self.fitted(readInputFile(hdImage, limit: 64 << 20), as: .miniProgramImage, on: platform) }
            return .miniProgram(
                WeChatMiniProgram(
                    userName: userName, path: path, webpageURL: link.url, build: build, withShareTicket: shareTicket, hdImage: image, card: card))
        case .music(let url):
            return .music(WeChatMusic(url: url, dataURL: musicData, card: card))
        case .musicVideo(let url):
            guard let musicData else { throw CLIError("--music-video needs --music-data URL (the stream WeChat's player plays)") }
            let lyric = try lyrics.map { path throws(CLIError) in
                String(decoding: try readInputFile(path, limit: bound(rules.musicVideo[3])), as: UTF8.self)
            }
            return .musicVideo(
                WeChatMusicVideo(musicURL: url, musicDataURL: musicData, singerName: singer ?? "", duration: duration, lyric: lyric, card: card))
        case .videoURL(let url):
            return .video(WeChatVideoLink(url: url, card: card))
        case .file(let path):
            let data = try readInputFile(path, limit: bound(rules.file.first))
            let name = URL(fileURLWithPath: path).lastPathComponent
            if card.title == nil { card.title = name }
            return .file(WeChatFile(data: data, fileExtension: URL(fileURLWithPath: path).pathExtension, card: card))
        case .sticker(let path):
            let data = try readInputFile(path, limit: bound(rules.emoticon))
            if card.thumbnail == nil { card.thumbnail = try await Self.fitted(data, as: .thumbnail, on: platform) }
            return .emoticon(WeChatEmoticon(data: data, card: card))
        }
    }

    /// The same options as a QQ message (`nil` without a kind).
    func qqMessage(link: ShareLink?, platform: AppPlatform) async throws -> QQSendRequest.Message? {
        guard let kind else { return nil }
        var card = QQCard(title: link?.title, summary: link?.summary)
        if let thumbnail { card.previewImage = try await Self.fitted(readInputFile(thumbnail, limit: 64 << 20), as: .thumbnail, on: platform) }
        switch kind {
        case .miniProgram(let appID, let path):
            guard let link else { throw CLIError("--mini-program needs --link URL: the page QQ opens where mini programs do not") }
            guard let path else { throw CLIError("a QQ mini program needs its page: --mini-program APPID:PATH") }
            let builds: [WeChatMiniProgram.Build: QQSendRequest.MiniProgramBuild] = [.release: .online, .test: .test, .preview: .preview]
            return .miniProgram(appID: appID, path: path, webpageURL: link.url, build: builds[build] ?? .online, card: card)
        case .music(let url):
            return .audio(url: url, streamURL: musicData, card: card)
        case .videoURL(let url):
            return .videoLink(url: url, streamURL: nil, card: card)
        case .file(let path):
            let data = try readInputFile(path, limit: QQSendRequest.Limits.dataBytes + 1)
            return .file(data: data, fileName: URL(fileURLWithPath: path).lastPathComponent, card: card)
        case .musicVideo: throw CLIError("--music-video is WeChat's (its music player); QQ takes --music")
        case .sticker: throw CLIError("--sticker is WeChat's; QQ's SDK takes no stickers from other apps")
        }
    }

    /// What a picture is made into.
    enum Fitting {
        /// A card's thumbnail: a JPEG under 32 KB, 240x240 at most.
        case thumbnail
        /// A mini program's HD picture: a JPEG under 128 KB.
        case miniProgramImage
    }

    /// `bytes` (any image ImageCodecs reads) made to fit, by the adapter shares use.
    static func fitted(_ bytes: [UInt8], as fitting: Fitting, on platform: AppPlatform) async throws -> [UInt8] {
        let rules: ShareConstraints
        let wechat = WeChatRules.on(platform)
        switch fitting {
        case .thumbnail:
            rules = ShareConstraints(
                text: nil, images: .init(maxCount: 1, maxBytes: wechat.image.limit ?? 10 << 20),
                thumbnail: WeChatSendRequest.constraints(for: .session, on: platform).thumbnail)
        case .miniProgramImage:
            // hdImageData on iOS, the message's thumbData on Android: 128 KB on both.
            let cap = wechat.miniProgram.last?.limit ?? 128 * 1_024
            rules = ShareConstraints(text: nil, images: .init(maxCount: 1, maxBytes: cap, formats: [.jpeg], maxDimension: 1_000))
        }
        let prepared = try await MediaContentAdapter().prepare(ShareContent(images: [.encoded(bytes)]), for: rules)
        switch fitting {
        case .thumbnail:
            guard let thumbnail = prepared.thumbnail?.bytes else { throw CLIError("no thumbnail could be made from the picture") }
            return thumbnail
        case .miniProgramImage:
            guard let image = prepared.images.first?.bytes else { throw CLIError("the mini program's picture could not be made") }
            return image
        }
    }
}
