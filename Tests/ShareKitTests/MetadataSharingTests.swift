import Foundation
import ImageCodecs
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

/// Every image that leaves through ShareKit carries only what the share's
/// metadata policy keeps, narrowed by the destination; a JPEG that passes
/// through keeps its compressed pixels, turned upright losslessly when needed.
@Suite("Sharing without leaking metadata", .dedicatedThreads)
struct MetadataSharingTests {
    /// A phone photo small enough to pass through Weibo's and WeChat's caps untouched.
    static func phonePhoto(width: Int = 320, height: Int = 240, orientation: Int? = nil) throws -> [UInt8] {
        let plain = try noiseJPEG(width: width, height: height, seed: 31, quality: 85)
        return try ExifTool.writing(
            ExifTool.phoneMetadata + ExifTool.iptcMetadata + (orientation.map { ["-Orientation=\($0)", "-n"] } ?? []), to: plain, fileExtension: "jpg")
    }

    static func tags(_ bytes: [UInt8]) throws -> [String: String] { try ExifTool.tags(of: bytes, fileExtension: "jpg") }

    static func locationOrIdentity(_ tags: [String: String]) -> [String] {
        tags.keys.filter { key in
            key.contains("GPS") || key.hasPrefix("XMP") || key.hasPrefix("IPTC")
                || ["SerialNumber", "LensSerialNumber", "OwnerName", "Artist", "Copyright", "ImageUniqueID", "UserComment"].contains {
                    key.hasSuffix(":" + $0)
                } || key == "File:Comment"
        }.sorted()
    }

    @Test("a GPS-tagged photo under the caps is sent without its location or identity, its pixels untouched")
    func passThroughStrips() async throws {
        let photo = try Self.phonePhoto()
        #expect(try Self.tags(photo)["GPS:GPSLatitude"] != nil)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(photo)]), for: Tables.microblog)
        let sent = prepared.images[0]
        let tags = try Self.tags(sent.bytes)
        #expect(Self.locationOrIdentity(tags).isEmpty, "\(Self.locationOrIdentity(tags))")
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:08:09" && tags["IFD0:Model"] == "EOS R5")
        #expect(sent.removedMetadata.isSuperset(of: [.location, .identifying, .xmp, .iptc, .comment]), "\(sent.removedMetadata)")
        #expect(prepared.adjustments.contains { $0.hasPrefix("removed ") && $0.contains("location") }, "\(prepared.adjustments)")
        #expect(!prepared.adjustments.contains { $0.hasPrefix("re-encoded") }, "no generation lost")
        #expect(try DecodedImage(decoding: sent.bytes).bitmap == DecodedImage(decoding: photo).bitmap)
        #expect(prepared.encodeCount == 0)
    }

