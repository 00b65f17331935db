import Foundation
import ImageCore
import ProviderTestSupport
import QQShare
import QQShareTesting
import ServiceKit
import ServiceKitTesting
import ShareKit
import TestSupport
import Testing

@Suite("QQ through the app bridge: destinations' kinds, the SDK's limits in characters and bytes, send codes and answers")
struct QQProviderTests {
    typealias Limits = QQSendRequest.Limits
    static let page = URL(string: "https://example.com/p")!

    static func sample(_ kind: QQMessageKind) -> QQSendRequest.Message {
        switch kind {
        case .text: .text("你好")
        case .image: .image(data: [1, 2, 3], card: QQCard())
        case .images: .images([[1], [2]], text: nil)
        case .news: .news(url: page, card: QQCard(title: "日落"))
        case .audio: .audio(url: page, streamURL: URL(string: "https://cdn.example.com/a.mp3"), card: QQCard(title: "歌"))
        case .videoLink: .videoLink(url: page, streamURL: nil, card: QQCard(title: "片"))
        case .videoFile: .videoFile(path: "/tmp/clip.mp4", byteCount: 1_000, text: nil)
        case .file: .file(data: [1, 2], fileName: "report.pdf", card: QQCard())
        case .miniProgram: .miniProgram(appID: "1110429485", path: "pages/index", webpageURL: page, build: .online, card: QQCard())
        }
    }

    static func violations(_ message: QQSendRequest.Message, to destination: QQDestination = .friend) -> [ConstraintViolation] {
        do {
            _ = try QQSendRequest(message, to: destination, platform: .iOS)
            return []
        } catch {
            guard case .invalidContent(let found) = error else { return [.fieldInvalid(field: "test", reason: "\(error)")] }
            return found
        }
    }

