import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

@testable import WeChatShare

@Suite("WeCom group robot webhook against a loopback server")
struct WeComTests {
    static let key = "693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa"

    func provider(_ server: LoopbackHTTPServer, log: InMemoryServiceLog = InMemoryServiceLog()) -> WeComWebhookProvider {
        WeComWebhookProvider(configuration: .init(webhookKey: Self.key, apiBase: server.url(path: "")), client: testClient(clock: TestClock(), log: log))
    }

    @Test("MD5 comes from libcrypto and matches RFC 1321's vectors")
    func md5() {
        #expect(WeComWebhookProvider.md5Hex(Array("".utf8)) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(WeComWebhookProvider.md5Hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    }

    @Test("a picture with text is two messages: the picture (base64 + md5) first, then the text")
    func pictureAndText() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        let jpeg = try noiseJPEG()
        let outcome = try await provider(server).share(prepared(text: "团队合影", images: [jpeg]), to: .session, credential: nil)
        #expect(outcome == .posted(ShareReceipt()))
        let requests = server.requests
        #expect(requests.map(\.route) == ["POST /cgi-bin/webhook/send", "POST /cgi-bin/webhook/send"])
        #expect(requests.allSatisfy { $0.queryItems["key"] == Self.key })
        let image = try #require(requests[0].json?["image"])
        #expect(image["base64"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } == jpeg)
        #expect(image["md5"]?.stringValue == WeComWebhookProvider.md5Hex(jpeg))
        #expect(requests[1].json == ["msgtype": "text", "text": ["content": "团队合影"]])
    }

    @Test("a video is uploaded as a file, then posted by its media_id, then the text; what is uploaded has no location (ffprobe, exiftool)")
    func video() async throws {
        let server = try LoopbackHTTPServer { request in
            request.route == "POST /cgi-bin/webhook/upload_media"
                ? ok(["errcode": 0, "errmsg": "ok", "type": "file", "media_id": "3a8asd892asd8asd", "created_at": "1380000000"])
                : ok(["errcode": 0, "errmsg": "ok"])
        }
        defer { server.stop() }
        let source = try TestVideos.make(
            "wecom-phone.mov",
            ["-i", try TestVideos.h264(), "-c", "copy", "-metadata", "location=+35.6895+139.6917/", "-metadata", "com.apple.quicktime.make=Apple"])
        let provider = provider(server)
        let constraints = try #require(provider.constraints(for: .session))
        let content = try await MediaContentAdapter().prepare(ShareContent(text: "海边", video: ShareVideo(path: source)), for: constraints)
        let video = try #require(content.video)
        #expect(!video.isTranscoded && video.removedMetadata.contains(.location))
        let outcome = try await provider.share(content, to: .session, credential: nil)
        #expect(outcome == .posted(ShareReceipt()))
        let requests = server.requests
        #expect(requests.map(\.route) == ["POST /cgi-bin/webhook/upload_media", "POST /cgi-bin/webhook/send", "POST /cgi-bin/webhook/send"])
        #expect(requests[0].queryItems["type"] == "file" && requests[0].queryItems["key"] == Self.key)
        #expect(requests[1].json == ["msgtype": "file", "file": ["media_id": "3a8asd892asd8asd"]])
        #expect(requests[2].json == ["msgtype": "text", "text": ["content": "海边"]])
        let uploaded = try #require(requests[0].formParts["media"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wecom-\(UUID().uuidString).mp4").path
        try Data(uploaded).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream=codec_name", "-of", "default=nw=1", file])
        #expect(probe.status == 0 && probe.output.contains("codec_name=h264") && !probe.output.contains("location"), "\(probe.output)")
        let tags = try ExifTool.tags(of: uploaded, fileExtension: "mp4")
        #expect(!tags.keys.contains { $0.lowercased().contains("gps") || $0.lowercased().contains("location") }, "\(tags)")
        // The prepared file goes with the prepared content.
        let path = video.path
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a video over 20 MB even at the lowest rate is refused; a video the robot cannot read back is an error, not a post")
    func videoLimits() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        var constraints = try #require(provider(server).constraints(for: .session))
        constraints.videos?.maxBytes = 2_000
        await #expect {
            try await MediaContentAdapter().prepare(ShareContent(video: ShareVideo(path: try TestVideos.h264())), for: constraints)
        } throws: { error in
            guard case ShareError.invalidContent(let violations) = error else { return false }
            return violations == [.videoTooLarge(maxBytes: 2_000)]
        }
        // Answered without a media_id: an error, and nothing posted.
        let empty = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { empty.stop() }
        let prepared = try await MediaContentAdapter().prepare(
            ShareContent(video: ShareVideo(path: try TestVideos.h264())), for: try #require(provider(empty).constraints(for: .session)))
        await #expect(throws: ShareError.self) { try await provider(empty).share(prepared, to: .session, credential: nil) }
        #expect(empty.requests.map(\.route) == ["POST /cgi-bin/webhook/upload_media"])
    }

