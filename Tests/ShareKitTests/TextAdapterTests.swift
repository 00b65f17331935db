import Foundation
import ImageCodecs
import SQLiteSupport
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

/// ShareKit without a codec: the text adapter it ships, the center's
/// default, and the outbox keeping pixels without an encoder.
@Suite("Sharing without codecs", .dedicatedThreads)
struct TextAdapterTests {
    static let link = ShareLink(
        url: URL(string: "https://example.com/album/2026/summer?from=share")!, title: String(repeating: "标题", count: 60),
        summary: String(repeating: "summary ", count: 40))

    /// Text and link contents with the tables they go to.
    static let cases: [(ShareContent, ShareConstraints)] = [
        (ShareContent(text: String(repeating: "很长的文字 long text ", count: 30), link: link), Tables.microblog),
        (ShareContent(text: "caption", link: link), Tables.chatSession),
        (ShareContent(text: String(repeating: "a", count: 80)), Tables.textOnly),
        (ShareContent(text: String(repeating: "a", count: 80), textOverflow: .refuse), Tables.textOnly),
        (ShareContent(text: "a", link: link), Tables.textOnly),
        (ShareContent(), Tables.microblog),
    ]

    /// What an adapter made of some content, or what it refused, for comparing two adapters.
    static func outcome(_ adapter: some ContentAdapter, _ content: ShareContent, _ constraints: ShareConstraints) async -> String {
        do {
            let prepared = try await adapter.prepare(content, for: constraints)
            return "text \(prepared.text ?? "nil"), link \(String(describing: prepared.link)), \(prepared.adjustments.joined(separator: "; "))"
        } catch {
            return "refused: \(error)"
        }
    }

    @Test("text and links come out of the text adapter exactly as out of the media adapter: the same cut, the same link, the same words")
    func sameTextRules() async {
        for (index, (content, constraints)) in Self.cases.enumerated() {
            let plain = await Self.outcome(TextContentAdapter(), content, constraints)
            let media = await Self.outcome(MediaContentAdapter(), content, constraints)
            #expect(plain == media, "case \(index)")
        }
        // The cases reach every branch: a cut, a link moved into the text, a trimmed link object, refusals.
        let all = await Self.cases.asyncMap { await Self.outcome(TextContentAdapter(), $0.0, $0.1) }.joined(separator: "\n")
        for expected in ["shortened the text", "moved the link into the text", "trimmed the link's title or summary", "refused"] {
            #expect(all.contains(expected), "\(expected)")
        }
    }

