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

    /// `elements` in the natural order of their `name`. Each name's bytes
    /// are taken once, not per comparison: 10,000 names sort in a few milliseconds.
    public static func sorted<Element>(_ elements: [Element], by name: (Element) -> String) -> [Element] {
        let keys = elements.map { Array(name($0).utf8) }
        let order = keys.indices.sorted { compare(keys[$0], keys[$1]) < 0 }
        return order.map { elements[$0] }
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
