import Testing

@testable import ImageCodecs

@Suite("PNG text chunks")
struct PNGTextTests {
    static func png() throws -> [UInt8] {
        try Bitmap(width: 2, height: 1, pixelFormat: .rgb8, pixels: [1, 2, 3, 4, 5, 6]).encoded(as: .png)
    }

    @Test("tEXt written after IHDR reads back; the image still decodes the same")
    func roundTrip() throws {
        let tagged = try PNGText.adding([("Thumb::URI", "file:///a%20b.jpg"), ("Thumb::MTime", "1700000000.000001"), ("Title", "café")], to: try Self.png())
        #expect(PNGText.entries(in: tagged) == ["Thumb::URI": "file:///a%20b.jpg", "Thumb::MTime": "1700000000.000001", "Title": "café"])
        #expect(try DecodedImage(decoding: tagged).bitmap.pixels == [1, 2, 3, 4, 5, 6])
    }

    @Test("zTXt and iTXt (compressed or not) are read; a chunk whose CRC is wrong, or that inflates past the limit, is not")
    func otherKinds() throws {
        let base = try Self.png()
        let compressed = PNGCodec.chunk("zTXt", Array("Comment".utf8) + [0, 0] + Inflate.deflated(Array("squeezed".utf8)))
        let international = PNGCodec.chunk("iTXt", Array("Description".utf8) + [0, 0, 0] + Array("en".utf8) + [0, 0] + Array("日本".utf8))
        let zipped = PNGCodec.chunk("iTXt", Array("Note".utf8) + [0, 1, 0, 0, 0] + Inflate.deflated(Array("packed".utf8)))
        var broken = PNGCodec.chunk("tEXt", Array("Bad".utf8) + [0] + Array("crc".utf8))
        broken[broken.count - 1] ^= 0xFF
        let bomb = PNGCodec.chunk("zTXt", Array("Bomb".utf8) + [0, 0] + Inflate.deflated([UInt8](repeating: 65, count: 100_000)))
        let all = Array(base[..<33]) + compressed + international + zipped + broken + bomb + Array(base[33...])
        let entries = PNGText.entries(in: all, limit: 50_000)
        #expect(entries == ["Comment": "squeezed", "Description": "日本", "Note": "packed"])
        #expect(PNGText.entries(in: Array("not a png".utf8)).isEmpty)
        // Truncated in the middle of a chunk: what came before is kept.
        #expect(PNGText.entries(in: Array(all.prefix(33 + compressed.count + 5))) == ["Comment": "squeezed"])
    }

    @Test("keywords and texts outside Latin-1, empty or too long keywords, and non-PNG data are refused")
    func refusals() throws {
        let png = try Self.png()
        #expect(throws: ImageCodecError.self) { try PNGText.adding([("", "x")], to: png) }
        #expect(throws: ImageCodecError.self) { try PNGText.adding([(String(repeating: "k", count: 80), "x")], to: png) }
        #expect(throws: ImageCodecError.self) { try PNGText.adding([("Key", "日本")], to: png) }
        #expect(throws: ImageCodecError.self) { try PNGText.adding([("Key", "a\u{0}b")], to: png) }
        #expect(throws: ImageCodecError.self) { try PNGText.adding([("Key", "x")], to: [1, 2, 3]) }
    }
}
