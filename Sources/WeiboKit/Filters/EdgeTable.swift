/// The muted-word automaton's goto function: a map from `state << 21 |
/// scalar` to the child state, made for it: insert-only, sized once for
/// the most entries it will hold, open addressing with linear probing and
/// a multiplicative hash (a `Dictionary` spends most of a large list's
/// build hashing with SipHash, which guards against keys an attacker
/// chooses: these are bounded by the caps on muted words, and a probe
/// run is bounded by the table being at most half full).
struct EdgeTable: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    private let shift: UInt64
    private let mask: Int
    /// The entries held.
    private(set) var count = 0

    /// A table for at most `capacity` entries (kept at most half full).
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: .max, count: size)
        values = Array(repeating: -1, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        mask = size - 1
    }

    private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The value of `key`, or `nil`.
    subscript(key: UInt64) -> Int32? {
        var index = slot(key)
        while true {
            let found = keys[index]
            if found == key { return values[index] }
            if found == .max { return nil }
            index = (index + 1) & mask
        }
    }

    /// Sets `key` (not held yet) to `value`. The caller never inserts more
    /// than the capacity it asked for.
    mutating func insert(_ key: UInt64, _ value: Int32) {
        precondition(count * 2 < keys.count, "EdgeTable holds at most the capacity it was made for")
        var index = slot(key)
        while keys[index] != .max { index = (index + 1) & mask }
        keys[index] = key
        values[index] = value
        count += 1
    }
}
