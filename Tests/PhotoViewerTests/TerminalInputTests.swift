import Foundation
import PhotoBrowser
import PhotoViewer
import Testing

@Suite("Terminal keys and detection")
struct TerminalInputTests {
    @Test("arrows, Home/End, paging keys in CSI and SS3 forms; control bytes; UTF-8 characters")
    func keys() {
        var decoder = TerminalKeyDecoder()
        let bytes = Array("\u{1B}[C\u{1B}[D\u{1B}OA\u{1B}OB\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~ +-0qé".utf8) + [0x7F, 0x03, 0x0D]
        #expect(
            decoder.feed(bytes) == [
                .right, .left, .up, .down, .home, .end, .home, .end, .pageUp, .pageDown, .space, .character("+"), .character("-"),
                .character("0"), .character("q"), .character("é"), .backspace, .interrupt, .enter,
            ])
        #expect(!decoder.hasPending)
    }

    @Test("Shift with the arrows (xterm's modifier 2) is its own key; other modifiers are the plain arrow")
    func shiftedArrows() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[1;2D\u{1B}[1;2C\u{1B}[1;5D\u{1B}[1;3C".utf8)) == [.shiftLeft, .shiftRight, .left, .right])
        let keymap = ViewerKeymap.standard
        #expect(keymap.playbackCommand(for: .shiftLeft, motion: .video(duration: nil)) == .seek(by: .seconds(-5)))
        #expect(keymap.playbackCommand(for: .shiftRight, motion: .video(duration: nil)) == .seek(by: .seconds(5)))
        #expect(keymap.playbackCommand(for: .character("m"), motion: .livePhoto(motionPath: "/m.mov")) == .toggleMute)
        // On a still, Shift+arrows turn pages as the arrows do.
        #expect(keymap.command(for: .shiftLeft, pointer: .zero) == .previous && keymap.command(for: .shiftRight, pointer: .zero) == .next)
        let (bound, problems) = ViewerKeymap.parse("shift-right = seek-forward\nM = mute\n", base: .standard)
        #expect(problems.isEmpty)
        #expect(bound.command(for: .shiftRight, pointer: .zero) == .seek(by: .seconds(5)))
        #expect(bound.command(for: .character("M"), pointer: .zero) == .toggleMute)
    }

    @Test("a sequence split across reads waits for its end; a lone Escape is a key only at the pause")
    func splitSequences() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed(Array("[".utf8)).isEmpty)
        #expect(decoder.feed(Array("C".utf8)) == [.right])
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.feed([0xC3]).isEmpty)
        #expect(decoder.feed([0xA9]) == [.character("é")])
        #expect(decoder.feed([0x1B, 0x1B]) == [.escape])
        #expect(decoder.flush() == [.escape])
    }

    @Test("replies to queries (DA1, CSI 14 t, kitty's APC) are collected apart from keys")
    func replies() {
        var decoder = TerminalKeyDecoder()
        let keys = decoder.feed(Array("\u{1B}[?62;4;22c\u{1B}[4;600;800tq\u{1B}_Gi=1;OK\u{1B}\\".utf8))
        #expect(keys == [.character("q")])
        let replies = decoder.takeReplies().map { String(decoding: $0, as: UTF8.self) }
        #expect(replies == ["\u{1B}[?62;4;22c", "\u{1B}[4;600;800t", "\u{1B}_Gi=1;OK\u{1B}\\"])
        #expect(decoder.takeReplies().isEmpty)
    }

    @Test("detection: kitty, iTerm2 and WezTerm by environment; sixel from DA1 attribute 4; else ANSI")
    func detection() {
        #expect(TerminalDetection.graphics(environment: ["KITTY_WINDOW_ID": "1"], deviceAttributes: nil) == .kitty)
        #expect(TerminalDetection.graphics(environment: ["TERM": "xterm-kitty"], deviceAttributes: nil) == .kitty)
        #expect(TerminalDetection.graphics(environment: ["TERM_PROGRAM": "iTerm.app"], deviceAttributes: nil) == .iterm)
        #expect(TerminalDetection.graphics(environment: ["TERM_PROGRAM": "WezTerm"], deviceAttributes: nil) == .iterm)
        let xterm = Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)
        #expect(TerminalDetection.graphics(environment: ["TERM": "xterm-256color"], deviceAttributes: xterm) == .sixel)
        let noSixel = Array("\u{1B}[?62;1;6;22c".utf8)
        #expect(TerminalDetection.graphics(environment: ["TERM": "xterm-256color"], deviceAttributes: noSixel) == .ansi)
        // "14" is not "4".
        #expect(!TerminalDetection.supportsSixel(Array("\u{1B}[?62;14c".utf8)))
        #expect(TerminalDetection.graphics(environment: [:], deviceAttributes: nil) == .ansi)
        #expect(TerminalDetection.textAreaPixels(Array("\u{1B}[4;600;800t".utf8))! == (800, 600))
        #expect(TerminalDetection.textAreaPixels(Array("\u{1B}[4;0;800t".utf8)) == nil)
    }

    @Test("detection by asking: a kitty graphics OK before the device attributes means kitty whatever TERM says; an error or silence does not")
    func detectionByAsking() {
        func replies(_ texts: String...) -> [[UInt8]] { texts.map { Array($0.utf8) } }
        let plain = ["TERM": "xterm-256color"]
        let ok = "\u{1B}_Gi=31;OK\u{1B}\\"
        #expect(TerminalDetection.graphics(environment: plain, replies: replies(ok, "\u{1B}[?62;22c")) == .kitty, "kitty over ssh, WezTerm, Konsole")
        #expect(TerminalDetection.graphics(environment: plain, replies: replies(ok, "\u{1B}[?62;4;22c")) == .kitty, "both: kitty's is better")
        #expect(TerminalDetection.graphics(environment: plain, replies: replies("\u{1B}[?62;4;22c")) == .sixel, "no answer to the kitty question")
        #expect(TerminalDetection.graphics(environment: plain, replies: replies("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\", "\u{1B}[?62c")) == .ansi)
        #expect(TerminalDetection.graphics(environment: plain, replies: replies("\u{1B}_Gi=7;OK\u{1B}\\", "\u{1B}[?62c")) == .ansi, "another image's answer")
        #expect(TerminalDetection.graphics(environment: plain, replies: []) == .ansi, "silence")
        #expect(TerminalDetection.graphics(environment: ["TERM_PROGRAM": "iTerm.app"], replies: replies(ok, "\u{1B}[?62c")) == .iterm)
        // The query: a kitty question (query action, 1x1, direct data), then DA1, which every terminal answers.
        #expect(TerminalDetection.graphicsQuery.hasPrefix("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"))
        #expect(TerminalDetection.graphicsQuery.hasSuffix("\u{1B}[c"))
        #expect(TerminalDetection.isDeviceAttributes(Array("\u{1B}[?1;2c".utf8)) && !TerminalDetection.isDeviceAttributes(Array(ok.utf8)))
    }

    @Test("the keymap: the same keys as the window; unbound keys do nothing")
    func keymap() {
        let centre = CGPoint(x: 50, y: 40)
        let map = ViewerKeymap.standard
        #expect(map.command(for: .right, pointer: centre) == .next)
        #expect(map.command(for: .space, pointer: centre) == .next)
        #expect(map.command(for: .backspace, pointer: centre) == .previous)
        #expect(map.command(for: .home, pointer: centre) == .first)
        #expect(map.command(for: .end, pointer: centre) == .last)
        #expect(map.command(for: .character("+"), pointer: centre) == .zoom(by: 1.25, at: centre))
        #expect(map.command(for: .character("-"), pointer: centre) == .zoom(by: 0.8, at: centre))
        #expect(map.command(for: .character("0"), pointer: centre) == .fit)
        #expect(map.command(for: .character("q"), pointer: centre) == .quit)
        #expect(map.command(for: .escape, pointer: centre) == .quit)
        #expect(map.command(for: .character("i"), pointer: centre) == .toggleInfo)
        #expect(map.command(for: .character("f"), pointer: centre) == .toggleFullScreen)
        #expect(map.command(for: .character("z"), pointer: centre) == nil)
    }

    @Test("a drag: live movements, then the translation and the velocity of its last 100 ms")
    func drag() {
        var tracker = DragTracker(at: CGPoint(x: 100, y: 100), seconds: 0)
        #expect(tracker.isClick)
        #expect(tracker.move(to: CGPoint(x: 90, y: 100), seconds: 0.5) == CGSize(width: -10, height: 0))
        #expect(tracker.move(to: CGPoint(x: 70, y: 101), seconds: 0.55) == CGSize(width: -20, height: 1))
        #expect(tracker.move(to: CGPoint(x: 40, y: 102), seconds: 0.6) == CGSize(width: -30, height: 1))
        #expect(tracker.translation == CGSize(width: -60, height: 2))
        #expect(!tracker.isClick)
        // The last 100 ms: from (90,100) at 0.5 to (40,102) at 0.6: -500 pt/s.
        let velocity = tracker.velocity(at: 0.6)
        #expect(abs(Double(velocity.width) + 500) < 1e-6)
        #expect(abs(Double(velocity.height) - 20) < 1e-6)
        // A pause before release: nothing recent, no velocity.
        #expect(tracker.velocity(at: 2) == .zero)
    }
}
