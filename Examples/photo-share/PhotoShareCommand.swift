// photo-share: share photos to Weibo, WeChat or WeCom from the command line.
// Any failure prints one line starting with "error:" and exits with status 1;
// an unknown outcome exits with status 3.

import ExampleSupport
import Foundation
import ImageCodecs
import QQShare
import ServiceKit
import ShareKit
import ShareMedia
import WeChatShare
import WeiboShare

@main
struct PhotoShareCommand {
    static func main() async {
        await runCommandLineTool { arguments in try await run(try Arguments(arguments)) }
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let log: any ServiceLogHandler = arguments.verbose ? StandardErrorLog() : SilentServiceLog()
        let recorder = DryRunRecorder(printsLines: !arguments.json)
        let transport: any HTTPTransport = arguments.dryRun ? DryRunTransport(recorder: recorder) : CurlTransport()
        let client = ServiceClient(transport: transport, log: log)
        // Credentials live in memory for this run: read from --credentials
        // (never written back) and from the environment; a dry run fills the gaps with placeholders.
        let credentials = InMemoryCredentialStore()
        let file = arguments.credentialsFile.map { FileCredentialStore(path: $0) }
        for (provider, variable) in [(WeiboProvider.id, "PHOTODECK_WEIBO_TOKEN"), (WeChatOfficialAccountProvider.id, "PHOTODECK_WECHAT_TOKEN")] {
            if let token = environment[variable], !token.isEmpty {
                await credentials.save(Credential(provider: provider, account: "environment", accessToken: token))
            } else if let stored = try await file?.credential(for: provider, account: nil) {
                await credentials.save(stored)
            } else if arguments.dryRun {
                await credentials.save(Credential(provider: provider, account: "dry-run", accessToken: "dry-run-token"))
            }
        }
        let center = ShareCenter(credentials: credentials, adapter: .media)
        let bridge: (any WeChatBridge)? = arguments.dryRun ? DryRunWeChatBridge(recorder: recorder, platform: arguments.platform) : nil
        let qqBridge: (any QQBridge)? = arguments.dryRun ? DryRunQQBridge(recorder: recorder, platform: arguments.platform) : nil
        let registered = providers(
            environment: environment, apiBase: arguments.apiBase, client: client, bridges: (bridge, qqBridge), dryRun: arguments.dryRun)
        for provider in registered {
            await center.register(provider)
        }

        // Files are what their bytes say, not where they were put: a video among the photos is shared as
        // a video (as --video does); anything else is named, with what to use for it.
        var images: [ShareImage] = []
        var video = arguments.video
        for path in arguments.images {
            switch try await InputKind.of(fileAt: path) {
            case .image:
                images.append(.encoded(try readInputFile(path)))
            case .video:
                guard video == nil else { throw CLIError("\(path.oneLine) is a video too: a share carries one video") }
                if !arguments.json { Console.error("note: \(path.oneLine) is a video: it is shared as one (as --video does)") }
                video = path
            case .other(let what, let advice):
                throw CLIError("\(path.oneLine) is \(what), not a photo or a video: \(advice)")
            }
        }
        var link = arguments.link
        // A plain link card's picture (not an app message's, which makes its own card): fitted to each destination's cap.
        if arguments.appMessage.kind == nil, let thumbnail = arguments.appMessage.thumbnail {
            guard link != nil else { throw CLIError("--thumbnail goes with --link URL (the card's picture) or an app message") }
            link?.thumbnail = .encoded(try readInputFile(thumbnail, limit: 64 << 20))
        }
        var content = ShareContent(text: arguments.text, images: images, link: link, video: video.map { ShareVideo(path: $0) })
        if arguments.metadata.keepsEverything { content.metadata = .keepAll }
        if arguments.metadata.keepsLocation { content.metadata.keepsLocation = true }
        if arguments.metadata.dropsGainMap { content.metadata.keepsGainMap = false }

        switch arguments.command {
        case .targets:
            guard !content.isEmpty else {
                // No content: every target there is, and what each needs here.
                for entry in TargetDescriptions.all {
                    let parts = entry.name.split(separator: "/").map(String.init)
                    let target = await center.target(provider: ProviderID(parts[0]), destination: ShareDestination(parts[1]))
                    let note =
                        switch target {
                        case nil: " [not set up: \(entry.setup)]"
                        case let target? where !target.availability.isAvailable: " [\(Self.unavailability(target.availability))]"
                        case _?: ""
                        }
                    Console.line("\(entry.name)\t\(entry.description)\(note)")
                }
                return 0
            }
            let targets = await center.targets(for: content)
            if targets.isEmpty { Console.line("no registered provider can take this content") }
            for target in targets {
                let note = target.availability.isAvailable ? "" : " [\(Self.unavailability(target.availability))]"
                Console.line("\(target)\t\(TargetDescriptions.text(for: target))\(note)")
            }
            return 0
        case .share(let provider, let destination) where arguments.appMessage.kind != nil:
            // An app message kind: straight to the WeChat or QQ provider, which checks it and hands it over.
            let outcome: ShareOutcome
            let displayName: String
            if provider == WeChatAppProvider.id, let wechat = registered.compactMap({ $0 as? WeChatAppProvider }).first,
                let message = try await arguments.appMessage.message(link: arguments.link, platform: arguments.platform)
            {
                outcome = try await wechat.send(message, to: destination)
                displayName = wechat.displayName
            } else if provider == QQProvider.id, let qq = registered.compactMap({ $0 as? QQProvider }).first,
                let message = try await arguments.appMessage.qqMessage(link: arguments.link, platform: arguments.platform)
            {
                outcome = try await qq.send(message, to: destination)
                displayName = qq.displayName
            } else {
                throw CLIError("--mini-program, --music, --music-video, --video-url, --file and --sticker go to wechat/... or qq/... targets")
            }
            if arguments.dryRun {
                let target = ShareTarget(provider: provider, destination: destination, displayName: displayName)
                if arguments.json { Console.json(Data(recorder.document(target: target).encoded())) } else { Console.line("dry run: nothing was sent") }
                return 0
            }
            return Self.report(outcome)
        case .share(let provider, let destination):
            guard let target = await center.target(provider: provider, destination: destination) else {
                throw CLIError("no configured provider offers \(provider)/\(destination); `photo-share targets` lists them")
            }
            let operation = await center.startShare(content, to: target)
            var shownPercent = -10
            for await event in operation.events {
                switch event {
                case .finished where arguments.verbose: Console.error("finished sharing to \(target)")
                case .converting(let fraction) where arguments.verbose:
                    // Every tenth, on standard error: the JSON of --json stays one document.
                    let percent = Int(fraction * 100)
                    if percent >= shownPercent + 10 {
                        shownPercent = percent
                        Console.error("converting the video: \(percent)%")
                    }
                default: break
                }
            }
            let outcome = try await operation.outcome()
            if arguments.dryRun {
                // What each image carries no more, and the video the destination would receive,
                // from the same adaptation the share went through.
                let prepared = try await Self.prepared(content, target: target, providers: registered)
                let removed = prepared?.images.map { $0.removedMetadata.sorted() } ?? []
                // An HDR photo's gain map, as the image sent carries it.
                let gainMaps: [GainMap?] =
                    prepared?.images.map { image in
                        if case .present(let found) = UltraHDRJPEG.find(in: image.bytes) { return found.gainMap }
                        return nil
                    } ?? []
                if arguments.json {
                    var document = recorder.document(target: target)
                    if case .object(var fields) = document {
                        fields["images"] = .array(
                            zip(removed, gainMaps).map { kinds, gainMap in
                                [
                                    "removedMetadata": .array(kinds.map { .string($0.description) }),
                                    "gainMap": gainMap.map { map in
                                        .object([
                                            "width": .number(Double(map.size?.width ?? 0)), "height": .number(Double(map.size?.height ?? 0)),
                                            "headroom": .number(map.parameters.alternateHeadroom),
                                        ])
                                    } ?? .null,
                                ]
                            })
                        if let video = prepared?.video { fields["video"] = Self.describe(video) }
                        document = .object(fields)
                    }
                    Console.json(Data(document.encoded()))
                } else {
                    for (index, kinds) in removed.enumerated() where !kinds.isEmpty {
                        Console.line("image \(index + 1): removed \(kinds.map(\.description).joined(separator: ", "))")
                    }
                    for (index, gainMap) in gainMaps.enumerated() {
                        guard let gainMap, let size = gainMap.size else { continue }
                        Console.line(
                            "image \(index + 1): HDR gain map \(size) kept (Ultra HDR, \(String(format: "%.2f", gainMap.parameters.alternateHeadroom)) stops)")
                    }
                    if let video = prepared?.video { Console.line(Self.line(for: video)) }
                    Console.line("dry run: nothing was sent")
                }
                return 0
            }
            return Self.report(outcome)
        }
    }

