import CSixel
import Foundation
import ImageCodecs
import PhotoViewer
import TestSupport
import Testing

/// Each terminal protocol's bytes, decoded back the way a terminal would, give the canvas again.
@Suite("Terminal graphics encoders")
struct TerminalEncoderTests {
    static let canvas = Bitmap.gradient(width: 161, height: 97)

    @Test("kitty: chunks of at most 4096 base64 bytes, m=1 until the last; the payload inflates to the exact RGB pixels")
    func kitty() throws {
        let bytes = try KittyImageEncoder(imageID: 3).encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20))
        let images = try TerminalPayloads.kittyImages(in: bytes)
        #expect(images.count == 1)
        let image = try #require(images.first)
        #expect(image.chunks.count > 1)
        #expect(image.chunks[0].keys == "a=T,f=24,o=z,s=161,v=97,i=3,C=1,q=2,m=1")
        for (index, chunk) in image.chunks.enumerated() {
            #expect(chunk.keys.hasSuffix(index == image.chunks.count - 1 ? "m=0" : "m=1"))
            #expect(chunk.payloadLength <= 4096)
        }
        #expect(image.bitmap.pixels == Self.canvas.pixels)
        #expect(KittyImageEncoder().clearImages == Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8))
    }

    @Test("kitty: pixels go raw (no o=z) when not compressing, or when compression does not shrink them (noise); exact either way")
    func kittyRaw() throws {
        var raw = KittyImageEncoder(imageID: 3)
        raw.compresses = false
        let plain = try #require(try TerminalPayloads.kittyImages(in: raw.encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20))).first)
        #expect(plain.chunks[0].keys == "a=T,f=24,s=161,v=97,i=3,C=1,q=2,m=1")
        #expect(plain.bitmap.pixels == Self.canvas.pixels)
        // The raw payload is the pixels' base64: 4/3 of 161 x 97 x 3 bytes, against far less compressed.
        let payloadLength: Int = plain.chunks.map(\.payloadLength).reduce(0, +)
        let rawBase64Length: Int = (161 * 97 * 3 + 2) / 3 * 4
        #expect(payloadLength == rawBase64Length)
        let noise = Bitmap.noise(width: 200, height: 150, seed: 26)
        let noiseBytes = try KittyImageEncoder().encode(noise, cellSize: PixelSize(width: 10, height: 20))
        let compressedNoise = try #require(try TerminalPayloads.kittyImages(in: noiseBytes).first)
        #expect(compressedNoise.keys["o"] == nil, "zlib makes noise bigger: sent raw")
        #expect(compressedNoise.bitmap.pixels == noise.tightlyPackedPixels)
        #expect(TerminalDetection.isRemote(environment: ["SSH_CONNECTION": "10.0.0.2 51000 10.0.0.1 22"]))
        #expect(TerminalDetection.isRemote(environment: ["SSH_TTY": "/dev/pts/3", "TERM": "xterm-kitty"]))
        #expect(!TerminalDetection.isRemote(environment: ["SSH_CONNECTION": "", "TERM": "xterm-kitty"]))
        #expect(!TerminalDetection.isRemote(environment: [:]))
    }

    @Test("kitty: a frame under the other image id deletes the last frame's image after it (d=I), never before; no id, or its own, deletes nothing")
    func kittyReplacesAfterDrawing() throws {
        let encoder = KittyImageEncoder(imageID: 8, replacing: 7)
        #expect(encoder.clearEarlierFrame == Array("\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\".utf8))
        let picture = try TerminalPayloads.kittyImages(in: try encoder.encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20)))
        #expect(picture.first?.chunks[0].keys.contains("i=8,") == true)
        #expect(KittyImageEncoder().clearEarlierFrame.isEmpty)
        #expect(KittyImageEncoder(imageID: 7, replacing: 7).clearEarlierFrame.isEmpty)
        #expect(SixelImageEncoder().clearEarlierFrame.isEmpty && HalfBlockImageEncoder().clearEarlierFrame.isEmpty)
    }

    @Test("iTerm2: one OSC 1337 File sequence whose PNG decodes to the exact pixels; size= is the PNG's byte count")
    func iterm() throws {
        let bytes = try ITermImageEncoder().encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;"))
        #expect(text.hasSuffix("\u{07}"))
        let images = try TerminalPayloads.itermImages(in: bytes)
        #expect(images.count == 1)
        let image = try #require(images.first)
        #expect(image.arguments["width"] == "161px" && image.arguments["height"] == "97px" && image.arguments["preserveAspectRatio"] == "0")
        #expect(image.arguments["size"] == "\(image.file.count)")
        let decoded = try DecodedImage(decoding: image.file).bitmap
        #expect(decoded.size == Self.canvas.size)
        #expect(peakSignalToNoise(decoded, Self.canvas) == .infinity)
    }

    /// The first sixel picture in `bytes` decoded by libsixel (another
    /// library than the encoder's), cut to `size`: the decode is padded to
    /// whole six-row bands.
    static func decodeSixel(_ bytes: [UInt8], size: PixelSize) throws -> (bitmap: Bitmap, colours: Int, decodedHeight: Int) {
        var input = bytes
        var pixels: UnsafeMutablePointer<UInt8>?
        var palette: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var colours: Int32 = 0
        let status = sixel_decode_raw(&input, Int32(input.count), &pixels, &width, &height, &palette, &colours, nil)
        defer {
            free(pixels)
            free(palette)
        }
        try #require(status == SIXEL_OK)
        try #require(Int(width) == size.width && Int(height) >= size.height)
        let indices = try #require(pixels)
        let table = try #require(palette)
        var rgb = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for index in 0..<(size.width * size.height) {
            let entry = Int(indices[index])
            for channel in 0..<3 { rgb[index * 3 + channel] = table[entry * 3 + channel] }
        }
        return (try Bitmap(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: rgb), Int(colours), Int(height))
    }

    @Test("sixel: one DCS whose header says the canvas's size; libsixel decodes it back within palette error", arguments: SixelImageEncoder.Dithering.allCases)
    func sixel(_ dithering: SixelImageEncoder.Dithering) throws {
        let bytes = try SixelImageEncoder(dithering: dithering).encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20))
        #expect(bytes.starts(with: Array("\u{1B}P0;1;0q\"1;1;161;97#".utf8)), "raster attributes: the true height, not the banded 102")
        #expect(bytes.suffix(2) == [0x1B, 0x5C])
        #expect(bytes.filter { $0 == 0x1B }.count == 2, "one picture")
        let decoded = try Self.decodeSixel(bytes, size: Self.canvas.size)
        // Sixel bands are 6 rows high; the last band's extra 5 rows are
        // transparent, and a decoder sizes the picture by the header: 97 rows.
        #expect(decoded.decodedHeight == 97)
        #expect(decoded.colours > 16 && decoded.colours <= 256)
        // A smooth three-channel gradient has 15,000 colours for 256 registers.
        let psnr = peakSignalToNoise(decoded.bitmap, Self.canvas)
        #expect(psnr >= (dithering == .none ? 29 : 26), "sixel PSNR \(psnr) dB")
    }

    @Test(
        "sixel: a photo comes back at 33 dB or better with no dithering (libsixel's diffusion got 33.2 dB on the benchmark's), in any pixel format and height",
        arguments: [PixelFormat.rgb8, .rgba8, .gray8], [320, 317])
    func sixelPhoto(_ format: PixelFormat, _ height: Int) throws {
        let photo = try DecodedImage(
            renderingFileAt: TestData.root.appendingPathComponent("exif-orientation-examples/Landscape_1.jpg").path,
            in: PixelSize(width: 480, height: height), mode: .fill
        ).bitmap.converted(to: format)
        let bytes = try SixelImageEncoder().encode(photo, cellSize: PixelSize(width: 10, height: 20))
        #expect(bytes.starts(with: Array("\u{1B}P0;1;0q\"1;1;480;\(height)#".utf8)))
        let psnr = peakSignalToNoise(try Self.decodeSixel(bytes, size: photo.size).bitmap, photo.converted(to: .rgb8))
        #expect(psnr >= 33, "sixel PSNR \(psnr) dB")
    }

    @Test("sixel's raster height is rewritten only in the header, whatever the width")
    func rasterHeight() {
        func rewritten(_ text: String, to height: Int, from banded: Int) -> String {
            var bytes = Array(text.utf8)
            SixelImageEncoder.setRasterHeight(of: &bytes, to: height, from: banded)
            return String(decoding: bytes, as: UTF8.self)
        }
        let header = "\u{1B}P0;1;0q\"1;1;222;222#0;2;0;0;0-\u{1B}\\"
        #expect(rewritten(header, to: 220, from: 222) == "\u{1B}P0;1;0q\"1;1;222;220#0;2;0;0;0-\u{1B}\\")
        #expect(rewritten(header, to: 97, from: 222) == "\u{1B}P0;1;0q\"1;1;222;97#0;2;0;0;0-\u{1B}\\")
        #expect(rewritten(header, to: 220, from: 228) == header)
        let noRaster = "\u{1B}P0;1;0q#0;2;0;0;0-\u{1B}\\"
        #expect(rewritten(noRaster, to: 1, from: 6) == noRaster)
    }

    @Test("ANSI half blocks: each cell's foreground is the upper pixel and its background the lower, exactly")
    func halfBlocks() throws {
        let canvas = Bitmap.gradient(width: 40, height: 23)
        let bytes = try HalfBlockImageEncoder().encode(canvas, cellSize: PixelSize(width: 1, height: 2))
        let cells = ANSIScreen.cells(String(decoding: bytes, as: UTF8.self))
        #expect(cells.count == 12)
        #expect(cells.allSatisfy { $0.count == 40 })
        for (row, line) in cells.enumerated() {
            for (column, cell) in line.enumerated() {
                #expect(cell.character == "▀")
                #expect(cell.foreground == Array(canvas[column, row * 2].prefix(3)))
                // The last cell row of an odd-height canvas leaves its lower half to the terminal's background.
                let lower = row * 2 + 1 < canvas.height ? Array(canvas[column, row * 2 + 1].prefix(3)) : nil
                #expect(cell.background == lower)
            }
        }
        // Rows end with a colour reset and CR LF (the picture scrolls like text); no cursor movement.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}[0m\r\n").count == 12)
        #expect(!text.contains("\u{1B}[1B"))
    }
}
