import Foundation
import ImageCodecs
import ShareKit
import ShareMedia
import TestSupport
import Testing

/// Constraint tables like the real providers'.
enum Tables {
    static let chatSession = ShareConstraints(
        text: .init(maxLength: 10_240), images: .init(maxCount: 1, maxBytes: 10_000_000, formats: [.jpeg, .png]),
        thumbnail: .init(maxBytes: 32_768, maxSize: PixelSize(width: 200, height: 200)), links: .object(maxTitleLength: 64, maxSummaryLength: 128),
        allowsMixedContent: false
    )
    static let microblog = ShareConstraints(
        text: .init(maxLength: 140, counting: .weibo, isRequired: true), images: .init(maxCount: 9, maxBytes: 200_000, formats: [.jpeg], maxDimension: 2048),
        links: .inText
    )
    static let textOnly = ShareConstraints(text: .init(maxLength: 50), images: nil, links: .unsupported)
}

@Suite("Content adaptation", .dedicatedThreads)
struct AdaptationTests {
    @Test("large images are re-encoded under the byte cap; small ones pass untouched")
    func byteCaps() async throws {
        let big = try noiseJPEG(width: 1600, height: 1200, quality: 95)
        #expect(big.count > 1_000_000)
        let small = try Bitmap.noise(width: 64, height: 48, seed: 4).encoded(as: .jpeg)
        let adapter = MediaContentAdapter()
        let prepared = try await adapter.prepare(ShareContent(text: "caps", images: [.encoded(big), .encoded(small)]), for: Tables.microblog)
        #expect(prepared.images.count == 2)
        #expect(prepared.images[0].bytes.count <= 200_000)
        #expect(prepared.images[0].format == .jpeg)
        #expect(prepared.images[1].bytes == small)
        #expect(prepared.encodeCount >= 2)
        let decoded = try DecodedImage(decoding: prepared.images[0].bytes)
        #expect(decoded.bitmap.width <= 2048)
    }

    @Test("images in other formats, oversized or rotated, are converted")
    func conversion() async throws {
        let webp = try Bitmap.noise(width: 3000, height: 100, seed: 2).encoded(as: .webp)
        let rotated = try noiseJPEG(width: 120, height: 80, quality: 95, orientation: .right)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "x", images: [.encoded(webp), .encoded(rotated)]), for: Tables.microblog)
        #expect(prepared.images[0].format == .jpeg)
        #expect(prepared.images[0].size == PixelSize(width: 2048, height: 68))
        #expect(prepared.images[1].size == PixelSize(width: 80, height: 120), "orientation applied once, into the pixels")
        #expect(try ImageInfo(probing: prepared.images[1].bytes).orientation == .up)
    }

    @Test("thumbnails come in under their cap and box")
    func thumbnail() async throws {
        let photo = try noiseJPEG(width: 1200, height: 900, quality: 95)
        let link = ShareLink(
            url: URL(string: "https://example.com/a")!, title: String(repeating: "T", count: 100), summary: "s",
            thumbnail: .encoded(photo))
        let prepared = try await MediaContentAdapter().prepare(ShareContent(link: link), for: Tables.chatSession)
        let thumbnail = try #require(prepared.thumbnail)
        #expect(thumbnail.bytes.count <= 32_768)
        #expect(thumbnail.size.width <= 200 && thumbnail.size.height <= 200)
        #expect(prepared.link?.title?.count == 64)
    }

    @Test("a link card's thumbnail fills a cropping rule's square where the strategy chooses; a picture message's keeps its shape")
    func croppedThumbnail() async throws {
        // The labelled scene: a face at x 407...461 of a 480x320 photo, which a centre square misses.
        let photo = try fileBytes(TestData.packageRoot.appendingPathComponent("Tests/Fixtures/smartcrop/generated/scene05-face.jpg"))
        var table = Tables.chatSession
        table.thumbnail?.crop = .attention
        let link = ShareLink(url: URL(string: "https://example.com/a")!, title: "t", thumbnail: .encoded(photo))
        let card = try #require(try await MediaContentAdapter().prepare(ShareContent(link: link), for: table).thumbnail)
        #expect(card.size == PixelSize(width: 200, height: 200))
        let expected = try DecodedImage(
            rendering: photo, in: PixelSize(width: 200, height: 200), mode: .fill, options: RenditionOptions(crop: .attention))
        #expect(try #require(expected.crop).x > 80, "the face side, not the middle")
        let sent = try DecodedImage(decoding: card.bytes).bitmap
        let difference = zip(sent.pixels, expected.bitmap.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(sent.pixels.count == expected.bitmap.pixels.count && difference / sent.pixels.count <= 3, "JPEG of the same pixels")
        // The same rule for a picture: the thumbnail previews it whole.
        let message = try #require(try await MediaContentAdapter().prepare(ShareContent(images: [.encoded(photo)]), for: table).thumbnail)
        #expect(message.size == PixelSize(width: 200, height: 133))
        // A bitmap source is filled the same way.
        let drawn = ShareLink(url: URL(string: "https://example.com/b")!, title: "t", thumbnail: .bitmap(try DecodedImage(decoding: photo).bitmap))
        #expect(
            try #require(try await MediaContentAdapter().prepare(ShareContent(link: drawn), for: table).thumbnail).size == PixelSize(width: 200, height: 200))
    }

    @Test("links move into the text and the text is cut the provider's way")
    func linkInText() async throws {
        let text = String(repeating: "好", count: 200)
        let content = ShareContent(text: text, link: ShareLink(url: URL(string: "https://example.com/post/1")!))
        let prepared = try await MediaContentAdapter().prepare(content, for: Tables.microblog)
        let final = try #require(prepared.text)
        #expect(final.hasSuffix(" https://example.com/post/1"))
        #expect(TextCounting.weibo.length(of: final) <= 140)
        #expect(prepared.link == nil)
        #expect(prepared.adjustments.contains("moved the link into the text"))
    }

    @Test("every violation adaptation cannot fix is reported at once")
    func violations() async {
        let tooMany = ShareContent(text: nil, images: Array(repeating: .encoded([1, 2, 3]), count: 10))
        await #expect(
            throws: ShareError.invalidContent([.textRequired, .tooManyImages(count: 10, maxCount: 9)])
        ) { try await MediaContentAdapter().prepare(tooMany, for: Tables.microblog) }
        let mixed = ShareContent(text: "t", images: [.encoded([1])], link: ShareLink(url: URL(string: "https://e.com")!))
        do {
            _ = try await MediaContentAdapter().prepare(mixed, for: Tables.chatSession)
            Issue.record("mixed content passed")
        } catch {
            guard case .invalidContent(let found) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(found.first == .linkWithImages)
            #expect(found.count == 2 && { if case .unreadableImage(index: 0, _) = found[1] { true } else { false } }(), "\(found)")
        }
        await #expect(throws: ShareError.invalidContent([.linkNotAccepted])) {
            try await MediaContentAdapter().prepare(ShareContent(text: "a", link: ShareLink(url: URL(string: "https://e.com")!)), for: Tables.textOnly)
        }
        await #expect(throws: ShareError.invalidContent([.emptyContent])) {
            try await MediaContentAdapter().prepare(ShareContent(), for: Tables.textOnly)
        }
    }
}

