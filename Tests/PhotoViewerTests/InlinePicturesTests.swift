import Foundation
import ImageCodecs
import PhotoViewer
import SystemSupport
import TestSupport
import Testing

@Suite("Pictures among text: rows of thumbnails in every graphics protocol")
struct InlinePicturesTests {
    /// A solid picture.
    static func solid(_ width: Int, _ height: Int, _ rgb: [UInt8]) throws -> Bitmap {
        try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: Array([[UInt8]](repeating: rgb, count: width * height).joined()))
    }

    @Test("kitty: one image per row of pictures, each with an id of its own, the cursor moving past it; a row wraps at the terminal's width")
    func kittyRows() throws {
        var inline = InlinePictures(graphics: .kitty, cellSize: PixelSize(width: 10, height: 20), columns: 49)
        #expect(inline.pixels(columns: 16, rows: 8) == PixelSize(width: 160, height: 160))
        #expect(inline.perRow(columns: 16) == 2, "two 16-cell boxes and a gap fit in 49 columns, three (50) do not")
        let pictures = try [Self.solid(160, 120, [255, 0, 0]), Self.solid(90, 160, [0, 255, 0]), Self.solid(320, 320, [0, 0, 255])]
        let bytes = try inline.rows(pictures, columns: 16, rows: 8)
        let images = try TerminalPayloads.kittyImages(in: bytes)
        #expect(images.map(\.bitmap.size) == [PixelSize(width: 330, height: 160), PixelSize(width: 160, height: 160)])
        #expect(Set(images.compactMap { $0.keys["i"] }).count == 2 && images.allSatisfy { $0.keys["C"] == nil })
        // Red centred in the first box (20 rows of background above and below), a 10-pixel gap, green centred in the second.
        let first = images[0].bitmap
        #expect(Self.pixel(first, 80, 10) == [0, 0, 0] && Self.pixel(first, 80, 80) == [255, 0, 0])
        #expect(Self.pixel(first, 165, 80) == [0, 0, 0] && Self.pixel(first, 170 + 80, 80) == [0, 255, 0] && Self.pixel(first, 170 + 10, 80) == [0, 0, 0])
        // The larger blue one was shrunk into its box.
        #expect(Self.pixel(images[1].bitmap, 0, 0) == [0, 0, 255] && Self.pixel(images[1].bitmap, 159, 159) == [0, 0, 255])
        #expect(bytes.suffix(2) == Array("\r\n".utf8), "the next text starts on a line of its own")
        // Another call draws new images: nothing printed earlier is replaced.
        let again = try TerminalPayloads.kittyImages(in: try inline.rows([pictures[0]], columns: 16, rows: 8))
        #expect(again.first?.keys["i"].map { !images.compactMap { $0.keys["i"] }.contains($0) } == true)
        // Compressed unless told; raw pixels are the same picture.
        #expect(images.allSatisfy { $0.keys["o"] == "z" })
        inline.compressesKittyPictures = false
        let raw = try TerminalPayloads.kittyImages(in: try inline.rows(pictures, columns: 16, rows: 8))
        #expect(raw.allSatisfy { $0.keys["o"] == nil } && raw.map(\.bitmap) == images.map(\.bitmap))
    }

    @Test("from async code the rows are encoded off the cooperative pool: the same bytes, the kitty ids moving on the same way")
    func asyncRows() async throws {
        let pictures = try [Self.solid(160, 120, [255, 0, 0]), Self.solid(90, 160, [0, 255, 0])]
        for graphics in [TerminalGraphics.kitty, .sixel, .ansi] {
            var synchronous = InlinePictures(graphics: graphics, cellSize: PixelSize(width: 10, height: 20), columns: 80)
            var asynchronous = synchronous
            let expected = try { () throws(TerminalError) -> ([UInt8], [UInt8]) in
                (try synchronous.rows(pictures, columns: 16, rows: 8), try synchronous.rows(pictures, columns: 16, rows: 8))
            }()
            let first = try await asynchronous.rows(pictures, columns: 16, rows: 8)
            let second = try await asynchronous.rows(pictures, columns: 16, rows: 8)
            #expect(first == expected.0 && second == expected.1, "\(graphics)")
            if graphics == .kitty { #expect(first != second, "a new image id for the second row") }
        }
    }

    /// Not where the test runs in a terminal: `detect` would ask it questions.
    static var outsideATerminal: Bool { !TerminalPort.standardInputIsTerminal || !TerminalPort.standardOutputIsTerminal }

    @Test("detect decides compression as the viewer does: raw on this machine, compressed across SSH", .enabled(if: outsideATerminal))
    func detectedCompression() {
        #expect(!InlinePictures.detect(graphics: .kitty, environment: [:]).compressesKittyPictures)
        #expect(InlinePictures.detect(graphics: .kitty, environment: ["SSH_CONNECTION": "10.0.0.1 5 10.0.0.2 22"]).compressesKittyPictures)
        #expect(InlinePictures.detect(graphics: .kitty, environment: ["SSH_TTY": "/dev/pts/3"]).compressesKittyPictures)
    }

    @Test("ANSI: the pictures' cells side by side with plain spaces between, as many lines as the tallest, each ending the line")
    func ansiRows() throws {
        var inline = InlinePictures(graphics: .ansi, columns: 80)
        #expect(inline.pixels(columns: 20, rows: 10) == PixelSize(width: 20, height: 20))
        let bytes = try inline.rows([Self.solid(20, 10, [255, 0, 0]), Self.solid(10, 20, [0, 0, 255])], columns: 20, rows: 10, gap: 2)
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 10, "the tall picture needs 10 lines of half blocks")
        let cells = ANSIScreen.cells(lines.joined(separator: "\n"))
        #expect(cells[0].count == 20 + 2 + 20)
        #expect(cells[0][0].character == "▀" && cells[0][0].foreground == [255, 0, 0])
        #expect(cells[0][20].character == " " && cells[0][20].background == nil, "the gap is the terminal's own background")
        #expect(cells[0][22].foreground == [0, 0, 255] && cells[0][32].character == " ")
        #expect(cells[7][0].character == " " && cells[7][22].character == "▀", "under the short picture, spaces; the tall one goes on")
    }

    @Test("sixel and iTerm2: one image per row, the gap filled with the background")
    func otherProtocols() throws {
        var sixel = InlinePictures(graphics: .sixel, cellSize: PixelSize(width: 8, height: 16), columns: 80)
        let bytes = try sixel.rows([Self.solid(40, 40, [9, 9, 9]), Self.solid(40, 40, [9, 9, 9])], columns: 5, rows: 3)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"1;1;88;48"), "two 40 x 48 boxes and an 8-pixel gap")
        var iterm = InlinePictures(graphics: .iterm, cellSize: PixelSize(width: 8, height: 16), columns: 80)
        let files = try TerminalPayloads.itermImages(in: try iterm.rows([Self.solid(40, 40, [9, 9, 9])], columns: 5, rows: 3))
        #expect(try files.map { try DecodedImage(decoding: $0.file).bitmap.size } == [PixelSize(width: 40, height: 48)])
        var empty = InlinePictures(graphics: .sixel)
        #expect(try empty.rows([], columns: 5, rows: 3).isEmpty)
    }

    static func pixel(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        bitmap.withUnsafeBytes { bytes in
            let offset = y * bitmap.bytesPerRow + x * 3
            return [bytes[offset], bytes[offset + 1], bytes[offset + 2]]
        }
    }
}