    @Test("a link is a news card, trimmed to the robot's byte limits without splitting a character")
    func newsCard() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        let title = String(repeating: "标", count: 60)  // 180 bytes
        let link = ShareLink(url: URL(string: "https://photodeck.example/a")!, title: title, summary: "s")
        _ = try await provider(server).share(prepared(text: nil, link: link), to: .session, credential: nil)
        let article = try #require(server.requests.first?.json?["news"]?["articles"]?[0])
        let sent = try #require(article["title"]?.stringValue)
        #expect(sent.utf8.count <= 128 && sent.utf8.count >= 120)
        #expect(sent.allSatisfy { $0 == "标" || $0 == "…" })
        #expect(article["url"] == "https://photodeck.example/a")
    }

    @Test("45009 is rate limited for a minute; a 5xx on the second message makes the rest unknown; the key never shows")
    func failures() async throws {
        let limited = try LoopbackHTTPServer { _ in ok(["errcode": 45009, "errmsg": "api freq out of limit, key \(Self.key)"]) }
        defer { limited.stop() }
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(60))) {
            try await provider(limited).share(prepared(text: "hi"), to: .session, credential: nil)
        }

        let counter = RouteCounter()
        let flaky = try LoopbackHTTPServer { request in
            counter.next(request.route) == 1
                ? ok(["errcode": 0, "errmsg": "ok"]) : .respond(status: 500, body: json(["errcode": -1, "errmsg": "system busy for key=\(Self.key)"]))
        }
        defer { flaky.stop() }
        let jpeg = try noiseJPEG()
        // The robot may have posted the second message before failing: unknown, never re-sent.
        let outcome = try await provider(flaky).share(prepared(text: "caption", images: [jpeg]), to: .session, credential: nil)
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected an unknown outcome, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("1 of 2 messages were posted, then message 2:") && reason.contains("HTTP 500"), "\(reason)")
        #expect(!reason.contains(Self.key))
        #expect(flaky.requests.count == 2)
    }

    @Test("the provider needs no credential and its configuration never prints the key")
    func configuration() async throws {
        let wecom = WeComWebhookProvider(configuration: .init(webhookKey: Self.key))
        #expect(!wecom.requiresCredential)
        #expect(!"\(wecom.configuration)".contains(Self.key))
        #expect(await wecom.availability(credential: nil).isAvailable)
        #expect(wecom.constraints(for: .session)?.allowsMixedContent == false)
        // Reachability is the client's network monitor's: unreachable is unavailable, a path back is available.
        let network = FakeNetworkMonitor(.wifi)
        let monitored = WeComWebhookProvider(configuration: .init(webhookKey: Self.key), client: testClient(clock: TestClock()).monitoring(network))
        #expect(await monitored.availability(credential: nil).isAvailable)
        network.set(.unreachable)
        #expect(await monitored.availability(credential: nil).isReachable == false)
        network.set(.cellular)
        #expect(await monitored.availability(credential: nil).isAvailable)
    }
}
