import Foundation
import ImageCodecs
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// A video is fitted to a destination's video rules: remuxed when its
/// codecs, size and bytes are taken; transcoded when they are not; refused
/// when too long or too large at any rate PhotoDeck accepts.
@Suite("Share adaptation: videos", .dedicatedThreads)
struct VideoAdaptationTests {
    static func streams(_ path: String) throws -> String {
        try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "default=nw=1", path]).output
    }

    static func rules(_ videos: ShareConstraints.Videos) -> ShareConstraints {
        ShareConstraints(text: .init(maxLength: 100), images: nil, videos: videos)
    }

    @Test("a camcorder clip: remuxed without the MDPM in its stream; one whose SEI cannot be read is encoded again, without it too")
    func camcorderStream() async throws {
        let rules = Self.rules(.init(maxBytes: 10 << 20, videoCodecs: ["h264"], audioCodecs: ["aac"]))
        let clip = try CamcorderVideos.make("adapt-00001.MTS")
        let remuxed = try #require(try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: clip)), for: rules).video)
        defer { try? FileManager.default.removeItem(atPath: remuxed.file.path) }
        #expect(!remuxed.isTranscoded && remuxed.removedMetadata.contains(.location), "\(remuxed)")
        #expect(!CamcorderVideos.holdsMDPM(try fileBytes(URL(fileURLWithPath: remuxed.file.path))))

        let unreadable = CamcorderVideos.seiUnit(.h264, payload: CamcorderVideos.mdpmUUID + Array("MDPM".utf8), payloadSize: 200)
        let hostile = try CamcorderVideos.make("adapt-hostile.MTS", unit: unreadable)
        let encoded = try #require(try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: hostile)), for: rules).video)
        defer { try? FileManager.default.removeItem(atPath: encoded.file.path) }
        #expect(encoded.isTranscoded, "the remux refused it; the pictures were encoded again")
        #expect(!CamcorderVideos.holdsMDPM(try fileBytes(URL(fileURLWithPath: encoded.file.path))))
    }

    @Test("taken as it is: remuxed, the same codecs, the location gone")
    func remuxed() async throws {
        let source = try TestVideos.make("adapt-located.mp4", ["-i", try TestVideos.h264(), "-c", "copy", "-metadata", "location=+48.8584+002.2945/"])
        let prepared = try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: source)), for: Self.rules(.init(maxBytes: 10 << 20)))
        let video = try #require(prepared.video)
        #expect(!video.isTranscoded && video.codecs == ["h264", "aac"])
        // The place, and x264's settings (vendor data in the H.264 stream, which the default policy does not keep).
        #expect(video.removedMetadata == [.location, .other], "\(video.removedMetadata)")
        #expect(prepared.adjustments.contains { $0.hasPrefix("remuxed the video") })
        let tags = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", video.path]).output
        #expect(!tags.contains("location"))
    }

    @Test("HEVC where only H.264 is taken, or larger than the destination's side: transcoded to fit, under the byte cap, with progress")
    func transcoded() async throws {
        let hevc = try TestVideos.codecSample("hevc.mp4")
        let fractions = Mutex<[Double]>([])
        let rule = ShareConstraints.Videos(maxBytes: 60_000, videoCodecs: ["h264"], maxDimension: 160)
        let path = try await { () async throws -> String in
            let prepared = try await MediaContentAdapter().prepare(
                ShareContent(video: ShareVideo(path: hevc)), for: Self.rules(rule), progress: { value in fractions.withLock { $0.append(value) } })
            let video = try #require(prepared.video)
            #expect(video.isTranscoded && video.byteCount <= 60_000 && video.size == PixelSize(width: 160, height: 120), "\(video)")
            let streams = try Self.streams(video.path)
            #expect(streams.contains("codec_name=h264") && streams.contains("width=160") && streams.contains("codec_name=aac"), "\(streams)")
            #expect(FileManager.default.fileExists(atPath: video.path))
            return video.path
        }()
        let seen = fractions.withLock { $0 }
        #expect(seen.last == 1 && seen == seen.sorted())
        // The file went with the prepared content.
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("too long, too large, unreadable, not accepted, with text where none goes: each a violation that says so")
    func refusals() async throws {
        let clip = try TestVideos.h264()
        func violations(_ content: ShareContent, _ constraints: ShareConstraints) async -> [ConstraintViolation] {
            do {
                _ = try await MediaContentAdapter().prepare(content, for: constraints)
                return []
            } catch {
                if case .invalidContent(let found) = error { return found }
                return []
            }
        }
        #expect(
            await violations(ShareContent(video: ShareVideo(path: clip)), Self.rules(.init(maxBytes: 1 << 20, maxDuration: .seconds(1)))) == [
                .videoTooLong(seconds: 2, maxSeconds: 1)
            ])
        #expect(await violations(ShareContent(video: ShareVideo(path: clip)), Self.rules(.init(maxBytes: 1_000))) == [.videoTooLarge(maxBytes: 1_000)])
        let bad = await violations(ShareContent(video: ShareVideo(path: "/nonexistent.mp4")), Self.rules(.init(maxBytes: 1 << 20)))
        #expect(bad.count == 1 && { if case .unreadableVideo = bad[0] { true } else { false } }())
        #expect(await violations(ShareContent(video: ShareVideo(path: clip)), ShareConstraints(text: .init(maxLength: 10), images: nil)) == [.videoNotAccepted])
        #expect(
            await violations(ShareContent(text: "hi", video: ShareVideo(path: clip)), Self.rules(.init(maxBytes: 1 << 20, acceptsText: false))) == [
                .textWithVideo
            ])
    }

    @Test("a thumbnail is made from the video's first frame when there is no picture")
    func thumbnailFromVideo() async throws {
        var constraints = Self.rules(.init(maxBytes: 10 << 20))
        constraints.thumbnail = .init(maxBytes: 32 << 10, maxSize: PixelSize(width: 120, height: 120))
        let prepared = try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: try TestVideos.h264())), for: constraints)
        let thumbnail = try #require(prepared.thumbnail)
        #expect(thumbnail.size == PixelSize(width: 120, height: 90) && thumbnail.bytes.count <= 32 << 10)
    }

    /// The names in the outbox's video folder.
    static func kept(_ outbox: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outbox + ".videos")) ?? []).sorted()
    }

    @Test(
        "the outbox keeps its own copy of a video (one for two shares of it): sent after the original is gone and the outbox reopened; then the copy goes, a file it did not name stays"
    )
    func outboxKeepsVideo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-video-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/outbox.sqlite"
        let original = "\(folder)/clip.mp4"
        try FileManager.default.copyItem(atPath: try TestVideos.h264(), toPath: original)
        let digest = Digest.sha256Hex(try fileBytes(URL(fileURLWithPath: original)))
        let provider = MockShareProvider(id: "chat", constraintsByDestination: [.session: Self.rules(.init(maxBytes: 10 << 20))])
        let center = ShareCenter(adapter: .media)
        await center.register(provider)
        let target = ShareTarget(provider: "chat", destination: .session, displayName: "Chat")
        // The test clock is a month ahead: every file is past the outbox's grace period.
        let clock = TestClock()
        do {
            let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
            try await outbox.enqueue(ShareContent(text: "one", video: ShareVideo(path: original)), to: target)
            try await outbox.enqueue(ShareContent(text: "two", video: ShareVideo(path: original)), to: target)
        }
        #expect(Self.kept(path) == ["\(digest).video"])
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: "\(path).videos/\(digest).video")[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        try FileManager.default.removeItem(atPath: original)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(path).videos/notes.txt"))

        let reopened = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
        let entries = await reopened.process()
        #expect(entries.map(\.state) == [.posted, .posted], "\(entries)")
        let sent = try #require(provider.recordedShares.first?.content.video)
        #expect(try Self.streams(sent.path).contains("codec_name=h264"))
        #expect(Self.kept(path) == ["notes.txt"], "the copy is gone once both are posted; the stranger stays")
    }

    @Test("the outbox's copy is checked before it is sent: a changed byte or a link in its place fails the entry, and nothing is sent")
    func outboxChecksItsCopy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-tamper-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/outbox.sqlite"
        let provider = MockShareProvider(id: "chat", constraintsByDestination: [.session: Self.rules(.init(maxBytes: 10 << 20))])
        let center = ShareCenter(adapter: .media)
        await center.register(provider)
        let target = ShareTarget(provider: "chat", destination: .session, displayName: "Chat")
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: TestClock(start: Date()))
        try await outbox.enqueue(ShareContent(video: ShareVideo(path: try TestVideos.h264())), to: target)
        let name = try #require(Self.kept(path).first)
        let copy = "\(path).videos/\(name)"
        var bytes = try fileBytes(URL(fileURLWithPath: copy))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        let first = await outbox.process()
        #expect(first.first?.state == .failed && first.first?.lastError?.contains("missing or damaged") == true, "\(first)")

        try await outbox.enqueue(ShareContent(video: ShareVideo(path: try TestVideos.h264())), to: target)
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.createSymbolicLink(atPath: copy, withDestinationPath: try TestVideos.h264())
        let second = await outbox.process()
        #expect(second.last?.state == .failed, "\(second)")
        #expect(provider.recordedShares.isEmpty)
        // A fresh copy nobody needs waits out the grace period (another process may be about to name it).
        try await outbox.enqueue(ShareContent(video: ShareVideo(path: try TestVideos.codecSample("hevc.mp4"))), to: target)
        let fresh = try #require(try await outbox.entries().last)
        try await outbox.remove(fresh.id)
        #expect(Self.kept(path).count == 2, "\(Self.kept(path))")
    }
}