    @Test("each destination takes exactly its kinds, each with the SDK object that carries it there; a refusal says where the kind goes")
    func destinations() {
        let table: [QQDestination: Set<QQMessageKind>] = [
            .friend: [.text, .image, .news, .audio, .videoLink, .miniProgram],
            .qzone: [.text, .image, .images, .news, .audio, .videoLink, .videoFile],
            .favorites: [.text, .image, .images, .news, .audio, .videoLink],
            .dataline: [.text, .image, .news, .file],
        ]
        for destination in QQDestination.allCases {
            for kind in QQMessageKind.allCases {
                let accepted = table[destination]!.contains(kind)
                #expect(Self.violations(Self.sample(kind), to: destination).isEmpty == accepted, "\(kind) to \(destination)")
            }
        }
        #expect(QQMessageKind.text.sdkObject(for: .qzone) == "QQApiImageArrayForQZoneObject")
        #expect(QQMessageKind.text.sdkObject(for: .friend) == "QQApiTextObject")
        #expect(QQDestination.favorites.controlFlags == 0x08 && QQDestination.dataline.controlFlags == 0x10)
        #expect(
            Self.violations(Self.sample(.file), to: .friend).map(\.description) == [
                "a file message cannot be shared to session: QQ takes a file message only in My Computer (the dataline)"
            ])
        #expect(
            Self.violations(Self.sample(.images), to: .friend).first?.description
                == "a several pictures message cannot be shared to session: QQ takes a several pictures message only in Qzone or QQ Favorites")
    }

    @Test("text limits count characters as the SDK does (UTF-16: a Chinese character is 1, an emoji 2); data limits count bytes")
    func limits() {
        let over: (String, Int, FieldLimit.Unit) -> ConstraintViolation = { .fieldTooLarge(field: $0, size: $1 + 1, limit: $1, unit: $2) }
        let title = { (text: String) in Self.violations(.news(url: Self.page, card: QQCard(title: text))) }
        #expect(title(String(repeating: "长", count: 128)).isEmpty)
        #expect(title(String(repeating: "长", count: 129)) == [over("QQApiObject.title", 128, .characters)])
        #expect(title(String(repeating: "😀", count: 64)).isEmpty)
        #expect(title(String(repeating: "😀", count: 64) + "x") == [over("QQApiObject.title", 128, .characters)])
        let summary = { (text: String) in Self.violations(.news(url: Self.page, card: QQCard(summary: text))) }
        #expect(summary(String(repeating: "d", count: 512)).isEmpty)
        #expect(summary(String(repeating: "d", count: 513)) == [over("QQApiObject.description", 512, .characters)])
        #expect(Self.violations(.text(String(repeating: "字", count: 1_536))).isEmpty)
        #expect(Self.violations(.text(String(repeating: "字", count: 1_537))) == [over("QQApiTextObject.text", 1_536, .characters)])
        #expect(Self.violations(.text("")) == [.fieldRequired(field: "QQApiTextObject.text")])
        // To Qzone, text is a mood, whose text the header caps as a title.
        #expect(Self.violations(.text(String(repeating: "字", count: 128)), to: .qzone).isEmpty)
        #expect(
            Self.violations(.text(String(repeating: "字", count: 129)), to: .qzone) == [over("QQApiImageArrayForQZoneObject.title", 128, .characters)])
        #expect(QQProvider.constraints(for: .qzone).text?.maxLength == 128 && QQProvider.constraints(for: .friend).text?.maxLength == 1_536)
        // The tables the checks use are public data.
        #expect(QQSendRequest.limits(of: .text, to: .friend).map(\.field) == ["QQApiTextObject.text"])
        #expect(
            QQSendRequest.limits(of: .news, to: .qzone).map(\.field) == [
                "QQApiURLObject.url", "QQApiObject.title", "QQApiObject.description", "QQApiURLObject.previewImageData",
            ])
        let url = { (count: Int) in URL(string: "https://example.com/" + String(repeating: "a", count: count - 20))! }
        #expect(Self.violations(.news(url: url(512), card: QQCard())).isEmpty)
        #expect(Self.violations(.news(url: url(513), card: QQCard())) == [over("QQApiURLObject.url", 512, .characters)])
        let preview = { (count: Int) in Self.violations(.news(url: Self.page, card: QQCard(previewImage: [UInt8](repeating: 1, count: count)))) }
        #expect(preview(Limits.previewImageBytes).isEmpty)
        #expect(preview(Limits.previewImageBytes + 1) == [over("QQApiURLObject.previewImageData", Limits.previewImageBytes, .bytes)])
        let picture = { (count: Int) in Self.violations(.image(data: [UInt8](repeating: 1, count: count), card: QQCard())) }
        #expect(picture(Limits.dataBytes).isEmpty)
        #expect(picture(Limits.dataBytes + 1) == [over("QQApiExtendObject.data", Limits.dataBytes, .bytes)])
        let file = { (count: Int) in Self.violations(.file(data: [UInt8](repeating: 1, count: count), fileName: "a.bin", card: QQCard()), to: .dataline) }
        #expect(file(Limits.dataBytes).isEmpty)
        #expect(file(Limits.dataBytes + 1) == [over("QQApiExtendObject.data", Limits.dataBytes, .bytes)])
        let video = { (count: Int) in Self.violations(.videoFile(path: "/tmp/v.mp4", byteCount: count, text: nil), to: .qzone) }
        #expect(video(Limits.qzoneVideoBytes).isEmpty)
        #expect(video(Limits.qzoneVideoBytes + 1) == [over("QQApiVideoForQZoneObject.videoData", Limits.qzoneVideoBytes, .bytes)])
        let pictures = { (count: Int) in Self.violations(.images(Array(repeating: [1], count: count), text: "心情"), to: .qzone) }
        #expect(
            Self.violations(.images([[1]], text: String(repeating: "字", count: 129)), to: .qzone) == [
                over("QQApiImageArrayForQZoneObject.title", 128, .characters)
            ])
        #expect(pictures(9).isEmpty)
        #expect(pictures(10) == [.tooManyImages(count: 10, maxCount: 9)])
        #expect(
            Self.violations(.miniProgram(appID: "", path: "p", webpageURL: URL(string: "ftp://example.com/")!, build: .test, card: QQCard()))
                == [
                    .fieldRequired(field: "QQApiMiniProgramObject.miniAppID"),
                    .fieldInvalid(field: "QQApiMiniProgramObject.webpageUrl", reason: "QQ opens only http and https addresses with a host"),
                ])
        #expect(
            Self.violations(.file(data: [1], fileName: "../x", card: QQCard()), to: .dataline)
                == [.fieldInvalid(field: "QQApiFileObject.fileName", reason: "a name, not a path")])
    }

    static func image(_ bytes: Int) -> PreparedContent.Image {
        PreparedContent.Image(bytes: [UInt8](repeating: 7, count: bytes), format: .jpeg, size: PixelSize(width: 10, height: 10))
    }

    @Test("content becomes the message its destination takes: text, a Qzone mood, one picture, a Favorites entry of several, a link card")
    func contentMapping() async throws {
        // iOS: its SDK shares plain text to a chat (Android's has no such share).
        let bridge = FakeQQBridge(platform: .iOS)
        let qq = QQProvider(bridge: bridge)
        let text = PreparedContent(text: "你好", images: [], link: nil, thumbnail: nil)
        _ = try await qq.share(text, to: .session, credential: nil)
        _ = try await qq.share(text, to: .timeline, credential: nil)
        let three = PreparedContent(text: nil, images: [Self.image(10), Self.image(20), Self.image(30)], link: nil, thumbnail: nil)
        _ = try await qq.share(three, to: .favorites, credential: nil)
        let one = PreparedContent(text: nil, images: [Self.image(10)], link: nil, thumbnail: Self.image(5))
        _ = try await qq.share(one, to: "dataline", credential: nil)
        let link = PreparedContent(text: "看看", images: [], link: ShareLink(url: Self.page, title: "日落"), thumbnail: Self.image(5))
        _ = try await qq.share(link, to: .timeline, credential: nil)
        let requests = bridge.requests
        #expect(
            requests.map(\.message) == [
                .text("你好"), .text("你好"),
                .images([[UInt8](repeating: 7, count: 10), [UInt8](repeating: 7, count: 20), [UInt8](repeating: 7, count: 30)], text: nil),
                .image(data: [UInt8](repeating: 7, count: 10), card: QQCard(previewImage: [UInt8](repeating: 7, count: 5))),
                .news(url: Self.page, card: QQCard(title: "日落", summary: "看看", previewImage: [UInt8](repeating: 7, count: 5))),
            ])
        #expect(requests.map(\.destination) == [.friend, .qzone, .favorites, .dataline, .qzone])
        #expect(
            requests.map(\.sdkObject) == [
                "QQApiTextObject", "QQApiImageArrayForQZoneObject", "QQApiImageObject.imageDataArray", "QQApiImageObject", "QQApiNewsObject",
            ])
        #expect(QQProvider.constraints(for: .qzone).videos != nil && QQProvider.constraints(for: .friend).videos == nil)
        #expect(QQProvider.constraints(for: .friend).images?.maxCount == 1 && QQProvider.constraints(for: .favorites).images?.maxCount == 9)
    }

    @Test("Android: no plain text to a chat, Favorites or My Computer (Tencent's Android SDK has none); text goes to Qzone as a mood")
    func androidText() async throws {
        let bridge = FakeQQBridge(platform: .android)
        let qq = QQProvider(bridge: bridge)
        for destination in [ShareDestination.session, .favorites, QQDestination.datalineDestination] {
            do throws(ShareError) {
                _ = try await qq.send(Self.sample(.text), to: destination)
                Issue.record("plain text went to \(destination) on Android")
            } catch {
                guard case .invalidContent(let found) = error, case .kindNotAccepted(_, _, let reason)? = found.first else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(reason.contains("Qzone") && reason.contains("Android"), "\(reason)")
            }
        }
        #expect(bridge.requests.isEmpty, "refused before QQ opens")
        guard case .posted = try await qq.send(Self.sample(.text), to: .timeline) else {
            Issue.record("a Qzone mood from Android was not posted")
            return
        }
        #expect(bridge.requests.map(\.sdkObject) == ["QQApiImageArrayForQZoneObject"] && bridge.requests.first?.platform == .android)
        #expect(QQMessageKind.text.acceptingDestinations(on: .android) == [.qzone])
        #expect(QQMessageKind.text.acceptingDestinations(on: .iOS) == [.friend, .qzone, .favorites, .dataline])
    }

    @Test("answers: '0' posted, '-4' cancelled, others rejected in words; send codes refuse before any answer; silence is outcome unknown")
    func outcomes() async throws {
        let bridge = FakeQQBridge()
        let qq = QQProvider(bridge: bridge)
        guard case .posted = try await qq.send(Self.sample(.audio), to: .session) else {
            Issue.record("'0' is not posted")
            return
        }
        bridge.setAnswer(.result("-4"))
        await #expect(throws: ShareError.cancelled) { try await qq.send(Self.sample(.news), to: .timeline) }
        bridge.setAnswer(.result("-3", "upload photo failed"))
        await #expect(throws: ShareError.rejected(reason: "QQ could not upload the picture (result -3: upload photo failed)")) {
            try await qq.send(Self.sample(.image), to: .session)
        }
        bridge.setAnswer(.result("0"))
        bridge.setSendResult(QQSendResult(code: 1))
        await #expect(throws: ShareError.unavailable(reason: "QQ did not take the hand-off: QQ is not installed (EQQAPIQQNOTINSTALLED)")) {
            try await qq.send(Self.sample(.news), to: .session)
        }
        bridge.setSendResult(QQSendResult(code: 10002))
        await #expect(throws: ShareError.self) { try await qq.send(Self.sample(.miniProgram), to: .session) }
        bridge.setSendResult(QQSendResult(code: 5))
        await #expect(throws: ShareError.rejected(reason: "QQ did not take the hand-off: QQ refused the message's content (EQQAPIMESSAGECONTENTINVALID)")) {
            try await qq.send(Self.sample(.news), to: .session)
        }
        bridge.setSendResult(QQSendResult(code: 7))
        guard case .posted = try await qq.send(Self.sample(.news), to: .session) else {
            Issue.record("an asynchronous send (7) then '0' is not posted")
            return
        }
        bridge.setStatus(.notInstalled)
        await #expect(throws: ShareError.unavailable(reason: "QQ is not installed on this device")) { try await qq.send(Self.sample(.news), to: .session) }
        await #expect(
            throws: ShareError.unavailable(reason: "no QQ bridge: sharing to the QQ app needs the host app's QQBridge (Tencent's SDK on iOS or Android)")
        ) {
            try await QQProvider(bridge: nil).send(Self.sample(.text), to: .session)
        }

        // iOS: no transaction. A hand-off nobody answered, then a late answer while another waits: it cannot be tied.
        let clock = TestClock()
        let iOS = FakeQQBridge(answer: .never, platform: .iOS)
        let silent = QQProvider(bridge: iOS, responseTimeout: .seconds(60), clock: clock)
        guard case .outcomeUnknown(let reason) = try await silent.send(Self.sample(.text), to: .session) else {
            Issue.record("silence is not outcome unknown")
            return
        }
        #expect(reason.contains("did not answer") && clock.sleeps == [.seconds(60)])
        // Two shares waiting on iOS, one answer without a transaction: neither may take it.
        let patient = QQProvider(bridge: iOS, responseTimeout: .seconds(600))
        let first = Task { try await patient.send(Self.sample(.news), to: .timeline) }
        let second = Task { try await patient.send(Self.sample(.text), to: .session) }
        try await waitUntil("both hand-offs") { iOS.requests.count == 3 }
        iOS.deliver(QQResponse(result: "-4"))
        for share in [first, second] {
            guard case .outcomeUnknown(let reason) = try await share.value else {
                Issue.record("an untied answer settled a share")
                continue
            }
            #expect(reason.contains("cannot be tied"), "\(reason)")
        }
    }
}