    /// Prints the outcome; the exit status: 0 posted, 3 outcome unknown.
    static func report(_ outcome: ShareOutcome) -> Int32 {
        switch outcome {
        case .posted(let receipt):
            Console.line("posted\(receipt.postID.map { " \($0)" } ?? "")\(receipt.url.map { " \($0)" } ?? "")")
            return 0
        case .outcomeUnknown(let reason):
            Console.line("outcome unknown: \(reason)")
            return 3
        }
    }

    /// `content` as the center adapts it for `target` (`nil` when no provider offers it).
    static func prepared(_ content: ShareContent, target: ShareTarget, providers: [any ShareProvider]) async throws -> PreparedContent? {
        guard let provider = providers.first(where: { $0.id == target.provider }),
            let constraints = provider.constraints(for: target.destination)
        else { return nil }
        return try await MediaContentAdapter().prepare(content, for: constraints)
    }

    /// The video a destination receives, for `--json`.
    static func describe(_ video: PreparedContent.Video) -> JSONValue {
        [
            "bytes": .number(Double(video.byteCount)), "width": .number(Double(video.size.width)), "height": .number(Double(video.size.height)),
            "seconds": .number(video.duration?.inSeconds ?? 0),
            "codecs": .array(video.codecs.map { .string($0) }), "transcoded": .bool(video.isTranscoded),
            "removedMetadata": .array(video.removedMetadata.sorted().map { .string($0.description) }),
            "removedTags": .array(video.removedTags.map { .string($0) }), "removedTracks": .array(video.removedStreams.map { .string($0) }),
        ]
    }

