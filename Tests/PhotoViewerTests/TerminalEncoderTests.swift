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

    @Test("sixel: libsixel decodes the DCS back to the canvas's size, within palette error (PSNR ≥ 30 dB)")
    func sixel() throws {
        let bytes = try SixelImageEncoder().encode(Self.canvas, cellSize: PixelSize(width: 10, height: 20))
        #expect(bytes.starts(with: [0x1B, UInt8(ascii: "P")]))
        #expect(bytes.suffix(2) == [0x1B, 0x5C])
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
        #expect(status == SIXEL_OK)
        #expect(width == 161)
        // Sixel bands are 6 rows high: the decoded image may be padded to a multiple of 6.
        #expect(height >= 97 && height < 97 + 6)
        #expect(colours > 16 && colours <= 256)
        let indices = try #require(pixels)
        let table = try #require(palette)
        var rgb = [UInt8](repeating: 0, count: 161 * 97 * 3)
        for index in 0..<(161 * 97) {
            let entry = Int(indices[index])
            rgb[index * 3] = table[entry * 3]
            rgb[index * 3 + 1] = table[entry * 3 + 1]
            rgb[index * 3 + 2] = table[entry * 3 + 2]
        }
        let decoded = try Bitmap(width: 161, height: 97, pixelFormat: .rgb8, pixels: rgb)
        let psnr = peakSignalToNoise(decoded, Self.canvas)
        #expect(psnr >= 30, "sixel PSNR \(psnr) dB")
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
