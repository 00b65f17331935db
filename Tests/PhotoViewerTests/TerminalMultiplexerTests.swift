import ImageCodecs
import PhotoViewer
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
