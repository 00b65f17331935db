/// Turns what a raw-mode terminal sends into keys: plain characters,
/// control bytes, and the escape sequences of arrows, Home/End and paging
/// keys (CSI and SS3 forms). Sequences may arrive split across reads; a
/// lone Escape is only a key once ``flush()`` says no more bytes came.
/// Replies to queries (DA1, sizes) are collected apart, not taken as keys.
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// Complete control sequences that were not keys (terminal replies), in order.
    public private(set) var replies: [[UInt8]] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished sequence are waiting.
    public var hasPending: Bool { !pending.isEmpty }

    /// The keys in `bytes` (with what was pending before them).
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ViewerKey] {
        pending.append(contentsOf: bytes)
        var keys: [ViewerKey] = []
        while !pending.isEmpty {
            guard let (key, used) = decodeOne() else { break }
            pending.removeFirst(used)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// Ends a pause: a pending lone Escape is the Escape key; anything else pending is dropped.
    public mutating func flush() -> [ViewerKey] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// Takes the replies collected so far.
    public mutating func takeReplies() -> [[UInt8]] {
        defer { replies.removeAll() }
        return replies
    }

    /// One key (or `nil` for a byte or sequence that is not one) and the bytes it used; `nil` when incomplete.
    private mutating func decodeOne() -> (ViewerKey?, Int)? {
        let first = pending[0]
        switch first {
        case 0x1B: return decodeEscape()
        case 0x03: return (.interrupt, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x20: return (.space, 1)
        case 0x00..<0x20: return (nil, 1)
        case 0x80...:
            // A UTF-8 character: wait for all of its bytes.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard pending.count >= length else { return nil }
            let text = String(decoding: pending[0..<length], as: UTF8.self)
            return (text.first.map(ViewerKey.character), length)
        default: return (.character(Character(Unicode.Scalar(first))), 1)
        }
    }

    private mutating func decodeEscape() -> (ViewerKey?, Int)? {
        guard pending.count >= 2 else { return nil }
        switch pending[1] {
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates, then a final byte 0x40...0x7E.
            guard let end = pending[2...].firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                return pending.count > 64 ? (nil, pending.count) : nil
            }
            let parameters = String(decoding: pending[2..<end], as: UTF8.self)
            let key: ViewerKey?
            switch (pending[end], parameters) {
            case (UInt8(ascii: "A"), _): key = .up
            case (UInt8(ascii: "B"), _): key = .down
            // Shift (modifier 2, xterm's `CSI 1 ; 2 D`) on the arrows a video's page seeks with.
            case (UInt8(ascii: "C"), "1;2"): key = .shiftRight
            case (UInt8(ascii: "D"), "1;2"): key = .shiftLeft
            case (UInt8(ascii: "C"), _): key = .right
            case (UInt8(ascii: "D"), _): key = .left
            case (UInt8(ascii: "H"), _): key = .home
            case (UInt8(ascii: "F"), _): key = .end
            case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): key = .home
            case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): key = .end
            case (UInt8(ascii: "~"), "5"): key = .pageUp
            case (UInt8(ascii: "~"), "6"): key = .pageDown
            case (UInt8(ascii: "~"), "3"): key = .backspace
            default:
                replies.append(Array(pending[0...end]))
                key = nil
            }
            return (key, end + 1)
        case UInt8(ascii: "O"):
            guard pending.count >= 3 else { return nil }
            let keys: [UInt8: ViewerKey] = [
                UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
                UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
            ]
            return (keys[pending[2]], 3)
        case UInt8(ascii: "_"), UInt8(ascii: "]"), UInt8(ascii: "P"):
            // APC, OSC or DCS reply (kitty answers with APC): up to ST (ESC \) or BEL.
            var index = 2
            while index < pending.count {
                if pending[index] == 0x07 { break }
                if pending[index] == 0x1B, index + 1 < pending.count, pending[index + 1] == 0x5C {
                    index += 1
                    break
                }
                index += 1
            }
            guard index < pending.count else { return pending.count > 4096 ? (nil, pending.count) : nil }
            replies.append(Array(pending[0...index]))
            return (nil, index + 1)
        case 0x1B:
            return (.escape, 1)
        default:
            // Alt + a key: the key alone.
            return (nil, 1)
        }
    }
}