    @Test("the user's Location switch keeps the GPS position; a destination can narrow the policy but not widen it")
    func policies() async throws {
        let photo = try Self.phonePhoto()
        var content = ShareContent(images: [.encoded(photo)])
        content.metadata.keepsLocation = true
        var prepared = try await MediaContentAdapter().prepare(content, for: Tables.chatSession)
        #expect(try Self.tags(prepared.images[0].bytes)["GPS:GPSLatitude"] != nil, "kept when the user says so")
        #expect(try Self.tags(prepared.images[0].bytes)["ExifIFD:SerialNumber"] == nil, "serial numbers still go")
        // A destination that takes nothing but the picture.
        var strictTable = Tables.chatSession
        strictTable.images?.metadata = .strict
        prepared = try await MediaContentAdapter().prepare(content, for: strictTable)
        let tags = try Self.tags(prepared.images[0].bytes)
        #expect(tags["GPS:GPSLatitude"] == nil && tags["IFD0:Model"] == nil && tags["ExifIFD:DateTimeOriginal"] == nil, "\(tags.keys.sorted())")
        // keepAll everywhere: the bytes as they were.
        content.metadata = .keepAll
        prepared = try await MediaContentAdapter().prepare(content, for: Tables.chatSession)
        #expect(prepared.images[0].bytes == photo && prepared.images[0].removedMetadata.isEmpty)
        // A thumbnail carries nothing.
        let link = ShareContent(text: "see", link: ShareLink(url: URL(string: "https://example.com")!, thumbnail: .encoded(photo)), metadata: .keepAll)
        let card = try await MediaContentAdapter().prepare(link, for: Tables.chatSession)
        let thumbnailTags = try Self.tags(try #require(card.thumbnail).bytes)
        #expect(Self.locationOrIdentity(thumbnailTags).isEmpty && thumbnailTags["IFD0:Model"] == nil, "\(thumbnailTags.keys.sorted())")
    }

    @Test(
        "a portrait photo (EXIF orientation 6) is turned upright losslessly, not re-encoded; one whose edges are not whole blocks is re-encoded, still without GPS"
    )
    func orientation() async throws {
        let portrait = try Self.phonePhoto(orientation: 6)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(portrait)]), for: Tables.microblog)
        let sent = prepared.images[0]
        #expect(sent.size == PixelSize(width: 240, height: 320))
        #expect(try ImageInfo(probing: sent.bytes).orientation == .up)
        #expect(prepared.adjustments.contains("turned image 1 upright losslessly (EXIF orientation 6)"), "\(prepared.adjustments)")
        #expect(prepared.encodeCount == 0)
        #expect(Self.locationOrIdentity(try Self.tags(sent.bytes)).isEmpty)
        let shown = try DecodedImage(decoding: portrait).bitmap
        #expect(peakSignalToNoise(try DecodedImage(decoding: sent.bytes).bitmap, shown) > 45)
        // 4:2:0 blocks are 16 pixels: 330 x 246 cannot be turned whole.
        let ragged = try Self.phonePhoto(width: 330, height: 246, orientation: 6)
        let reencoded = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(ragged)]), for: Tables.microblog)
        #expect(reencoded.adjustments.contains { $0.hasPrefix("re-encoded image 1") })
        let tags = try Self.tags(reencoded.images[0].bytes)
        #expect(Self.locationOrIdentity(tags).isEmpty, "\(Self.locationOrIdentity(tags))")
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:08:09", "a re-encoded image carries what the policy keeps")
        #expect((Int(tags["IFD0:Orientation"] ?? "1") ?? 0) == 1)
    }

    @Test("ratings, labels and tags go only when the policy keeps them: passed through or re-encoded, with or without the rest of the XMP")
    func marks() async throws {
        let tagged = try ExifTool.writing(
            ["-XMP-xmp:Rating=5", "-XMP-xmp:Label=Red", "-XMP-dc:Subject=Anna", "-XMP-dc:Creator=Jane"], to: try Self.phonePhoto(), fileExtension: "jpg")
        // 4:2:0 blocks are 16 pixels: a portrait of 330 x 246 is re-encoded to be turned.
        let ragged = try ExifTool.writing(
            ["-XMP-xmp:Rating=5", "-XMP-dc:Subject=Anna"], to: try Self.phonePhoto(width: 330, height: 246, orientation: 6), fileExtension: "jpg")
        for (photo, reencodes) in [(tagged, false), (ragged, true)] {
            var content = ShareContent(text: "hi", images: [.encoded(photo)])
            var prepared = try await MediaContentAdapter().prepare(content, for: Tables.microblog)
            var tags = try Self.tags(prepared.images[0].bytes)
            #expect(tags["XMP-xmp:Rating"] == nil && tags["XMP-dc:Subject"] == nil, "dropped by default: \(tags.keys.sorted())")
            #expect(prepared.images[0].removedMetadata.contains(.annotations))
            #expect(prepared.adjustments.contains { $0.hasPrefix("re-encoded") } == reencodes, "\(prepared.adjustments)")
            content.metadata.keepsAnnotations = true
            prepared = try await MediaContentAdapter().prepare(content, for: Tables.microblog)
            tags = try Self.tags(prepared.images[0].bytes)
            #expect(tags["XMP-xmp:Rating"] == "5" && tags["XMP-dc:Subject"] == "Anna", "kept when asked: \(tags.keys.sorted())")
            #expect(
                tags["XMP-dc:Creator"] == nil
                    && Self.locationOrIdentity(tags).allSatisfy { $0.hasPrefix("XMP-xmp") || $0.hasPrefix("XMP-dc:Subject") || $0.hasPrefix("XMP-x:") })
            #expect(!prepared.images[0].removedMetadata.contains(.annotations))
        }
    }

    @Test("an Ultra HDR portrait passes through with its gain map, both turned upright; the map adds no location; a policy may drop it")
    func gainMapKept() async throws {
        let portrait = try Self.phonePhoto(orientation: 6)
        let map = try noiseJPEG(width: 160, height: 120, seed: 32, quality: 90)
        let parameters = try GainMapParameters(
            channels: [.init(minimumBoost: 0, maximumBoost: 3, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], baseHeadroom: 0,
            alternateHeadroom: 3)
        let ultraHDR = try UltraHDRJPEG.assemble(base: portrait, map: map, parameters: parameters)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(ultraHDR)]), for: Tables.microblog)
        let sent = prepared.images[0]
        guard case .present(let found) = UltraHDRJPEG.find(in: sent.bytes) else {
            Issue.record("the gain map was lost: \(UltraHDRJPEG.find(in: sent.bytes)), \(prepared.adjustments)")
            return
        }
        #expect(found.gainMap.size == PixelSize(width: 120, height: 160) && sent.size == PixelSize(width: 240, height: 320))
        #expect(prepared.encodeCount == 0 && !sent.removedMetadata.contains(.gainMap))
        // What finds the map (the directory, hdrgm's version) is all the XMP that leaves.
        let leaks = Self.locationOrIdentity(try Self.tags(sent.bytes)).filter { !$0.hasPrefix("XMP-Container:Directory") && !$0.hasPrefix("XMP-hdrgm:") }
        #expect(leaks.isEmpty, "\(leaks)")
        var content = ShareContent(text: "hi", images: [.encoded(ultraHDR)])
        content.metadata.keepsGainMap = false
        let flat = try await MediaContentAdapter().prepare(content, for: Tables.microblog)
        #expect(UltraHDRJPEG.find(in: flat.images[0].bytes) == .absent && flat.images[0].removedMetadata.contains(.gainMap))
    }

    @Test("an Ultra HDR photo over the cap is re-encoded with its map (photo and map under the cap together); PNG only: it goes flat and says so")
    func gainMapReencoded() async throws {
        let photo = try noiseJPEG(width: 1200, height: 900, seed: 33, quality: 95)
        // A gain map is smooth: a gradient (the noise map below cannot fit a quarter of the cap).
        let map = try Bitmap.gradient(width: 300, height: 225).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let parameters = try GainMapParameters(
            channels: [.init(minimumBoost: 0, maximumBoost: 2, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], baseHeadroom: 0,
            alternateHeadroom: 2)
        let ultraHDR = try UltraHDRJPEG.assemble(base: photo, map: map, parameters: parameters)
        #expect(ultraHDR.count > Tables.microblog.images!.maxBytes)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(ultraHDR)]), for: Tables.microblog)
        let sent = prepared.images[0]
        #expect(sent.bytes.count <= Tables.microblog.images!.maxBytes && prepared.encodeCount > 0)
        guard case .present(let found) = UltraHDRJPEG.find(in: sent.bytes) else {
            Issue.record("the gain map was lost: \(UltraHDRJPEG.find(in: sent.bytes)), \(prepared.adjustments)")
            return
        }
        // The map keeps its quarter of the photo's sides, and its colour.
        let size = try #require(found.gainMap.size)
        #expect(abs(size.width * 4 - sent.size.width) <= 4 && abs(size.height * 4 - sent.size.height) <= 4, "\(size) for \(sent.size)")
        #expect(found.gainMap.channelCount == 3 && !sent.removedMetadata.contains(.gainMap))
        // A map that would take more than a quarter of the cap: the photo goes flat rather than smaller.
        let noisy = try UltraHDRJPEG.assemble(base: photo, map: try noiseJPEG(width: 300, height: 225, seed: 34, quality: 90), parameters: parameters)
        let withoutMap = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(noisy)]), for: Tables.microblog)
        #expect(UltraHDRJPEG.find(in: withoutMap.images[0].bytes) == .absent && withoutMap.images[0].removedMetadata.contains(.gainMap))
        var pngOnly = Tables.microblog
        pngOnly.images?.formats = [.png]
        pngOnly.images?.maxBytes = 5_000_000
        let flat = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(ultraHDR)]), for: pngOnly)
        #expect(flat.images[0].format == .png && flat.images[0].removedMetadata.contains(.gainMap))
    }

    @Test("an iPhone HDR HEIC sent where only JPEG goes arrives as Ultra HDR: Apple's map converted, its headroom kept")
    func appleGainMapTranscoded() async throws {
        let photo = Bitmap.gradient(width: 320, height: 240)
        let levels: [UInt8] = (0..<(80 * 60)).map { (index: Int) -> UInt8 in UInt8(index % 80 * 3) }
        let map = try Bitmap(width: 80, height: 60, pixelFormat: .gray8, pixels: levels)
        let heic = try TestHDRPhotos.iPhoneHEIC(photo: photo, map: map)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "hi", images: [.encoded(heic)]), for: Tables.microblog)
        let sent = prepared.images[0]
        #expect(sent.format == .jpeg && sent.bytes.count <= Tables.microblog.images!.maxBytes)
        guard case .present(let found) = UltraHDRJPEG.find(in: sent.bytes) else {
            Issue.record("no gain map: \(UltraHDRJPEG.find(in: sent.bytes)), \(prepared.adjustments)")
            return
        }
        #expect(found.gainMap.size == PixelSize(width: 80, height: 60) && abs(found.gainMap.parameters.alternateHeadroom - 2.72) < 1e-5)
        #expect(!sent.removedMetadata.contains(.gainMap), "\(sent.removedMetadata)")
    }

    @Test("the outbox keeps each share's policy: a queued share is sent as it was chosen")
    func outboxPolicy() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        let center = ShareCenter(adapter: .media)
        await center.register(provider)
        let target = ShareTarget(provider: provider.id, destination: .timeline, displayName: "Chat")
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        let photo = try Self.phonePhoto()
        try await outbox.enqueue(ShareContent(text: "default", images: [.encoded(photo)]), to: target)
        var located = ShareContent(text: "located", images: [.encoded(photo)])
        located.metadata.keepsLocation = true
        try await outbox.enqueue(located, to: target)
        _ = await outbox.process()
        let sent = provider.recordedShares.map { $0.content.images[0].bytes }
        #expect(sent.count == 2)
        #expect(try Self.tags(sent[0])["GPS:GPSLatitude"] == nil)
        #expect(try Self.tags(sent[1])["GPS:GPSLatitude"] != nil)
    }
}
