import Execution
public import Foundation
public import ImageCodecs

/// Pictures printed among lines of text (a feed's thumbnails under each
/// post), as opposed to ``TerminalViewer``'s full screen: each row of
/// pictures is drawn at the cursor with the best graphics the terminal
/// offers and leaves the cursor at the start of the line below it, so text
/// printed next follows the pictures and everything scrolls together.
///
/// ```swift
/// var inline = await InlinePictures.detect()
/// let box = inline.pixels(columns: 16, rows: 8)      // what to load each thumbnail at
/// let bitmaps = try await thumbnails(fitting: box)
/// FileHandle.standardOutput.write(Data(try await inline.rows(bitmaps, columns: 16, rows: 8)))
/// ```
///
/// kitty, iTerm2 and sixel draw one image per row of pictures (the gaps
/// filled with ``FrameCompositor/background``); ANSI colour blocks draw
/// each picture as cells with plain spaces between them.
public struct InlinePictures: Sendable {
    /// The graphics used.
    public var graphics: TerminalGraphics
    /// Pixels per character cell (10×20 when the terminal does not tell).
    public var cellSize: PixelSize
    /// The terminal's width in cells: a row holds the pictures that fit.
    public var columns: Int
    /// Whether kitty pictures are zlib-compressed (``KittyImageEncoder/compresses``):
    /// `true` unless set; `detect(graphics:environment:queryTimeout:)` sets
    /// it to ``TerminalDetection/isRemote(environment:)``, as the viewer does,
    /// so a terminal on this machine gets the pixels raw.
    public var compressesKittyPictures = true
    /// The next kitty image id: each row is an image of its own, kept in
    /// the scrollback (one id reused would move the earlier picture).
    private var nextImageID = 1_000

    /// Pictures for a terminal with these properties.
    public init(graphics: TerminalGraphics, cellSize: PixelSize = PixelSize(width: 10, height: 20), columns: Int = 80) {
        self.graphics = graphics
        self.cellSize = PixelSize(width: max(1, cellSize.width), height: max(1, cellSize.height))
        self.columns = max(1, columns)
    }

    /// The terminal on standard output, as the viewer finds it: `graphics`
    /// when given, else from the environment and, when standard input and
    /// output are both terminals, its answers to the graphics questions
    /// (``TerminalDetection/graphicsQuery``, waited for until the DA1 answer,
    /// at most `queryTimeout` or ``TerminalDetection/graphicsAnswerWait``,
    /// whichever is longer) and to a text area size query (pixels per cell,
    /// at most `queryTimeout` milliseconds). Not a terminal: ANSI unless
    /// told, `COLUMNS` wide. kitty pictures are compressed only for a
    /// terminal across SSH (``compressesKittyPictures``).
    ///
    /// This waits for the terminal's answers and for tmux, blocking the
    /// calling thread; async code awaits the async overload, which asks on
    /// the execution floor's blocking queue.
    @available(*, noasync, message: "it waits for the terminal; async code awaits the async detect(graphics:environment:queryTimeout:)")
    public static func detect(
        graphics: TerminalGraphics? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, queryTimeout: Int = 200
    ) -> InlinePictures {
        detecting(graphics: graphics, environment: environment, queryTimeout: queryTimeout)
    }

    /// The terminal on standard output, found as the blocking
    /// `detect(graphics:environment:queryTimeout:)` finds it, on the
    /// execution floor's blocking queue: the calling task is suspended, not
    /// blocked, while the terminal and tmux answer.
    public static func detect(
        graphics: TerminalGraphics? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, queryTimeout: Int = 200
    ) async -> InlinePictures {
        await BlockingWork.run { detecting(graphics: graphics, environment: environment, queryTimeout: queryTimeout) }
    }

    /// What both `detect`s do, on the calling thread.
    private static func detecting(graphics: TerminalGraphics?, environment: [String: String], queryTimeout: Int) -> InlinePictures {
        var pictures = terminalOnStandardOutput(graphics: graphics, environment: environment, queryTimeout: queryTimeout)
        pictures.compressesKittyPictures = TerminalDetection.isRemote(environment: environment)
        return pictures
    }

    /// The graphics and size part of `detect(graphics:environment:queryTimeout:)`.
    private static func terminalOnStandardOutput(graphics: TerminalGraphics?, environment: [String: String], queryTimeout: Int) -> InlinePictures {
        guard let device = try? TerminalDevice() else { return InlinePictures(graphics: graphics ?? .ansi) }
        var size = device.size(environment: environment)
        var chosen = graphics
        let canAsk = device.isInputTerminal && device.isOutputTerminal
        if canAsk, (try? device.enterRawMode()) != nil {
            defer { device.restore() }
            var decoder = TerminalKeyDecoder()
            if chosen == nil, environment["TMUX"] == nil, environment["STY"] == nil {
                let asked = device.askAll(
                    TerminalDetection.graphicsQuery, timeout: max(queryTimeout, TerminalDetection.graphicsAnswerWait), decoder: &decoder,
                    isAnswer: TerminalDetection.isDeviceAttributes)
                chosen = TerminalDetection.graphics(environment: environment, replies: asked.replies)
            }
            if chosen?.drawsPixels == true, size.pixelWidth == 0 {
                let (reply, _) = device.ask("\u{1B}[14t", timeout: queryTimeout, decoder: &decoder) { $0.last == UInt8(ascii: "t") }
                if let reply, let pixels = TerminalDetection.textAreaPixels(reply) {
                    size.pixelWidth = pixels.width
                    size.pixelHeight = pixels.height
                }
            }
        }
        let found = chosen ?? (canAsk ? TerminalDetection.graphics(environment: environment, deviceAttributes: nil) : .ansi)
        // Pictures among lines of text have no place the outer terminal knows: colour blocks in tmux or screen.
        let usable = TerminalDetection.graphics(found, through: TerminalMultiplexer.detecting(environment: environment, timeout: .seconds(1)), inline: true)
        return InlinePictures(graphics: usable, cellSize: size.cellSize, columns: size.columns)
    }

