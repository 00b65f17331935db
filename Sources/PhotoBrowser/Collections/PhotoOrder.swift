/// The order a browser shows a collection's photos in.
public enum PhotoOrder: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// By path, with runs of digits compared as numbers (`IMG_2` before
    /// `IMG_10`); files named one by one stay in the order given.
    case name
    /// By the file's modification time, oldest first (ties by name).
    case modified
    /// By the capture date in the photo's metadata, oldest first; photos
    /// without one come last, by name. Reading it means probing every
    /// photo's header.
    case captureDate = "date"

    /// The next order in `allCases` (after the last, the first), for a key that cycles through them.
    public var next: PhotoOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    public var description: String {
        switch self {
        case .name: "name"
        case .modified: "modification time"
        case .captureDate: "capture date"
        }
    }
}

/// Compares names as people read them: runs of ASCII digits by their
/// value, everything else byte by byte (`IMG_9.jpg` < `IMG_10.jpg`).
///
/// ```swift
/// ["b10", "b9", "a"].sorted(by: NaturalOrder.areInIncreasingOrder)   // ["a", "b9", "b10"]
/// ```
public enum NaturalOrder {
    /// Whether `lhs` comes before `rhs`.
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        compare(Array(lhs.utf8), Array(rhs.utf8)) < 0
    }

    /// `elements` in the natural order of their `name`. Each name is turned
    /// once into a key whose bytes compare in natural order
    /// (see `sortKey`), all keys in one buffer: the comparisons of the sort
    /// are byte compares, not digit-run parsing.
    public static func sorted<Element>(_ elements: [Element], by name: (Element) -> String) -> [Element] {
        var keys: [UInt8] = []
        var names: [UInt8] = []
        keys.reserveCapacity(elements.count * 32)
        names.reserveCapacity(elements.count * 24)
        // Per element: where its key and its name start and end in the buffers.
        var spans: [(key: Range<Int>, name: Range<Int>)] = []
        spans.reserveCapacity(elements.count)
        for element in elements {
            let bytes = Array(name(element).utf8)
            let keyStart = keys.count
            appendSortKey(of: bytes, to: &keys)
            spans.append((keyStart..<keys.count, names.count..<(names.count + bytes.count)))
            names += bytes
        }
        // Each key's first 16 bytes as two big-endian words (zeros past its
        // end): most comparisons end there; equal words fall back to the
        // whole key, then the name.
        let words = keys.withUnsafeBufferPointer { keyBytes in
            spans.map { span in (leadingWord(keyBytes, span.key, skipping: 0), leadingWord(keyBytes, span.key, skipping: 8)) }
        }
        let order = keys.withUnsafeBufferPointer { keyBytes in
            names.withUnsafeBufferPointer { nameBytes in
                spans.indices.sorted { a, b in
                    if words[a] != words[b] { return words[a] < words[b] }
                    let order = bytewise(keyBytes, spans[a].key, spans[b].key)
                    // Equal keys ("07" and "7"): the names' bytes decide, as in compare.
                    return order != 0 ? order < 0 : bytewise(nameBytes, spans[a].name, spans[b].name) < 0
                }
            }
        }
        return order.map { elements[$0] }
    }

    /// Bytes `skipping ..< skipping + 8` of `buffer[range]`, big-endian, zeros past its end.
    private static func leadingWord(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, skipping: Int) -> UInt64 {
        var word: UInt64 = 0
        for offset in skipping..<(skipping + 8) {
            word <<= 8
            if offset < range.count { word |= UInt64(buffer[range.lowerBound + offset]) }
        }
        return word
    }

    /// A key whose bytes, compared as unsigned bytes (shorter first when
    /// one is the other's start), are in the natural order of `name`: each
    /// run of digits becomes `0` (a digit against any other byte, as the
    /// run's first digit would), the count of its significant digits in
    /// four big-endian bytes, then those digits. Names equal as numbers
    /// ("07", "7") have equal keys.
    static func sortKey(_ name: [UInt8]) -> [UInt8] {
        var key: [UInt8] = []
        appendSortKey(of: name, to: &key)
        return key
    }

    private static func appendSortKey(of name: [UInt8], to key: inout [UInt8]) {
        name.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                guard isDigit(bytes[index]) else {
                    key.append(bytes[index])
                    index += 1
                    continue
                }
                // The same digit run compare(_:_:) reads.
                let run = digitRun(bytes, from: index)
                let length = UInt32(clamping: run.end - run.first)
                key.append(0x30)
                for shift in stride(from: 24, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
                key.append(contentsOf: bytes[run.first..<run.end])
                index = run.end
            }
        }
    }

    /// -1, 0 or 1 as `buffer[lhs]` comes before, equals or follows `buffer[rhs]`, byte by byte.
    private static func bytewise(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        let common = min(lhs.count, rhs.count)
        var offset = 0
        while offset < common {
            let a = buffer[lhs.lowerBound + offset]
            let b = buffer[rhs.lowerBound + offset]
            if a != b { return a < b ? -1 : 1 }
            offset += 1
        }
        return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
    }

    /// -1, 0 or 1 as `lhs` comes before, equal to or after `rhs`.
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in compare(left, right) } }
    }

    private static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        // Equal bytes compare equal in this order too: skip the common
        // prefix (names in one folder share most of it), backing up to the
        // start of a digit run it ends inside.
        var start = 0
        let shorter = min(lhs.count, rhs.count)
        while start < shorter && lhs[start] == rhs[start] { start += 1 }
        while start > 0 && isDigit(lhs[start - 1]) { start -= 1 }
        var i = start
        var j = start
        while i < lhs.count && j < rhs.count {
            let a = lhs[i]
            let b = rhs[j]
            if isDigit(a) && isDigit(b) {
                let left = digitRun(lhs, from: i)
                let right = digitRun(rhs, from: j)
                let leftLength = left.end - left.first
                let rightLength = right.end - right.first
                if leftLength != rightLength { return leftLength < rightLength ? -1 : 1 }
                var k = 0
                while k < leftLength {
                    let x = lhs[left.first + k]
                    let y = rhs[right.first + k]
                    if x != y { return x < y ? -1 : 1 }
                    k += 1
                }
                i = left.end
                j = right.end
            } else {
                if a != b { return a < b ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if lhs.count - i != rhs.count - j { return lhs.count - i < rhs.count - j ? -1 : 1 }
        // Equal as numbers ("07" and "7"): the bytes decide, so the order is total.
        return lhs.elementsEqual(rhs) ? 0 : (lhs.lexicographicallyPrecedes(rhs) ? -1 : 1)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// The run of digits from `start`: where its value begins (leading zeros skipped) and where it ends.
    private static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (first: Int, end: Int) {
        var end = start
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        var first = start
        while first < end - 1 && bytes[first] == 0x30 { first += 1 }
        return (first, end)
    }
}
