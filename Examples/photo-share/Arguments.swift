import ExampleSupport
import Foundation
import ShareKit

/// The parsed command line of photo-share.
struct Arguments {
    static let usage = """
        usage: photo-share targets [--dry-run] [--text TEXT] [--link URL] [--video FILE] [IMAGE...]
               photo-share share --to PROVIDER/DESTINATION [--text TEXT] [--link URL [--title T] [--summary S]] [--video FILE]
                                 [--keep-location] [--keep-metadata] [--drop-gain-map] [--dry-run [--json]] [--verbose]
                                 [--api-base URL] [--credentials FILE] [IMAGE...]
               photo-share share --to wechat/SCENE|qq/DESTINATION (--mini-program ID[:PATH] | --music URL
                                 | --music-video URL | --video-url URL | --file PATH | --sticker GIF) [options below]
                                 [--dry-run [--json] [--platform ios|android]]

        targets: weibo/timeline, wechat/session, wechat/timeline, wechat/favorite (the WeChat app: needs an
        app's WeChat bridge, so only --dry-run works here), qq/session, qq/timeline, qq/favorites, qq/dataline
        (the QQ app, likewise), wechat-oa/message, wechat-oa/article, wechat-oa/broadcast, wecom/session;
        `photo-share targets` says where each goes

        Secrets come from the environment, never from the command line:
          PHOTODECK_WEIBO_TOKEN      a Weibo access token (else from --credentials FILE, a ShareKit
                                     credential file, which is only read)
          PHOTODECK_WEIBO_APP_KEY    the Weibo app key        PHOTODECK_WEIBO_LINK   a link on the app's safe domain
          PHOTODECK_WEIBO_RIP        the end user's IP address, sent as rip
          PHOTODECK_WECHAT_TOKEN     a WeChat Official Account access token
          PHOTODECK_WECHAT_APP_ID    its app id               PHOTODECK_WECHAT_TO    the follower (openid) for wechat-oa/message
          PHOTODECK_WECHAT_BROADCAST all, or tag:N, for wechat-oa/broadcast
          PHOTODECK_WECHAT_ACCOUNT   subscription or service: applies its broadcast quota (1 a day, 4 a month)
          PHOTODECK_WECOM_KEY        a WeCom group robot's webhook key

        --video FILE shares a video (MP4, MOV...): remuxed when the destination takes its codecs, size and
        bytes, else transcoded to H.264/AAC MP4 to fit (wecom/session takes one, up to 20 MB, as a file).

        Photos and videos leave without their GPS position, serial numbers, owner's name, XMP and IPTC; their
        capture date, camera and colour profile stay, and so does an HDR photo's gain map (an iPhone HEIC
        sent where only JPEG goes arrives as Ultra HDR). --keep-location keeps the position too;
        --keep-metadata sends every byte of metadata as it is; --drop-gain-map sends HDR photos flat.

        --dry-run prepares the content and prints every request that would be sent (URLs with secrets
        redacted, bodies summarised), or the request the WeChat app would be handed, without touching
        the network; every provider is registered, with placeholders for keys the environment does not
        set. --json prints one JSON document instead. --platform ios|android (default ios) checks WeChat and QQ
        messages against that platform's SDK (Android counts text in UTF-16 units, hands data over 1 MB as a
        file, needs a mini program's thumbnail; iOS has no video file message). Exit status: 0 posted (or dry run), 1 failed,
        3 outcome unknown (do not share again blindly).

        """ + AppMessageOptions.usage

    enum Command {
        case targets
        case share(ProviderID, ShareDestination)
    }

    var command: Command = .targets
    var text: String?
    var link: ShareLink?
    var images: [String] = []
    var video: String?
    var dryRun = false
    /// Whose SDK rules the dry run's WeChat and QQ bridges check against (`--platform`).
    var platform: AppPlatform = .iOS
    var json = false
    var verbose = false
    var apiBase: URL?
    var credentialsFile: String?
    /// An app message kind for WeChat or QQ (`--mini-program`, `--music`...), if one was asked for.
    var appMessage = AppMessageOptions()
    /// What metadata the images may carry.
    var metadata = MetadataPolicyChoice()

    /// `--keep-location`, `--keep-metadata` and `--drop-gain-map`.
    struct MetadataPolicyChoice {
        var keepsLocation = false
        var keepsEverything = false
        var dropsGainMap = false
    }

    init(_ arguments: [String]) throws(CLIError) {
        var iterator = ArgumentReader(arguments)
        guard let verb = iterator.next() else { throw CLIError(Self.usage, isUsage: true) }
        func value(_ flag: String) throws(CLIError) -> String { try iterator.value(for: flag) }
        var to: String?
        var linkURL: URL?
        var title: String?
        var summary: String?
        while let argument = iterator.next() {
            switch argument {
            case "--to": to = try value(argument)
            case "--text": text = try value(argument)
            case "--link":
                let raw = try value(argument)
                guard let url = URL(string: raw), url.scheme == "http" || url.scheme == "https" else {
                    throw CLIError("--link needs an http(s) URL, got '\(raw)'")
                }
                linkURL = url
            case "--title": title = try value(argument)
            case "--summary": summary = try value(argument)
            case "--video": video = try value(argument)
            case "--dry-run": dryRun = true
            case "--platform":
                let raw = try value(argument)
                guard let chosen = AppPlatform(rawValue: raw.lowercased()) else { throw CLIError("--platform takes ios or android, got '\(raw)'") }
                platform = chosen
            case "--json": json = true
            case "--verbose", "-v": verbose = true
            case "--api-base":
                let raw = try value(argument)
                guard let url = URL(string: raw), url.host != nil else { throw CLIError("--api-base needs a URL, got '\(raw)'") }
                apiBase = url
            case "--credentials": credentialsFile = try value(argument)
            case "--keep-location": metadata.keepsLocation = true
            case "--keep-metadata": metadata.keepsEverything = true
            case "--drop-gain-map": metadata.dropsGainMap = true
            case "--help", "-h": throw CLIError(Self.usage, isUsage: true)
            case _ where try appMessage.take(argument, value: { () throws(CLIError) in try value(argument) }): break
            default:
                if argument.hasPrefix("-") { throw CLIError("unknown option \(argument)\n\(Self.usage)") }
                images.append(argument)
            }
        }
        if let linkURL { link = ShareLink(url: linkURL, title: title, summary: summary) }
        if json && !dryRun { throw CLIError("--json goes with --dry-run") }
        if arguments.contains("--platform") && !dryRun {
            throw CLIError("--platform goes with --dry-run: a real hand-off is the host app's bridge, which says its own platform")
        }
        if appMessage.kind != nil && (!images.isEmpty || video != nil || text != nil) {
            throw CLIError("an app message kind (--mini-program, --music, --file...) goes alone: no --text, --video or images")
        }
        switch verb {
        case "targets": command = .targets
        case "share":
            guard let to else { throw CLIError("share needs --to PROVIDER/DESTINATION") }
            let parts = to.split(separator: "/").map(String.init)
            guard parts.count == 2 else { throw CLIError("--to takes PROVIDER/DESTINATION (for example weibo/timeline), got '\(to)'") }
            // "favorite" is the WeChat SDK's name for the favorites destination.
            command = .share(ProviderID(parts[0]), ShareDestination(parts[1] == "favorite" ? "favorites" : parts[1]))
        case "--help", "-h", "help": throw CLIError(Self.usage, isUsage: true)
        default: throw CLIError("unknown command '\(verb)'\n\(Self.usage)")
        }
    }
}
