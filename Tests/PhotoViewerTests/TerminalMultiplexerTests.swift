import Foundation
import ImageCodecs
import PhotoViewer
import Synchronization
import TestSupport
import Testing

@Suite("tmux and screen: what reaches the outer terminal")
struct TerminalMultiplexerTests {
    static let kittyPane = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm-kitty", top: 3, left: 10)

    @Test("tmux's answer is read field by field; a malformed or hostile one is refused")
    func parsing() {
        #expect(TmuxPane.parse("on\txterm-kitty\t3\t10\n") == Self.kittyPane)
        #expect(TmuxPane.parse("all\txterm-ghostty\t0\t0")?.passesKittyGraphics == true)
        #expect(TmuxPane.parse("off\txterm-kitty\t0\t0")?.passesKittyGraphics == false)
        // tmux 3.3a (Debian 12) prints the flag as 1 or 0.
        #expect(TmuxPane.parse("1\txterm-kitty\t0\t0")?.passesKittyGraphics == true)
        #expect(TmuxPane.parse("0\txterm-kitty\t0\t0")?.allowsPassthrough == false)
        // tmux before 3.3 knows no allow-passthrough: an empty field.
        #expect(TmuxPane.parse("\txterm-kitty\t0\t0")?.allowsPassthrough == false)
        #expect(TmuxPane.parse("on\txterm-kitty\t0") == nil)
        #expect(TmuxPane.parse("on\txterm-kitty\tx\t0") == nil)
        // A client name with controls is not trusted as a terminal type.
        #expect(TmuxPane.parse("on\txterm-kitty\u{1B}]0;x\u{7}\t0\t0")?.outerTerminal == "")
        // Whether the client's answers come to this pane: the active pane of the active window only.
        #expect(TmuxPane.parse("1\txterm\t0\t0\t1\t1")?.receivesReplies == true)
        #expect(TmuxPane.parse("1\txterm\t0\t81\t0\t1")?.receivesReplies == false)
        #expect(TmuxPane.parse("1\txterm\t0\t0\t1\t0")?.receivesReplies == false)
        #expect(TmuxPane.parse("1\txterm-kitty\t0\t81\t0\t1")?.passesKittyGraphics == true, "kitty by the client's name needs no answer")
        #expect(TmuxPane.parse("1\txterm\t0\t0\t1") == nil)
    }

    @Test("detection: in tmux the client's terminal decides, not the inherited environment; screen and closed passthrough get blocks")
    func detection() {
        let inheritedKitty = ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux-0/default,1,0"]
        let closed = TmuxPane(allowsPassthrough: false, outerTerminal: "xterm-kitty")
        #expect(TerminalDetection.graphics(environment: inheritedKitty, deviceAttributes: nil) == .kitty)  // the old rule
        #expect(TerminalDetection.graphics(environment: inheritedKitty, deviceAttributes: nil, multiplexer: .tmux(closed)) == .ansi)
        #expect(TerminalDetection.graphics(environment: inheritedKitty, deviceAttributes: nil, multiplexer: .tmux(Self.kittyPane)) == .kitty)
        let xterm = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm")
        #expect(TerminalDetection.graphics(environment: [:], deviceAttributes: Array("\u{1B}[?62;4c".utf8), multiplexer: .tmux(xterm)) == .ansi)
        #expect(TerminalDetection.graphics(environment: ["KITTY_WINDOW_ID": "1"], deviceAttributes: nil, multiplexer: .screen) == .ansi)
        // Asked for explicitly: pixels only where they can arrive at a known place.
        #expect(TerminalDetection.graphics(.sixel, through: .tmux(xterm), inline: false) == .sixel)
        #expect(TerminalDetection.graphics(.kitty, through: .tmux(closed), inline: false) == .ansi)
        #expect(TerminalDetection.graphics(.kitty, through: .tmux(Self.kittyPane), inline: true) == .ansi)
        #expect(TerminalDetection.graphics(.iterm, through: .screen, inline: false) == .ansi)
        #expect(TerminalDetection.graphics(.kitty, through: .none, inline: true) == .kitty)
        #expect(TerminalMultiplexer.detect(environment: ["STY": "1234.pts-0.host"]) == .screen)
        #expect(TerminalMultiplexer.detect(environment: [:]) == .none)
    }