@Suite("Content adaptation of phone formats", .dedicatedThreads)
struct PhoneFormatAdaptationTests {
    @Test("a shared HEIC tagged Adobe RGB becomes a JPEG the provider takes, converted to sRGB with the sRGB profile embedded")
    func heic() async throws {
        let adobe = try #require(ColorProfile(iccData: try fileBytes(URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc"))))
        let flat = try Bitmap(width: 400, height: 300, pixelFormat: .rgb8, pixels: Array([[UInt8]](repeating: [128, 64, 200], count: 120_000).joined()))
        let heic = try HEIFTool.encode(png: try flat.encoded(as: .png, options: EncodeOptions(colorProfile: adobe)))
        #expect(ImageCodecRegistry.shared.format(of: heic) == .heic)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "phone photo", images: [.encoded(heic)]), for: Tables.microblog)
        let image = try #require(prepared.images.first)
        #expect(image.format == .jpeg && image.size == PixelSize(width: 400, height: 300))
        let kept = try DecodedImage(decoding: image.bytes, options: DecodeOptions(colorHandling: .preserve))
        #expect(kept.colorProfile?.isSRGB == true, "the JPEG says what its pixels are")
        // transicc -i AdobeRGB1998.icc -o *sRGB: (128, 64, 200) → (146, 62, 205).
        let pixel = Array(kept.bitmap[200, 150]).map(Int.init)
        #expect(abs(pixel[0] - 146) <= 8 && abs(pixel[1] - 62) <= 8 && abs(pixel[2] - 205) <= 8, "\(pixel)")
    }

    @Test("AVIF is accepted and converted like any other format")
    func gifAndAVIF() async throws {
        let avif = try HEIFTool.encode(png: try Bitmap.noise(width: 120, height: 90, seed: 8).encoded(as: .png), avif: true)
        let prepared = try await MediaContentAdapter().prepare(ShareContent(text: "avif", images: [.encoded(avif)]), for: Tables.microblog)
        #expect(prepared.images.first?.format == .jpeg && prepared.images.first?.size == PixelSize(width: 120, height: 90))
    }
}
