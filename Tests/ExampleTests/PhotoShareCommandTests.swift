import Foundation
import ImageCodecs
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import TestSupport
import Testing

@Suite("photo-share")
struct PhotoShareCommandTests {
    static let secrets = [
        "PHOTODECK_WEIBO_TOKEN": "2.00cliWEIBOsecret55", "PHOTODECK_WECHAT_TOKEN": "cliWECHATsecret_66_xyz", "PHOTODECK_WECOM_KEY": "cli-WECOM-key-77-abcd",
    ]
    static let sample = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples/waterfall.jpg").path

    func run(_ arguments: [String], extra: [String: String] = [:]) async throws -> ExampleProcess.Result {
        try await ExampleProcess.run("photo-share", arguments, environment: Self.secrets.merging(extra) { _, new in new })
    }

    func expectNoSecrets(_ result: ExampleProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in Self.secrets.values {
            #expect(!result.standardOutput.contains(secret), "stdout leaked a secret", sourceLocation: sourceLocation)
            #expect(!result.standardError.contains(secret), "stderr leaked a secret", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "--dry-run prints every request of every target with secrets redacted, and sends nothing",
        arguments: [
            "weibo/timeline", "wechat-oa/message", "wechat-oa/article", "wechat-oa/broadcast", "wecom/session",
        ])
    func dryRun(target: String) async throws {
        let result = try await run(["share", "--to", target, "--dry-run", "--verbose", "--text", "Waterfall 瀑布", Self.sample])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("would send: POST https://"))
        #expect(result.standardOutput.hasSuffix("dry run: nothing was sent\n"))
        #expect(result.standardError.contains("[debug] → POST"))
        if target != "weibo/timeline" { #expect(result.standardOutput.contains("=<redacted>")) }
        expectNoSecrets(result)
    }

    @Test("a credential file is read, never written, and its token is not printed")
    func credentialFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await FileCredentialStore(path: path).save(Credential(provider: "weibo", account: "17", accessToken: "2.00fileTOKENsecret"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try await ExampleProcess.run(
            "photo-share", ["share", "--to", "weibo/timeline", "--dry-run", "--verbose", "--credentials", path, "--text", "hi", Self.sample])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("2.00fileTOKENsecret") && !result.standardError.contains("2.00fileTOKENsecret"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the credential file must not be written")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("targets lists what can take the content, in a stable order")
    func targets() async throws {
        let result = try await run(["targets", "--text", "hi", Self.sample], extra: ["PHOTODECK_WEIBO_APP_KEY": "k", "PHOTODECK_WECHAT_APP_ID": "wx1"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: "\t") }
        // Text with a picture: a Weibo status, a Qzone mood (QQ's app, without a bridge here), an article, a robot message.
        #expect(lines.map { $0[0] } == ["weibo/timeline", "qq/timeline", "wechat-oa/article", "wecom/session"], "\(result.standardOutput)")
        #expect(lines.allSatisfy { $0.count == 2 && $0[1].count > 20 }, "each target has a one-line description")
        #expect(lines[2][1].contains("not pushed to followers"))
        // A picture alone also goes to the WeChat app, which needs a bridge this tool does not have.
        let picture = try await run(["targets", Self.sample])
        let app = picture.standardOutput.split(separator: "\n").filter { $0.hasPrefix("wechat/") }
        #expect(app.map { $0.split(separator: "\t")[0] } == ["wechat/session", "wechat/timeline", "wechat/favorites"])
        #expect(app.allSatisfy { $0.hasSuffix("[not set up, not reachable]") }, "\(app)")
        // Without content: every target, each with where it goes and what it needs here.
        let all = try await run(["targets"], extra: ["PHOTODECK_WECOM_KEY": "k"])
        let rows = all.standardOutput.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(
            rows.map { $0[0] } == [
                "weibo/timeline", "wechat/session", "wechat/timeline", "wechat/favorites", "qq/session", "qq/timeline", "qq/favorites", "qq/dataline",
                "wechat-oa/message", "wechat-oa/article", "wechat-oa/broadcast", "wecom/session",
            ], "\(all.standardOutput)")
        #expect(rows[0][1].hasSuffix("[not set up: set PHOTODECK_WEIBO_APP_KEY and PHOTODECK_WEIBO_TOKEN]"))
        #expect(rows[11].count == 2 && !rows[11][1].contains("["), "WeCom is set up: \(rows[11])")
    }

    @Test(
        "--dry-run --json is one JSON document per target: the requests, or the WeChat app hand-off",
        arguments: [
            "weibo/timeline", "wechat/session", "wechat/timeline", "wechat/favorite", "wechat-oa/message", "wechat-oa/article", "wechat-oa/broadcast",
            "wecom/session",
        ])
    func dryRunJSON(target: String) async throws {
        let app = target.hasPrefix("wechat/")
        // The WeChat app takes a picture without text; the others get both.
        let arguments = ["share", "--to", target, "--dry-run", "--json"] + (app ? [] : ["--text", "Waterfall 瀑布"]) + [Self.sample]
        let result = try await run(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let document = try JSONValue(parsing: Array(result.standardOutput.utf8))
        #expect(document["target"]?.stringValue == target.replacingOccurrences(of: "favorite", with: "favorites"))
        if app {
            let handOff = try #require(document["handoff"])
            #expect(handOff["scene"]?.stringValue == String(target.dropFirst("wechat/".count)))
            #expect(handOff["kind"] == "image")
            #expect((handOff["imageBytes"]?.intValue ?? 0) > 100_000 && (handOff["thumbBytes"]?.intValue ?? 0) <= 32_768)
        } else {
            let requests = try #require(document["requests"]?.arrayValue)
            #expect(!requests.isEmpty)
            for request in requests {
                #expect(request["method"] == "POST")
                #expect(request["url"]?.stringValue?.hasPrefix("https://") == true)
                #expect(request["contentType"]?.stringValue?.isEmpty == false)
                #expect(request["parts"] != nil || request["body"] != nil)
            }
            let last = try #require(requests.last)
            switch target {
            case "weibo/timeline": #expect(last["parts"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["status", "rip", "pic"])
            case "wechat-oa/broadcast": #expect(last["body"]?["clientmsgid"]?.stringValue?.count == 32)
            default: break
            }
        }
        expectNoSecrets(result)
        // A link goes to the WeChat app as a web page card.
        if target == "wechat/session" {
            let card = try await run(["share", "--to", target, "--dry-run", "--json", "--link", "https://example.com/a", "--title", "A", "--text", "about"])
            let handOff = try JSONValue(parsing: Array(card.standardOutput.utf8))["handoff"]
            #expect(
                handOff?["kind"] == "webpage" && handOff?["url"] == "https://example.com/a" && handOff?["title"] == "A" && handOff?["description"] == "about")
        }
    }

    @Test(
        "a link with --thumbnail is a web-page card with that picture, fitted to each card's cap (it used to go without one)",
        arguments: ["wechat/session", "wechat/timeline", "qq/session", "qq/timeline"])
    func linkCardThumbnail(target: String) async throws {
        let result = try await run([
            "share", "--to", target, "--dry-run", "--json", "--link", "https://photos.example.com/lisbon/", "--title", "Lisbon",
            "--summary", "14 photos", "--thumbnail", Self.sample,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let handOff = try #require(try JSONValue(parsing: Array(result.standardOutput.utf8))["handoff"])
        let bytes = try #require(handOff[target.hasPrefix("qq/") ? "previewBytes" : "thumbBytes"]?.intValue)
        // WeChat's cap is 32 KB, QQ's 1 MB (its SDK's); a card picture is a JPEG of a few KB.
        #expect(bytes > 1_000 && bytes <= (target.hasPrefix("qq/") ? 1 << 20 : 32_768), "\(handOff)")
        #expect(handOff["title"] == "Lisbon")
        // --thumbnail without a link or an app message says what it goes with.
        let lone = try await run(["share", "--to", target, "--dry-run", "--thumbnail", Self.sample])
        #expect(lone.status != 0 && lone.standardError.contains("--thumbnail goes with --link"))
    }

    @Test("a link with --thumbnail to Weibo is a status with the link in its text and the picture as its picture")
    func linkStatusPicture() async throws {
        let link = ["share", "--to", "weibo/timeline", "--dry-run", "--text", "Lisbon", "--link", "https://photos.example.com/lisbon/"]
        let with = try await run(link + ["--thumbnail", Self.sample])
        #expect(with.status == 0, "\(with.standardError)")
        #expect(with.standardOutput.contains("body: multipart: status") && with.standardOutput.contains(", pic photo.jpg ("), "\(with.standardOutput)")
        let without = try await run(link)
        #expect(without.status == 0 && !without.standardOutput.contains("pic photo.jpg"), "\(without.standardOutput)")
    }

    @Test("without a bridge the WeChat app is unavailable, and says why")
    func appWithoutBridge() async throws {
        let result = try await run(["share", "--to", "wechat/session", "--text", "hi"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: the provider is unavailable: no WeChat bridge"), "\(result.standardError)")
    }

    @Test("a real run against a loopback server: posted (0), failures that echo secrets (1), a lost answer (3)")
    func loopback() async throws {
        let posted = try LoopbackHTTPServer { _ in .respond(status: 200, body: Array(#"{"idstr":"4901","user":{"idstr":"17"}}"#.utf8)) }
        defer { posted.stop() }
        let environment = ["PHOTODECK_WEIBO_APP_KEY": "k"]
        let ok = try await run(
            ["share", "--to", "weibo/timeline", "--api-base", posted.url(path: "").absoluteString, "--text", "hi", Self.sample], extra: environment)
        #expect(ok.status == 0 && ok.standardOutput == "posted 4901 https://weibo.com/17/4901\n")
        #expect(posted.requests.count == 1)

        let echo = try LoopbackHTTPServer { request in
            let echo: JSONValue = ["errcode": 40035, "errmsg": "bad \(request.target) \(request.headers)", "error_code": 20003, "error": "\(request.headers)"]
            return .respond(status: 400, body: echo.encoded())
        }
        defer { echo.stop() }
        for target in ["weibo/timeline", "wecom/session"] {
            let failed = try await run(
                ["share", "--to", target, "--api-base", echo.url(path: "").absoluteString, "--verbose", "--text", "hi"], extra: environment)
            #expect(failed.status == 1)
            #expect(failed.standardError.contains("error: the provider rejected the content"))
            expectNoSecrets(failed)
        }

        let lost = try LoopbackHTTPServer { _ in .dropConnection }
        defer { lost.stop() }
        let unknown = try await run(["share", "--to", "wecom/session", "--api-base", lost.url(path: "").absoluteString, "--text", "hi"])
        #expect(unknown.status == 3 && unknown.standardOutput.hasPrefix("outcome unknown:"))
        #expect(lost.requests.count == 1)
        expectNoSecrets(unknown)
    }

    @Test("a GPS-tagged photo goes to Weibo without its position or serial number; --keep-location keeps the position; --dry-run --json says what went")
    func metadata() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("photo-share-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let photo = "\(work)/phone.jpg"
        let plain = try noiseJPEG(width: 320, height: 240, seed: 9)
        try Data(try ExifTool.writing(ExifTool.phoneMetadata, to: plain, fileExtension: "jpg")).write(to: URL(fileURLWithPath: photo))
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: Array(#"{"idstr":"4901","user":{"idstr":"17"}}"#.utf8)) }
        defer { server.stop() }
        for keep in [false, true] {
            let result = try await run(
                ["share", "--to", "weibo/timeline", "--api-base", server.url(path: "").absoluteString, "--text", "hi"] + (keep ? ["--keep-location"] : [])
                    + [photo], extra: ["PHOTODECK_WEIBO_APP_KEY": "k"])
            #expect(result.status == 0, "\(result.standardError)")
            let request = try #require(server.requests.last)
            let parts = MultipartForm.parts(of: request.body, contentType: request.headers["content-type"] ?? "") ?? []
            let picture = try #require(parts.first { $0.name == "pic" })
            let tags = try ExifTool.tags(of: picture.data, fileExtension: "jpg")
            #expect((tags["GPS:GPSLatitude"] != nil) == keep, "keep location: \(keep)")
            #expect(tags["ExifIFD:SerialNumber"] == nil && tags["IFD0:Artist"] == nil && !tags.keys.contains { $0.hasPrefix("XMP") })
            #expect(tags["IFD0:Model"] == "EOS R5")
        }
        let dry = try await run(["share", "--to", "weibo/timeline", "--dry-run", "--json", "--text", "hi", photo])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(dry.standardOutput.utf8)) as? [String: Any])
        let images = try #require(document["images"] as? [[String: Any]])
        #expect((images.first?["removedMetadata"] as? [String])?.contains("location") == true, "\(images)")
        let text = try await run(["share", "--to", "weibo/timeline", "--dry-run", "--text", "hi", photo])
        #expect(text.standardOutput.contains("image 1: removed location, identifying, xmp, comment"), "\(text.standardOutput)")
    }

    @Test("an iPhone HDR HEIC goes to Weibo as an Ultra HDR JPEG; --dry-run says the gain map is kept; --drop-gain-map sends it flat")
    func hdrPhoto() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("photo-share-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let photo = "\(work)/IMG_0001.HEIC"
        let levels: [UInt8] = (0..<(80 * 60)).map { (index: Int) -> UInt8 in UInt8(index % 80 * 3) }
        let map = try Bitmap(width: 80, height: 60, pixelFormat: .gray8, pixels: levels)
        try Data(try TestHDRPhotos.iPhoneHEIC(photo: Bitmap.gradient(width: 320, height: 240), map: map)).write(to: URL(fileURLWithPath: photo))
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: Array(#"{"idstr":"4901","user":{"idstr":"17"}}"#.utf8)) }
        defer { server.stop() }
        let result = try await run(
            ["share", "--to", "weibo/timeline", "--api-base", server.url(path: "").absoluteString, "--text", "hi", photo],
            extra: ["PHOTODECK_WEIBO_APP_KEY": "k"])
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.last)
        let parts = MultipartForm.parts(of: request.body, contentType: request.headers["content-type"] ?? "") ?? []
        let picture = try #require(parts.first { $0.name == "pic" })
        guard case .present(let found) = UltraHDRJPEG.find(in: picture.data) else {
            Issue.record("the upload is not Ultra HDR: \(UltraHDRJPEG.find(in: picture.data))")
            return
        }
        #expect(found.gainMap.size == PixelSize(width: 80, height: 60))
        let text = try await run(["share", "--to", "weibo/timeline", "--dry-run", "--text", "hi", photo])
        #expect(text.standardOutput.contains("image 1: HDR gain map 80x60 kept (Ultra HDR, 2.72 stops)"), "\(text.standardOutput)")
        let flat = try await run(["share", "--to", "weibo/timeline", "--dry-run", "--json", "--drop-gain-map", "--text", "hi", photo])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(flat.standardOutput.utf8)) as? [String: Any])
        let images = try #require(document["images"] as? [[String: Any]])
        #expect(images.first?["gainMap"] is NSNull && (images.first?["removedMetadata"] as? [String])?.contains("gain-map") == true, "\(images)")
    }

    @Test(
        "a phone video to WeCom: --dry-run shows what the group would get (size, length, codecs, what was removed); a real run uploads it without its location")
    func video() async throws {
        let video = try TestVideos.make(
            "share-phone.mov",
            [
                "-i", try TestVideos.h264(), "-c", "copy", "-metadata", "location=+35.6895+139.6917/",
                "-metadata", "com.apple.quicktime.location.ISO6709=+35.6895+139.6917+040.000/", "-movflags", "use_metadata_tags",
            ])
        let dry = try await run(["share", "--to", "wecom/session", "--dry-run", "--video", video])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("video: 320x240 h264/aac 2.0 s,"), "\(dry.standardOutput)")
        #expect(
            dry.standardOutput.contains(
                "remuxed; removed location, other (com.apple.quicktime.location.ISO6709, location-eng, location, SEI user data (vendor data in the video stream))"
            ),
            "\(dry.standardOutput)")
        let json = try await run(["share", "--to", "wecom/session", "--dry-run", "--json", "--video", video])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let described = try #require(document["video"] as? [String: Any])
        #expect(described["codecs"] as? [String] == ["h264", "aac"] && described["transcoded"] as? Bool == false, "\(described)")

        let server = try LoopbackHTTPServer { request in
            let answer: JSONValue =
                request.target.hasPrefix("/cgi-bin/webhook/upload_media") ? ["errcode": 0, "errmsg": "ok", "media_id": "m1"] : ["errcode": 0, "errmsg": "ok"]
            return .respond(status: 200, body: answer.encoded())
        }
        defer { server.stop() }
        let posted = try await run(["share", "--to", "wecom/session", "--api-base", server.url(path: "").absoluteString, "--verbose", "--video", video])
        #expect(posted.status == 0, "\(posted.standardError)")
        let upload = try #require(server.requests.first)
        let parts = MultipartForm.parts(of: upload.body, contentType: upload.headers["content-type"] ?? "") ?? []
        let file = try #require(parts.first { $0.name == "media" })
        #expect(file.filename == "video.mp4")
        let tags = try ExifTool.tags(of: file.data, fileExtension: "mp4")
        #expect(!tags.keys.contains { $0.lowercased().contains("gps") || $0.lowercased().contains("location") }, "\(tags)")
    }
    @Test("a video where photos go is shared as a video; a PDF, sound, text or an empty file is named, with what to use instead")
    func sniffedInputs() async throws {
        let video = try TestVideos.h264()
        // As a user types it: the video where the photos go, and under a photo's name.
        let disguised = FileManager.default.temporaryDirectory.appendingPathComponent("sniff-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: disguised, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: disguised) }
        try FileManager.default.copyItem(atPath: video, toPath: disguised + "/IMG_0001.jpg")
        for path in [video, disguised + "/IMG_0001.jpg"] {
            let result = try await run(["share", "--to", "wecom/session", "--dry-run", path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("is a video: it is shared as one"))
            #expect(result.standardOutput.contains("video: 320x240 h264/aac 2.0 s,"), "as --video shares it: \(result.standardOutput)")
        }
        let twice = try await run(["share", "--to", "wecom/session", "--dry-run", "--video", video, video])
        #expect(twice.status != 0 && twice.standardError.contains("a share carries one video"))

        let tone = try TestVideos.make("sniff-tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-c:a", "aac"])
        let files: [(name: String, bytes: [UInt8], says: String, advice: String)] = [
            ("doc.pdf", Array("%PDF-1.7\n%âãÏÓ\n".utf8), "a PDF document", "--file PATH"),
            ("notes.jpg", Array("Dinner at 8, photos to follow.\n".utf8), "text", "--text TEXT"),
            ("song.mp3", Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0], "sound (an audio file)", "--music URL"),
            ("empty.png", [], "empty", "give a photo or a video"),
            ("scan.tif", Array("II*\u{0}".utf8) + [8, 0, 0, 0], "a TIFF picture", "convert it to JPEG or PNG first"),
        ]
        for file in files {
            let path = disguised + "/" + file.name
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            let result = try await run(["share", "--to", "wecom/session", "--dry-run", path])
            #expect(result.status != 0)
            #expect(result.standardError.contains("is \(file.says)") && result.standardError.contains(file.advice), "\(file.name): \(result.standardError)")
            #expect(!result.standardError.contains("registered decoder"), "not the decoder's message about leading bytes")
        }
        let sound = try await run(["share", "--to", "wecom/session", "--dry-run", tone])
        #expect(sound.status != 0 && sound.standardError.contains("sound without pictures"), "\(sound.standardError)")
    }
    @Test("a camcorder clip to WeCom: what is uploaded carries no position, in its tags or in its H.264 stream (exiftool -ee)")
    func camcorderVideo() async throws {
        let clip = try CamcorderVideos.make("share-00001.MTS")
        #expect(try ExifTool.tags(ofFileAt: clip, extractingEmbedded: true).keys.contains { $0.contains("GPSLatitude") }, "the clip carries one")
        let dry = try await run(["share", "--to", "wecom/session", "--dry-run", "--video", clip])
        #expect(dry.status == 0 && dry.standardOutput.contains("MDPM"), "the dry run says it goes: \(dry.standardOutput)")
        let server = try LoopbackHTTPServer { request in
            let answer: JSONValue =
                request.target.hasPrefix("/cgi-bin/webhook/upload_media") ? ["errcode": 0, "errmsg": "ok", "media_id": "m1"] : ["errcode": 0, "errmsg": "ok"]
            return .respond(status: 200, body: answer.encoded())
        }
        defer { server.stop() }
        let posted = try await run(["share", "--to", "wecom/session", "--api-base", server.url(path: "").absoluteString, "--video", clip])
        #expect(posted.status == 0, "\(posted.standardError)")
        let upload = try #require(server.requests.first)
        let parts = MultipartForm.parts(of: upload.body, contentType: upload.headers["content-type"] ?? "") ?? []
        let file = try #require(parts.first { $0.name == "media" })
        #expect(!CamcorderVideos.holdsMDPM(file.data))
        let tags = try ExifTool.tags(of: file.data, fileExtension: "mp4", extractingEmbedded: true)
        #expect(!tags.keys.contains { $0.lowercased().contains("gps") || $0.lowercased().contains("location") }, "\(tags)")
    }
}