    @Test("pictures, a video and a link's picture are refused by name, with every other violation at once")
    func mediaRefused() async throws {
        let jpeg = try Bitmap.noise(width: 32, height: 24, seed: 1).encoded(as: .jpeg)
        let adapter = TextContentAdapter()
        await #expect(throws: ShareError.invalidContent([.textRequired, .needsMediaAdapter("the pictures")])) {
            try await adapter.prepare(ShareContent(images: [.encoded(jpeg)]), for: Tables.microblog)
        }
        let videos = ShareConstraints(text: nil, images: nil, links: .unsupported, videos: .init(maxBytes: 1 << 20, acceptsText: false))
        await #expect(throws: ShareError.invalidContent([.needsMediaAdapter("the video")])) {
            try await adapter.prepare(ShareContent(video: ShareVideo(path: "/nonexistent.mp4")), for: videos)
        }
        var pictured = Self.link
        pictured.thumbnail = .encoded(jpeg)
        await #expect(throws: ShareError.invalidContent([.needsMediaAdapter("the link's picture")])) {
            try await adapter.prepare(ShareContent(link: pictured), for: Tables.chatSession)
        }
        // Where pictures are not taken at all, the destination's own refusal is the one said.
        await #expect(throws: ShareError.invalidContent([.imagesNotAccepted])) {
            try await adapter.prepare(ShareContent(text: "x", images: [.encoded(jpeg)]), for: Tables.textOnly)
        }
        #expect(ConstraintViolation.needsMediaAdapter("the pictures").description.contains("MediaContentAdapter() from the ShareMedia product"))
    }

    @Test("a center left at its default posts text and refuses pictures before the provider sees them")
    func defaultCenter() async throws {
        let mock = MockShareProvider(id: "chat", destinations: [.session])
        let center = ShareCenter()
        await center.register(mock)
        let target = ShareTarget(provider: "chat", destination: .session, displayName: "Chat")
        let jpeg = try Bitmap.noise(width: 32, height: 24, seed: 2).encoded(as: .jpeg)
        await #expect(throws: ShareError.invalidContent([.needsMediaAdapter("the pictures")])) {
            try await center.share(ShareContent(text: "photo", images: [.encoded(jpeg)]), to: target)
        }
        #expect(mock.recordedShares.isEmpty)
        _ = try await center.share(ShareContent(text: "words only"), to: target)
        #expect(mock.recordedShares.map(\.content.text) == ["words only"])
    }

    static func outboxPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-pixels-\(UUID().uuidString).sqlite").path
    }

    @Test("a bitmap queued in the outbox is kept as its pixels, padding dropped, and sent as exactly those pixels")
    func queuedBitmap() async throws {
        let path = Self.outboxPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Rows padded to 64 bytes: what is stored and sent is the picture, not the padding.
        let tight = Bitmap.noise(width: 13, height: 7, seed: 3)
        var padded = [UInt8](repeating: 0xEE, count: 64 * 7)
        for row in 0..<7 { padded.replaceSubrange(row * 64..<row * 64 + 39, with: tight.pixels[row * 39..<row * 39 + 39]) }
        let bitmap = try Bitmap(width: 13, height: 7, pixelFormat: tight.pixelFormat, bytesPerRow: 64, pixels: padded)
        let png = ShareConstraints(text: .init(maxLength: 100), images: .init(maxCount: 2, maxBytes: 1 << 20, formats: [.png]))
        let mock = MockShareProvider(id: "chat", constraintsByDestination: [.session: png])
        let center = ShareCenter(adapter: .media)
        await center.register(mock)
        let target = ShareTarget(provider: "chat", destination: .session, displayName: "Chat")
        do {
            let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.unreachable))
            try await outbox.enqueue(ShareContent(text: "pixels", images: [.bitmap(bitmap), .bitmap(tight)]), to: target)
        }
        let reopened = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        #expect(await reopened.process().map(\.state) == [.posted])
        let sent = try #require(mock.recordedShares.first?.content.images)
        #expect(sent.count == 2)
        for image in sent {
            let decoded = try DecodedImage(decoding: image.bytes).bitmap
            #expect(decoded.size == tight.size && decoded.pixels == tight.pixels)
        }
    }

    @Test("a stored bitmap whose layout is a lie (a side of 2^62, bytes that do not match, an unknown format) fails its entry alone")
    func hostileStoredBitmap() async throws {
        let path = Self.outboxPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mock = MockShareProvider(id: "chat", destinations: [.session])
        let center = ShareCenter(adapter: .media)
        await center.register(mock)
        let target = ShareTarget(provider: "chat", destination: .session, displayName: "Chat")
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.unreachable))
        let lies = [
            #"{"text":"a","images":[{"width":4611686018427387904,"height":4,"format":"rgb8","pixels":"AAAA"}]}"#,
            #"{"text":"b","images":[{"width":2,"height":2,"format":"rgb8","pixels":"AAAA"}]}"#,
            #"{"text":"c","images":[{"width":1,"height":1,"format":"cmyk","pixels":"AAAA"}]}"#,
        ]
        var ids: [UUID] = []
        for _ in lies { ids.append(try await outbox.enqueue(ShareContent(text: "placeholder"), to: target)) }
        let good = try await outbox.enqueue(ShareContent(text: "fine"), to: target)
        let database = try SQLiteDatabase(path: path)
        for (id, lie) in zip(ids, lies) {
            try database.prepare("UPDATE entries SET content = ? WHERE id = ?").bind(.blob(Array(lie.utf8)), .text(id.uuidString)).run()
        }
        let reopened = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        let entries = await reopened.process()
        for id in ids {
            let entry = try #require(entries.first { $0.id == id })
            #expect(entry.state == .failed && entry.lastError == "the stored content is unreadable")
        }
        #expect(entries.first { $0.id == good }?.state == .posted)
        #expect(mock.recordedShares.map(\.content.text) == ["fine"])
    }
}

extension Sequence where Element: Sendable {
    /// The elements mapped in order by an async transform.
    fileprivate func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