    /// The pixels a box of `columns` × `rows` cells shows: what to load a
    /// picture at. ANSI shows one pixel across and two down per cell.
    public func pixels(columns: Int, rows: Int) -> PixelSize {
        graphics.drawsPixels
            ? PixelSize(width: max(1, columns * cellSize.width), height: max(1, rows * cellSize.height))
            : PixelSize(width: max(1, columns), height: max(1, rows * 2))
    }

    /// How many boxes `columns` cells wide fit on a line, `gap` cells apart.
    public func perRow(columns box: Int, gap: Int = 1) -> Int {
        max(1, (columns + gap) / max(1, box + gap))
    }

    /// The bytes that draw `pictures` left to right in boxes of `columns`
    /// × `rows` cells, `gap` cells apart, starting at the cursor's line
    /// (column 1), as many rows as they need; the cursor ends at the start
    /// of the line after the last. Each picture should already fit its box
    /// (``pixels(columns:rows:)``); a larger one is shrunk to fit.
    public mutating func rows(_ pictures: [Bitmap], columns box: Int, rows height: Int, gap: Int = 1) throws(TerminalError) -> [UInt8] {
        guard !pictures.isEmpty else { return [] }
        let (box, height, gap) = (max(1, box), max(1, height), max(0, gap))
        let boxPixels = pixels(columns: box, rows: height)
        let fitted = pictures.map { Self.fit($0, in: boxPixels) }
        let perRow = perRow(columns: box, gap: gap)
        var out: [UInt8] = []
        for start in stride(from: 0, to: fitted.count, by: perRow) {
            let row = Array(fitted[start..<min(fitted.count, start + perRow)])
            if graphics.drawsPixels {
                let strip = FrameCompositor.strip(row, box: boxPixels, gap: gap * cellSize.width)
                let encoder: any TerminalImageEncoder
                if graphics == .kitty {
                    var kitty = KittyImageEncoder(imageID: nextImageID, movesCursor: true)
                    kitty.compresses = compressesKittyPictures
                    encoder = kitty
                } else {
                    encoder = graphics.encoder
                }
                nextImageID += 1
                out += try encoder.encode(strip, cellSize: cellSize)
                out += Array("\r\n".utf8)
            } else {
                out += try blockRow(row, columns: box, rows: height, gap: gap)
            }
        }
        return out
    }

    /// ``rows(_:columns:rows:gap:)`` from async code: the pictures are
    /// encoded on ImageCodecs' `ImageWorkers` threads (a sixel row takes
    /// milliseconds to write), never on the cooperative pool, and the
    /// calling task is suspended meanwhile.
    ///
    /// ```swift
    /// var inline = await InlinePictures.detect(graphics: nil)
    /// let bytes = try await inline.rows(thumbnails, columns: 16, rows: 8)
    /// ```
    public mutating func rows(_ pictures: [Bitmap], columns box: Int, rows height: Int, gap: Int = 1) async throws(TerminalError) -> [UInt8] {
        let (current, bitmaps) = (self, pictures)
        let (bytes, advanced) = try await ImageWorkers.shared.run { () throws(TerminalError) -> ([UInt8], InlinePictures) in
            var inline = current
            let bytes = try inline.rows(bitmaps, columns: box, rows: height, gap: gap)
            return (bytes, inline)
        }
        self = advanced
        return bytes
    }

    /// ANSI: the pictures' cell rows side by side, top-aligned, padded with
    /// spaces to their boxes' width, the gaps plain (the terminal's own
    /// background); as many lines as the tallest picture needs.
    private func blockRow(_ pictures: [Bitmap], columns box: Int, rows height: Int, gap: Int) throws(TerminalError) -> [UInt8] {
        let encoder = HalfBlockImageEncoder()
        var lines: [[[UInt8]]] = []
        for picture in pictures {
            let encoded = try encoder.encode(picture, cellSize: cellSize)
            lines.append(encoded.split(separator: Array("\r\n".utf8)).map(Array.init))
        }
        let reset = Array("\u{1B}[0m".utf8)
        var out: [UInt8] = []
        let used = min(height, pictures.map { ($0.height + 1) / 2 }.max() ?? 0)
        for line in 0..<used {
            for (index, picture) in pictures.enumerated() {
                if index > 0 { out += [UInt8](repeating: 0x20, count: gap) }
                let cells = (picture.height + 1) / 2 > line ? picture.width : 0
                if cells > 0 { out += lines[index][line] + reset }
                out += [UInt8](repeating: 0x20, count: box - cells)
            }
            out += reset + Array("\r\n".utf8)
        }
        return out
    }

    /// `picture` shrunk (never enlarged) to fit `box`.
    static func fit(_ picture: Bitmap, in box: PixelSize) -> Bitmap {
        guard picture.width > box.width || picture.height > box.height else { return picture }
        let scale = min(Double(box.width) / Double(picture.width), Double(box.height) / Double(picture.height))
        let size = PixelSize(width: max(1, Int((Double(picture.width) * scale).rounded())), height: max(1, Int((Double(picture.height) * scale).rounded())))
        return picture.resized(to: size)
    }
}