    /// `video: 320x240 h264/aac 2.0 s, 101 KB, remuxed; removed location (location, ...)`.
    static func line(for video: PreparedContent.Video) -> String {
        let seconds = video.duration?.inSeconds ?? 0
        var line = "video: \(video.size) \(video.codecs.joined(separator: "/")) \(String(format: "%.1f", seconds)) s, \(video.byteCount) bytes, "
        line += video.isTranscoded ? "transcoded" : "remuxed"
        if !video.removedMetadata.isEmpty {
            line += "; removed \(video.removedMetadata.sorted().map(\.description).joined(separator: ", ")) (\(video.removedTags.joined(separator: ", ")))"
        }
        if !video.removedStreams.isEmpty { line += "; left out \(video.removedStreams.joined(separator: ", "))" }
        return line.oneLine
    }

    /// "sign-in needed", "no network", "not set up".
    static func unavailability(_ availability: ProviderAvailability) -> String {
        [
            availability.isConfigured ? nil : "not set up", availability.isAuthorized ? nil : "sign-in needed",
            availability.isReachable ? nil : "not reachable",
        ].compactMap { $0 }.joined(separator: ", ")
    }

    /// Every provider this environment configures (all of them in a dry run).
    static func providers(
        environment: [String: String], apiBase: URL?, client: ServiceClient, bridges: (wechat: (any WeChatBridge)?, qq: (any QQBridge)?), dryRun: Bool
    ) -> [any ShareProvider] {
        var providers: [any ShareProvider] = []
        let weibo = WeiboEnvironment(environment)
        if let weiboKey = weibo.appKey ?? (dryRun ? "dry-run" : nil) {
            providers.append(
                WeiboProvider(
                    configuration: .init(
                        appKey: weiboKey, safeDomainLink: weibo.safeDomainLink, apiBase: apiBase ?? WeiboProvider.defaultAPIBase,
                        endUserIP: weibo.endUserIP),
                    client: client))
        }
        // The WeChat app: reachable only through a host app's bridge (a dry run prints the hand-off).
        providers.append(WeChatAppProvider(bridge: bridges.wechat))
        // The QQ app, likewise.
        providers.append(QQProvider(bridge: bridges.qq))
        let appID = environment["PHOTODECK_WECHAT_APP_ID"] ?? (dryRun ? "dry-run" : nil)
        if let appID {
            let recipient = environment["PHOTODECK_WECHAT_TO"] ?? (dryRun ? "dry-run-follower" : nil)
            let audience: WeChatOfficialAccountProvider.BroadcastAudience? =
                switch environment["PHOTODECK_WECHAT_BROADCAST"] {
                case "all"?: .allFollowers
                case let value? where value.hasPrefix("tag:"): Int(value.dropFirst(4)).map { .tag($0) }
                default: dryRun ? .allFollowers : nil
                }
            let kind: WeChatOfficialAccountProvider.AccountKind? =
                switch environment["PHOTODECK_WECHAT_ACCOUNT"] {
                case "subscription"?: .subscription
                case "service"?: .service
                default: nil
                }
            providers.append(
                WeChatOfficialAccountProvider(
                    configuration: .init(
                        appID: appID, messageRecipient: recipient, broadcastAudience: audience, accountKind: kind,
                        apiBase: apiBase ?? WeChatOfficialAccountProvider.defaultAPIBase),
                    client: client))
        }
        let key = environment["PHOTODECK_WECOM_KEY"] ?? (dryRun ? "dry-run-key" : nil)
        if let key {
            providers.append(
                WeComWebhookProvider(configuration: .init(webhookKey: key, apiBase: apiBase ?? WeComWebhookProvider.defaultAPIBase), client: client))
        }
        return providers
    }
}
