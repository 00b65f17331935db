import Foundation
import ImageCodecs
import ProviderTestSupport
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing
import WeChatShare
import WeChatShareTesting

@Suite("WeChat app hand-off: the request, its limits to the byte, and honest outcomes")
struct WeChatAppTests {
    typealias Limits = WeChatTestLimits

    static func image(_ bytes: Int) -> PreparedContent.Image {
        PreparedContent.Image(bytes: [UInt8](repeating: 7, count: bytes), format: .jpeg, size: PixelSize(width: 10, height: 10))
    }

    static func link(url: String = "https://example.com/p", title: String? = "Title", summary: String? = nil) -> ShareLink {
        ShareLink(url: URL(string: url)!, title: title, summary: summary)
    }

    /// `count` bytes of URL: the scheme and host, then a long path.
    static func url(bytes count: Int) -> String {
        let head = "https://example.com/"
        return head + String(repeating: "a", count: count - head.utf8.count)
    }

    @Test(
        "every limit holds at the byte: the limit passes, one byte more fails",
        arguments: ["title", "description", "thumbnail", "image", "url", "text"])
    func byteBoundaries(_ field: String) throws {
        func content(_ extra: Int) -> PreparedContent {
            switch field {
            case "title":
                // 3-byte characters up to the limit, then ASCII to land on it exactly.
                let title = String(repeating: "长", count: (Limits.titleBytes - 2) / 3) + String(repeating: "x", count: (Limits.titleBytes - 2) % 3 + 2 + extra)
                return PreparedContent(text: nil, images: [], link: Self.link(title: title), thumbnail: nil)
            case "description":
                return PreparedContent(
                    text: nil, images: [], link: Self.link(summary: String(repeating: "d", count: Limits.descriptionBytes + extra)), thumbnail: nil)
            case "thumbnail":
                return PreparedContent(text: nil, images: [], link: Self.link(), thumbnail: Self.image(Limits.thumbnailBytes + extra))
            case "image":
                return PreparedContent(text: nil, images: [Self.image(Limits.imageBytes + extra)], link: nil, thumbnail: Self.image(1000))
            case "url":
                return PreparedContent(text: nil, images: [], link: Self.link(url: Self.url(bytes: Limits.urlBytes + extra)), thumbnail: nil)
            default:
                return PreparedContent(text: String(repeating: "t", count: Limits.textBytes + extra), images: [], link: nil, thumbnail: nil)
            }
        }
        if field == "title" { #expect(content(0).link?.title?.utf8.count == Limits.titleBytes) }
        let fits = try WeChatSendRequest(content: content(0), scene: .session, platform: .iOS)
        #expect(fits.scene == .session)
        let error = #expect(throws: ShareError.self) { try WeChatSendRequest(content: content(1), scene: .session, platform: .iOS) }
        guard case .invalidContent(let violations)? = error, violations.count == 1 else {
            Issue.record("\(field): expected one violation, got \(String(describing: error))")
            return
        }
        switch (field, violations[0]) {
        case ("title", .textTooLong(Limits.titleBytes + 1, Limits.titleBytes)),
            ("description", .textTooLong(Limits.descriptionBytes + 1, Limits.descriptionBytes)),
            ("thumbnail", .thumbnailUnavailable), ("image", .imageTooLarge(0, Limits.imageBytes)), ("url", .urlTooLong(Limits.urlBytes + 1, Limits.urlBytes)),
            ("text", .textTooLong(Limits.textBytes + 1, Limits.textBytes)):
            break
        default: Issue.record("\(field): \(violations[0])")
        }
    }

    @Test("the kinds: text alone, a picture with its thumbnail, a link as a web page card")
    func kinds() throws {
        let text = try WeChatSendRequest(content: PreparedContent(text: "hi", images: [], link: nil, thumbnail: nil), scene: .timeline, platform: .iOS)
        #expect(text.message == .text("hi") && text.kind == "text" && text.scene == .timeline)
        let picture = try WeChatSendRequest(
            content: PreparedContent(text: nil, images: [Self.image(100)], link: nil, thumbnail: Self.image(10)), scene: .favorite, platform: .iOS)
        #expect(picture.message == .image(data: [UInt8](repeating: 7, count: 100), thumbnail: [UInt8](repeating: 7, count: 10)))
        let card = try WeChatSendRequest(
            content: PreparedContent(text: "about it", images: [], link: Self.link(), thumbnail: Self.image(10)), scene: .session, platform: .iOS)
        #expect(card.message == .webpage(url: "https://example.com/p", title: "Title", description: "about it", thumbnail: [UInt8](repeating: 7, count: 10)))
        #expect(throws: ShareError.invalidContent([.textWithImages])) {
            try WeChatSendRequest(
                content: PreparedContent(text: "caption", images: [Self.image(100)], link: nil, thumbnail: nil), scene: .session, platform: .iOS)
        }
        #expect(throws: ShareError.invalidContent([.emptyContent])) {
            try WeChatSendRequest(content: PreparedContent(text: nil, images: [], link: nil, thumbnail: nil), scene: .session, platform: .iOS)
        }
    }

    @Test("a video goes to a chat as a video file (H.264/AAC MP4, a 32 KB first-frame thumbnail); Moments and Favorites take none")
    func videoFile() async throws {
        let bridge = FakeWeChatBridge(answer: .errCode(0, ""))
        let (center, _) = await Self.center(bridge)
        let target = ShareTarget(provider: WeChatAppProvider.id, destination: .session, displayName: "WeChat: session")
        let hevc = try TestVideos.codecSample("hevc.mp4")
        let outcome = try await center.startShare(ShareContent(video: ShareVideo(path: hevc)), to: target).outcome()
        // errCode 0 is how WeChat answers a cancel too: honestly unknown.
        guard case .outcomeUnknown = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let request = try #require(bridge.requests.first)
        guard case .videoFile(let path, let thumbnail?) = request.message else {
            Issue.record("expected a video file, got \(request.kind)")
            return
        }
        #expect(request.kind == "videoFile" && request.scene == .session)
        let thumbnailSize = try ImageInfo(probing: thumbnail).size
        #expect(thumbnail.count <= Limits.thumbnailBytes && thumbnailSize.width == 240)
        // Handed over as H.264 (the HEVC was transcoded), and removed once the share ended.
        #expect(path.hasSuffix(".mp4"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(
            WeChatSendRequest.constraints(for: .timeline, on: .android).videos == nil
                && WeChatSendRequest.constraints(for: .favorite, on: .android).videos == nil)
        #expect(WeChatSendRequest.constraints(for: .session, on: .android).videos?.maxBytes == Limits.videoFileBytes)
        // A video with text: a chat's video file carries none.
        let violations = WeChatSendRequest.constraints(for: .session, on: .android).violations(of: ShareContent(text: "hi", video: ShareVideo(path: hevc)))
        #expect(violations == [.textWithVideo])
    }

    @Test("a web page card's thumbnail is a 240x240 square cropped to the subject; a picture's thumbnail keeps its shape")
    func cardThumbnail() async throws {
        // A face at x 407...461 of a 480x320 photo: a centre square would cut it off.
        let photo = try fileBytes(TestData.packageRoot.appendingPathComponent("Tests/Fixtures/smartcrop/generated/scene05-face.jpg"))
        let bridge = FakeWeChatBridge(answer: .errCode(0, ""))
        let (center, target) = await Self.center(bridge)
        let link = ShareLink(url: URL(string: "https://example.com/p")!, title: "Title", thumbnail: .encoded(photo))
        _ = try? await center.startShare(ShareContent(link: link), to: target).outcome()
        _ = try? await center.startShare(ShareContent(images: [.encoded(photo)]), to: target).outcome()
        let requests = bridge.requests
        try #require(requests.count == 2)
        guard case .webpage(_, _, _, let cardThumbnail?) = requests[0].message, case .image(_, let pictureThumbnail?) = requests[1].message else {
            Issue.record("a card then a picture: \(requests.map(\.kind))")
            return
        }
        let card = try DecodedImage(decoding: cardThumbnail)
        #expect(card.bitmap.size == PixelSize(width: 240, height: 240))
        #expect(cardThumbnail.count <= Limits.thumbnailBytes)
        let expected = try DecodedImage(
            rendering: photo, in: PixelSize(width: 240, height: 240), mode: .fill, options: RenditionOptions(crop: .attention))
        let difference = zip(card.bitmap.pixels, expected.bitmap.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(difference / max(1, card.bitmap.pixels.count) <= 3, "the attention crop, as JPEG")
        #expect(try ImageInfo(probing: pictureThumbnail).size == PixelSize(width: 240, height: 160))
    }

    static func center(_ bridge: FakeWeChatBridge) async -> (ShareCenter, ShareTarget) {
        let center = ShareCenter(adapter: .media)
        await center.register(WeChatAppProvider(bridge: bridge))
        return (center, ShareTarget(provider: WeChatAppProvider.id, destination: .timeline, displayName: "WeChat: timeline"))
    }

    @Test(
        "each errCode has its outcome; 0 is not 'posted' because WeChat reports a cancel as success",
        arguments: [0, -1, -2, -3, -4, -5, 7])
    func errCodes(_ code: Int) async throws {
        let bridge = FakeWeChatBridge(answer: .errCode(code, "message \(code)"))
        let (center, target) = await Self.center(bridge)
        let photo = ShareContent(images: [.encoded(try noiseJPEG(width: 300, height: 200))])
        let operation = await center.startShare(photo, to: target)
        switch code {
        case 0:
            guard case .outcomeUnknown(let reason) = try await operation.outcome() else {
                Issue.record("0 must be outcome unknown")
                return
            }
            #expect(reason.contains("handed to WeChat") && reason.contains("even when the user cancels"))
        case -2: await #expect(throws: ShareError.cancelled) { try await operation.outcome() }
        case -4: await #expect(throws: ShareError.notAuthorized("wechat")) { try await operation.outcome() }
        case -5:
            let error = await #expect(throws: ShareError.self) { try await operation.outcome() }
            guard case .unavailable(let reason)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(reason.contains("-5"))
        default:
            let error = await #expect(throws: ShareError.self) { try await operation.outcome() }
            guard case .rejected(let reason)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(reason.contains("\(code)") && reason.contains("message \(code)"))
        }
        let request = try #require(bridge.requests.first)
        #expect(bridge.requests.count == 1 && request.scene == .timeline && request.kind == "image")
        guard case .image(let data, let thumbnail?) = request.message else {
            Issue.record("\(request.message)")
            return
        }
        #expect(data.count <= Limits.imageBytes && thumbnail.count <= Limits.thumbnailBytes)
        #expect(try ImageInfo(probing: thumbnail).format == .jpeg, "adaptation made a JPEG thumbnail")
    }

    @Test("a hand-off nobody answers ends 'outcome unknown' after the timeout; a refused one, or no WeChat, fails before anything is shared")
    func silenceAndRefusal() async throws {
        let clock = TestClock()
        let silent = FakeWeChatBridge(answer: .never)
        let provider = WeChatAppProvider(bridge: silent, responseTimeout: .seconds(300), clock: clock)
        let text = PreparedContent(text: "hello", images: [], link: nil, thumbnail: nil)
        guard case .outcomeUnknown(let reason) = try await provider.share(text, to: .session, credential: nil) else {
            Issue.record("expected outcome unknown")
            return
        }
        #expect(reason.contains("did not answer") && clock.sleeps == [.seconds(300)])

        let refusing = FakeWeChatBridge(handOff: .refused("WXApi.send returned false"))
        await #expect(throws: ShareError.unavailable(reason: "WeChat did not take the hand-off: WXApi.send returned false")) {
            try await WeChatAppProvider(bridge: refusing).share(text, to: .session, credential: nil)
        }
        let missing = FakeWeChatBridge(status: .notInstalled)
        await #expect(throws: ShareError.unavailable(reason: "WeChat is not installed on this device")) {
            try await WeChatAppProvider(bridge: missing).share(text, to: .session, credential: nil)
        }
        #expect(missing.requests.isEmpty)
        #expect(await WeChatAppProvider(bridge: missing).availability(credential: nil).isReachable == false)

        let none = WeChatAppProvider(bridge: nil)
        #expect(await none.availability(credential: nil).isConfigured == false)
        let error = await #expect(throws: ShareError.self) { try await none.share(text, to: .session, credential: nil) }
        guard case .unavailable(let why)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(why.contains("no WeChat bridge"))
    }

    @Test("a late answer is matched by its transaction")
    func lateAnswer() async throws {
        let bridge = FakeWeChatBridge(answer: .never)
        let provider = WeChatAppProvider(bridge: bridge)
        let share = Task { try await provider.share(PreparedContent(text: "hi", images: [], link: nil, thumbnail: nil), to: .favorites, credential: nil) }
        try await waitUntil("the hand-off") { !bridge.requests.isEmpty }
        let request = try #require(bridge.requests.first)
        bridge.deliver(WeChatResponse(errCode: -2, transaction: "someone else's"))
        bridge.deliver(WeChatResponse(errCode: -3, transaction: request.transaction))
        await #expect(throws: ShareError.rejected(reason: "WeChat could not send it (errCode -3)")) { try await share.value }
    }

    @Test("the constraints refuse a picture with text and keep a link card's fields in bytes")
    func constraints() async throws {
        let rules = try #require(WeChatAppProvider(bridge: nil).constraints(for: .session))
        #expect(rules.violations(of: ShareContent(text: "caption", images: [.encoded([1])])) == [.textWithImages])
        let long = String(repeating: "长", count: 300)  // 900 bytes
        let prepared = try await MediaContentAdapter().prepare(
            ShareContent(link: ShareLink(url: URL(string: "https://example.com")!, title: long, summary: long + long)), for: rules)
        #expect((prepared.link?.title?.utf8.count ?? 0) <= Limits.titleBytes)
        #expect((prepared.link?.summary?.utf8.count ?? 0) <= Limits.descriptionBytes)
        #expect(prepared.link?.title?.hasPrefix("长长长") == true, "cut between characters, not inside one")
        _ = try WeChatSendRequest(content: prepared, scene: .session, platform: .iOS)
    }
}