    @Test("a tmux that cannot be asked is a tmux without passthrough")
    func unreachableTmux() {
        let found = TerminalMultiplexer.detect(environment: ["TMUX": "/nonexistent/socket,1,0", "PATH": "/usr/bin:/bin"])
        #expect(found == .tmux(TmuxPane(allowsPassthrough: false, outerTerminal: "")))
    }

    /// A folder holding a program named `tmux` running `script` (sh).
    static func fakeTmux(_ script: String) throws -> String {
        let folder = NSTemporaryDirectory() + "fake-tmux-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let program = folder + "/tmux"
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: URL(fileURLWithPath: program))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        return folder
    }

    @Test("asked from async code, tmux's answer is awaited off the pool: other tasks run while tmuxes wait; one that never answers is killed")
    func askedOffThePool() async throws {
        let folder = NSTemporaryDirectory() + "tmux-gate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let gate = folder + "/open"
        // A tmux that answers once the test opens the gate, and one that never does.
        let gated = try Self.fakeTmux("while [ ! -e '\(gate)' ]; do sleep 0.02; done\nprintf '1\\txterm-kitty\\t3\\t41\\t1\\t1\\n'")
        let silent = try Self.fakeTmux("exec sleep 600")
        defer {
            for path in [folder, gated, silent] { try? FileManager.default.removeItem(atPath: path) }
        }
        // More questions than the pool has threads, at once: were their waits
        // on the pool, the tasks below could not run until tmux answered.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let gatedTmux = ["TMUX": "/tmp/socket,1,0", "PATH": gated + ":/usr/bin:/bin"]
        let answered = AnswerCount()
        async let answers = withTaskGroup(of: TerminalMultiplexer.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let found = await TerminalMultiplexer.detect(environment: gatedTmux, timeout: .seconds(120))
                    answered.add()
                    return found
                }
            }
            return await group.reduce(into: [TerminalMultiplexer]()) { $0.append($1) }
        }
        let others = await withTaskGroup(of: Int.self) { group in
            for index in 0..<200 { group.addTask { index } }
            return await group.reduce(0, +)
        }
        #expect(others == 19_900)
        #expect(answered.value == 0, "200 tasks ran while every tmux question waited")
        #expect(FileManager.default.createFile(atPath: gate, contents: nil))
        let pane = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm-kitty", top: 3, left: 41)
        #expect(await answers == Array(repeating: .tmux(pane), count: count))

        let started = ContinuousClock.now
        let given = await TerminalMultiplexer.detect(environment: ["TMUX": "/tmp/socket,1,0", "PATH": silent + ":/usr/bin:/bin"], timeout: .seconds(1))
        #expect(given == .tmux(TmuxPane(allowsPassthrough: false, outerTerminal: "")))
        #expect(ContinuousClock.now - started < .seconds(300), "the silent tmux was killed, not waited for (it sleeps 600 s)")
    }

    @Test("every kitty chunk goes in a passthrough of its own, ESC doubled, placed at the pane's cell, and unwraps to the original")
    func passthrough() throws {
        let canvas = Bitmap.gradient(width: 300, height: 200, phase: 0)
        let kitty = KittyImageEncoder()
        let plain = try kitty.encode(canvas, cellSize: PixelSize(width: 10, height: 20))
        let wrapped = try TmuxPassthroughEncoder(kitty, row: 4, column: 11).encode(canvas, cellSize: PixelSize(width: 10, height: 20))
        let pieces = Self.unwrap(wrapped)
        let chunks = plain.split(separator: 0x5C, omittingEmptySubsequences: false).count - 1
        #expect(pieces.count == chunks && chunks > 1)
        var rejoined: [UInt8] = []
        for piece in pieces {
            #expect(piece.starts(with: Array("\u{1B}7\u{1B}[4;11H\u{1B}_G".utf8)))
            #expect(piece.suffix(2) == [0x1B, 0x38])
            rejoined += piece.dropFirst(Array("\u{1B}7\u{1B}[4;11H".utf8).count).dropLast(2)
        }
        #expect(rejoined == plain)
        #expect(TmuxPassthroughEncoder(kitty, row: 1, column: 1).clearImages == Self.wrap(Array("\u{1B}7\u{1B}[1;1H".utf8) + kitty.clearImages + [0x1B, 0x38]))
        #expect(TmuxPassthroughEncoder(HalfBlockImageEncoder(), row: 1, column: 1).clearImages.isEmpty)
        let next = KittyImageEncoder(imageID: 8, replacing: 7)
        #expect(
            TmuxPassthroughEncoder(next, row: 2, column: 3).clearEarlierFrame
                == Self.wrap(Array("\u{1B}7\u{1B}[2;3H".utf8) + next.clearEarlierFrame + [0x1B, 0x38]))
        #expect(TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1).clearEarlierFrame.isEmpty)
    }

    /// Writes the bytes it was given, whatever the canvas.
    struct FixedEncoder: TerminalImageEncoder {
        var bytes: [UInt8]
        func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] { bytes }
    }

    /// Where the first `ESC \` in `piece` ends, if it has one.
    static func firstTerminatorEnd(_ piece: [UInt8]) -> Int? {
        guard piece.count > 1 else { return nil }
        return (1..<piece.count).first { piece[$0 - 1] == 0x1B && piece[$0] == 0x5C }.map { $0 + 1 }
    }

    @Test("any bytes are split after each ESC \\ and nowhere else; the pieces, unwrapped, rejoin to the bytes (2,000 seeded strings)")
    func piecesOfAnyBytes() throws {
        var generator = SeededGenerator(seed: 2026)
        let alphabet: [UInt8] = [0x1B, 0x5C, 0x61, 0x50]
        let position = Array("\u{1B}7\u{1B}[3;5H".utf8)
        let canvas = Bitmap.gradient(width: 4, height: 4, phase: 0)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let wrapped = try TmuxPassthroughEncoder(FixedEncoder(bytes: bytes), row: 3, column: 5).encode(canvas, cellSize: PixelSize(width: 2, height: 2))
            let pieces: [[UInt8]] = Self.unwrap(wrapped).map { Array($0.dropFirst(position.count).dropLast(2)) }
            #expect(Array(pieces.joined()) == bytes, "\(bytes)")
            for (number, piece) in pieces.enumerated() {
                // The first ESC \ in a piece is its end; only the last piece may end otherwise.
                let isOpenLast = number == pieces.count - 1 && piece.suffix(2) != [0x1B, 0x5C]
                #expect(Self.firstTerminatorEnd(piece) == (isOpenLast ? nil : piece.count), "\(bytes)")
            }
        }
    }

    @Test("in tmux, the outer terminal's answers to the wrapped questions decide: kitty's OK or name, iTerm2's name, sixel in DA1")
    func detectionThroughPassthrough() {
        func replies(_ texts: String...) -> [[UInt8]] { texts.map { Array($0.utf8) } }
        let open = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm")
        let closed = TmuxPane(allowsPassthrough: false, outerTerminal: "xterm")
        // What xterm -ti vt340 and mlterm answered through tmux 3.3a (seen under Xvfb).
        let vt340 = replies("\u{1B}P>|XTerm(379)\u{1B}\\", "\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        let mlterm = replies("\u{1B}[?63;1;2;3;4;6;7;15;18;22;29c")
        #expect(TerminalDetection.graphics(replies: vt340, through: open) == .sixel)
        #expect(TerminalDetection.graphics(replies: mlterm, through: open) == .sixel)
        #expect(TerminalDetection.graphics(replies: vt340, through: closed) == .ansi, "nothing passes a closed pane")
        #expect(TerminalDetection.graphics(replies: replies("\u{1B}P>|XTerm(379)\u{1B}\\", "\u{1B}[?65;1;9c"), through: open) == .ansi, "plain xterm")
        #expect(TerminalDetection.graphics(replies: replies("\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}[?62;c"), through: open) == .kitty)
        #expect(TerminalDetection.graphics(replies: replies("\u{1B}P>|iTerm2 3.5.0\u{1B}\\", "\u{1B}[?62;4c"), through: open) == .iterm)
        #expect(TerminalDetection.graphics(replies: [], through: Self.kittyPane) == .kitty, "the client's name is enough for kitty")
        #expect(TerminalDetection.graphics(replies: [], through: open) == .ansi, "no answer in time")
        // The questions are the plain ones, wrapped once.
        #expect(Self.unwrap(Array(TerminalDetection.tmuxGraphicsQuery.utf8)) == [Array(TerminalDetection.graphicsQuery.utf8)])
    }

    @Test("XTVERSION names are read from their reply only, printable ASCII, at most 80 characters")
    func terminalNames() {
        #expect(TerminalDetection.terminalName(Array("\u{1B}P>|kitty(0.26.5)\u{1B}\\".utf8)) == "kitty(0.26.5)")
        #expect(TerminalDetection.terminalName(Array("\u{1B}P>|evil\u{1B}]0;title\u{07}x\u{1B}\\".utf8)) == "evil]0;titlex")
        #expect(TerminalDetection.terminalName(Array(("\u{1B}P>|" + String(repeating: "A", count: 500) + "\u{1B}\\").utf8))?.count == 80)
        #expect(TerminalDetection.terminalName(Array("\u{1B}P1$r0m\u{1B}\\".utf8)) == nil, "another DCS reply")
        #expect(TerminalDetection.terminalName(Array("\u{1B}P>|\u{1B}\\".utf8)) == nil)
        #expect(TerminalDetection.graphics(terminalName: "WezTerm 20240203-110809-5046fc22") == .iterm)
        #expect(TerminalDetection.graphics(terminalName: "XTerm(379)") == nil, "xterm: its attributes decide")
        // Outside tmux a name settles what the environment did not.
        let plain = ["TERM": "xterm-256color"]
        #expect(TerminalDetection.graphics(environment: plain, replies: [Array("\u{1B}P>|iTerm2 3.5.0\u{1B}\\".utf8), Array("\u{1B}[?62;22c".utf8)]) == .iterm)
    }

    /// Writes one DCS per pixel row of the canvas, `bytesPerRow` long: a sixel-like picture whose size is known.
    struct RowsEncoder: TerminalImageEncoder {
        var bytesPerRow: Int
        func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
            Array("\u{1B}Pq\"1;1;\(canvas.width);\(canvas.height)".utf8) + [UInt8](repeating: 0x3F, count: canvas.height * bytesPerRow) + [0x1B, 0x5C]
        }
    }

    @Test("a picture over tmux's 1 MiB passthrough limit goes as strips of whole cell rows, each under the limit, each at its own row")
    func largePicturesInStrips() throws {
        let canvas = Bitmap.gradient(width: 1_000, height: 700, phase: 0)
        let cell = PixelSize(width: 10, height: 20)
        let wrapped = try TmuxPassthroughEncoder(RowsEncoder(bytesPerRow: 4_000), row: 5, column: 3).encode(canvas, cellSize: cell)
        let pieces = Self.unwrap(wrapped)
        #expect(pieces.count >= 3, "2.8 MB in pieces: \(pieces.count)")
        var nextRow = 5
        var height = 0
        for piece in pieces {
            #expect(piece.count <= TmuxPassthroughEncoder.pieceLimit)
            let text = String(decoding: piece.prefix(40), as: UTF8.self)
            #expect(text.hasPrefix("\u{1B}7\u{1B}[\(nextRow);3H\u{1B}Pq\"1;1;1000;"), "strip placed at row \(nextRow): \(text.debugDescription)")
            let stripHeight = Int(text.split(separator: ";").last!.prefix { $0.isNumber })!
            #expect(stripHeight % cell.height == 0 || height + stripHeight == 700, "whole cell rows but the last")
            height += stripHeight
            nextRow += stripHeight / cell.height
        }
        #expect(height == 700, "the strips cover the picture once")
        // A picture under the limit stays one piece.
        let small = try TmuxPassthroughEncoder(RowsEncoder(bytesPerRow: 100), row: 1, column: 1).encode(canvas, cellSize: cell)
        #expect(Self.unwrap(small).count == 1)
    }

    /// A ``RowsEncoder`` that records the height of every picture it is given.
    final class RecordingRowsEncoder: TerminalImageEncoder {
        let rows = RowsEncoder(bytesPerRow: 4_000)
        let heights = Mutex<[Int]>([])
        func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
            heights.withLock { $0.append(canvas.height) }
            return try rows.encode(canvas, cellSize: cellSize)
        }
        func take() -> [Int] {
            heights.withLock { heights in
                defer { heights = [] }
                return heights
            }
        }
    }

    @Test("with a strip memory, the next picture of a size that needed strips is encoded in strips at once, not whole first")
    func rememberedStrips() throws {
        let canvas = Bitmap.gradient(width: 1_000, height: 700, phase: 0)
        let cell = PixelSize(width: 10, height: 20)
        let inner = RecordingRowsEncoder()
        let memory = TmuxStripMemory()
        var encoder = TmuxPassthroughEncoder(inner, row: 5, column: 3)
        encoder.stripMemory = memory
        let first = try encoder.encode(canvas, cellSize: cell)
        let firstHeights = inner.take()
        #expect(firstHeights.first == 700 && firstHeights.count >= 4, "the whole, then its strips: \(firstHeights)")
        #expect(memory.rowsPerStrip(canvas: canvas.size, cell: cell) != nil)
        // The next frame of that size: its strips only, and the same bytes.
        let second = try encoder.encode(Bitmap.gradient(width: 1_000, height: 700, phase: 0), cellSize: cell)
        #expect(inner.take() == Array(firstHeights.dropFirst()), "strips only")
        #expect(second == first)
        // Another size, or other cells, is found out again; so is every frame without a memory.
        _ = try encoder.encode(Bitmap.gradient(width: 1_000, height: 680, phase: 0), cellSize: cell)
        #expect(inner.take().first == 680)
        _ = try encoder.encode(canvas, cellSize: PixelSize(width: 10, height: 25))
        #expect(inner.take().first == 700)
        encoder.stripMemory = nil
        _ = try encoder.encode(canvas, cellSize: cell)
        #expect(inner.take().first == 700)
        // A picture that fits is one piece and changes nothing remembered.
        encoder.stripMemory = memory
        let small = Bitmap.gradient(width: 100, height: 70, phase: 0)
        #expect(Self.unwrap(try encoder.encode(small, cellSize: cell)).count == 1)
        #expect(memory.rowsPerStrip(canvas: small.size, cell: cell) == nil)
    }

    @Test("a real sixel picture too big for tmux (seeded noise, 256 colours) arrives in strips tmux takes")
    func largeSixelInStrips() throws {
        var generator = SeededGenerator(seed: 26)
        let width = 600
        let height = 440
        // Eight bytes of noise per draw: a debug build draws a byte at a time slowly.
        let pixels = (0..<(width * height * 3 / 8)).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
        let canvas = try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        let cell = PixelSize(width: 8, height: 16)
        let whole = try SixelImageEncoder().encode(canvas, cellSize: cell)
        try #require(whole.count > TmuxPassthroughEncoder.pieceLimit, "noise makes a big sixel: \(whole.count) bytes")
        let pieces = Self.unwrap(try TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1).encode(canvas, cellSize: cell))
        #expect(pieces.count >= 2)
        #expect(pieces.allSatisfy { $0.count <= TmuxPassthroughEncoder.pieceLimit && $0.contains(UInt8(ascii: "q")) })
    }

    /// The payloads of the tmux passthrough sequences in `bytes` (and nothing may lie between them).
    static func unwrap(_ bytes: [UInt8]) -> [[UInt8]] {
        let opener = Array("\u{1B}Ptmux;".utf8)
        var pieces: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index...].starts(with: opener) else { return [] }
            index += opener.count
            var payload: [UInt8] = []
            while index < bytes.count {
                if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x1B {
                    payload.append(0x1B)
                    index += 2
                } else if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x5C {
                    index += 2
                    break
                } else {
                    payload.append(bytes[index])
                    index += 1
                }
            }
            pieces.append(payload)
        }
        return pieces
    }

    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        Array("\u{1B}Ptmux;".utf8) + payload.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] } + [0x1B, 0x5C]
    }
}

/// How many tmux questions have been answered.
private final class AnswerCount: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
