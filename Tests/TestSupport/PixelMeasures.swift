import Foundation
public import ImageCodecs

/// Reads back what the half-block encoder (or a terminal's captured pane)
/// wrote: per line, each character with the 24-bit colours in force.
public enum ANSIScreen {
    /// One character cell and its colours.
    public struct Cell: Equatable, Sendable {
        public var character: Character
        public var foreground: [UInt8]?
        public var background: [UInt8]?
    }

    /// Cells per line. Lines are split at "cursor down" (ESC [ 1 B) or a newline.
    public static func cells(_ text: String) -> [[Cell]] {
        var lines: [[Cell]] = [[]]
        var foreground: [UInt8]?
        var background: [UInt8]?
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar == "\u{1B}", scalars.first == "[" {
                scalars = scalars.dropFirst()
                var body = ""
                while let next = scalars.first {
                    scalars = scalars.dropFirst()
                    if (0x40...0x7E).contains(next.value) {
                        body.append(Character(next))
                        break
                    }
                    body.append(Character(next))
                }
                guard let final = body.last else { continue }
                let parameters = body.dropLast().split(separator: ";").compactMap { Int($0) }
                switch final {
                case "m":
                    if parameters.isEmpty || parameters == [0] {
                        foreground = nil
                        background = nil
                    }
                    var index = 0
                    while index < parameters.count {
                        if parameters[index] == 38 || parameters[index] == 48, index + 4 < parameters.count, parameters[index + 1] == 2 {
                            let colour = parameters[(index + 2)...(index + 4)].map { UInt8(clamping: $0) }
                            if parameters[index] == 38 { foreground = colour } else { background = colour }
                            index += 5
                        } else {
                            index += 1
                        }
                    }
                case "B": lines.append([])
                default: break
                }
            } else if scalar == "\n" {
                lines.append([])
            } else if scalar != "\r" {
                lines[lines.count - 1].append(Cell(character: Character(scalar), foreground: foreground, background: background))
            }
        }
        return lines.filter { !$0.isEmpty }
    }
}

/// The peak signal-to-noise ratio of two bitmaps of one size (compared as RGB), in dB; infinity when equal.
public func peakSignalToNoise(_ a: Bitmap, _ b: Bitmap) -> Double {
    let first = a.converted(to: .rgb8)
    let second = b.converted(to: .rgb8)
    precondition(first.size == second.size, "sizes differ: \(first.size) and \(second.size)")
    var squared = 0.0
    first.withUnsafeBytes { x in
        second.withUnsafeBytes { y in
            for row in 0..<first.height {
                for byte in 0..<(first.width * 3) {
                    let difference = Double(x[row * first.bytesPerRow + byte]) - Double(y[row * second.bytesPerRow + byte])
                    squared += difference * difference
                }
            }
        }
    }
    let mean = squared / Double(first.width * first.height * 3)
    return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
}

/// The largest difference between two same-sized bitmaps' channels, grey
/// and RGB widened to RGBA first (0 when they are identical).
public func maxChannelDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    let left = a.converted(to: .rgba8)
    let right = b.converted(to: .rgba8)
    var worst = 0
    for y in 0..<min(left.height, right.height) {
        for x in 0..<min(left.width, right.width) {
            for (l, r) in zip(left[x, y], right[x, y]) { worst = max(worst, abs(Int(l) - Int(r))) }
        }
    }
    return worst
}
