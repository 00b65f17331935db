#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a file the package wrote earlier (a journal, a log), read a
/// chunk at a time in constant memory whatever the file holds: a line
/// longer than its bound is passed over as ``Line/overlong(number:bytes:)``
/// without being kept, so a gigabyte of NUL bytes after the last line costs
/// a scan, never a gigabyte of memory.
///
/// Lines end at a line feed (`\n`); the last one may end at the file's end.
///
/// ```swift
/// var entries: [String?] = []
/// let file = try ReadOnlyFile(path: journal, followingSymlinks: false)
/// try FileLines.forEach(in: file, maxLineBytes: 64 << 10) { line in
///     if case .text(let bytes, _) = line { entries.append(parse(bytes)) }
///     return true   // false stops the reading
/// }
/// var skipped = 0
/// let last = try FileLines.last(in: file, maxLineBytes: 64 << 10, overlong: &skipped) { parse($0) }
/// ```
package enum FileLines {
    /// One line as read.
    package enum Line {
        /// A line within the bound (its line feed not included), numbered from 1.
        case text([UInt8], number: Int)
        /// A line longer than the bound: its number and length, its bytes not kept.
        case overlong(number: Int, bytes: Int)
    }

    /// How many bytes each read takes: the memory a scan holds besides one line.
    package static let chunkBytes = 256 << 10

    /// Calls `body` with each line from the start, in order, until it
    /// returns `false` or the file ends (at the size it had when opened).
    package static func forEach(
        in file: ReadOnlyFile, maxLineBytes: Int, _ body: (Line) throws -> Bool
    ) throws {
        let bound = max(0, maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var pending: [UInt8] = []
        var pendingLength = 0  // the current line's length so far, kept or not
        var number = 1
        var offset = 0
        func emit() throws -> Bool {
            let line: Line = pendingLength > bound ? .overlong(number: number, bytes: pendingLength) : .text(pending, number: number)
            pending.removeAll(keepingCapacity: true)
            pendingLength = 0
            number += 1
            return try body(line)
        }
        while offset < file.size {
            let count = try file.read(into: &chunk, at: offset)
            if count == 0 { break }
            offset += count
            var start = 0
            while start < count {
                let end = chunk.withUnsafeBufferPointer { buffer in
                    firstIndex(of: 0x0A, in: UnsafeBufferPointer(rebasing: buffer[..<count]), from: start)
                }
                let stop = end ?? count
                let (length, overflow) = pendingLength.addingReportingOverflow(stop - start)
                pendingLength = overflow ? .max : length
                if pendingLength <= bound { pending += chunk[start..<stop] } else { pending.removeAll(keepingCapacity: true) }
                guard let end else { break }
                if try !emit() { return }
                start = end + 1
            }
        }
        if pendingLength > 0 { _ = try emit() }
    }

    /// The last line, scanning back from the file's end, for which `parse`
    /// gives a value: that value, or `nil` when no line does. Lines over
    /// `maxLineBytes` are passed over unread (and counted in `overlong`).
    /// Memory stays at one chunk and one line however far back the scan goes.
    package static func last<T>(
        in file: ReadOnlyFile, maxLineBytes: Int, overlong: inout Int, where parse: ([UInt8]) throws -> T?
    ) throws -> T? {
        let bound = max(0, maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        // The bytes after the newest line feed found so far, up to the line feed after them.
        var carry: [UInt8] = []
        var carryLength = 0
        var position = file.size
        while position > 0 {
            let start = max(0, position - chunkBytes)
            let count = try file.read(into: &chunk, at: start, length: position - start)
            guard count == position - start else {
                throw SystemError(operation: "reading", path: file.path, code: EIO, reason: "the file shrank while it was read")
            }
            var end = count
            while end > 0 {
                let feed = chunk.withUnsafeBufferPointer { buffer in lastIndex(of: 0x0A, in: UnsafeBufferPointer(rebasing: buffer[..<end])) }
                guard let feed else { break }
                let (length, overflow) = carryLength.addingReportingOverflow(end - feed - 1)
                if overflow || length > bound {
                    overlong += 1
                } else if let value = try parse(Array(chunk[(feed + 1)..<end]) + carry) {
                    return value
                }
                carry.removeAll(keepingCapacity: true)
                carryLength = 0
                end = feed
            }
            let (length, overflow) = carryLength.addingReportingOverflow(end)
            carryLength = overflow ? .max : length
            carry = carryLength <= bound ? Array(chunk[..<end]) + carry : []
            position = start
        }
        guard carryLength <= bound else {
            overlong += 1
            return nil
        }
        return try parse(carry)
    }

    /// The index of the last `byte` in `bytes`, or `nil`: eight bytes at a
    /// time (`memrchr` is a GNU extension Swift's Glibc module does not
    /// offer), so a gigabyte of garbage after a journal's last line is
    /// scanned at memory speed.
    private static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var end = bytes.count
        while end >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) ^ pattern
            // A zero byte in `word` is a match (the classic has-zero-byte test).
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            end -= 8
        }
        while end > 0 {
            end -= 1
            if base[end] == byte { return end }
        }
        return nil
    }
}
