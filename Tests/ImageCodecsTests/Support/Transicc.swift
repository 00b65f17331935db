import Foundation
import TestSupport

/// Little CMS's own `transicc` (Debian's liblcms2-utils), the reference the
/// colour tests compare with.
enum Transicc {
    /// What `transicc -t 0` (perceptual, floating point) makes of `colors`
    /// (one line of numbers each: 0...255 for RGB, ink percentages for
    /// CMYK) from the profile at `path` to sRGB, rounded and clamped to 8 bits.
    static func sRGB(of colors: [String], profileAt path: String) throws -> [[Int]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/transicc")
        process.arguments = ["-i", path, "-o", "*sRGB", "-t", "0", "-n"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(colors.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: try bytes(readingToEndOf: output.fileHandleForReading, limit: 1 << 20), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").suffix(colors.count).map { row in
            row.split(separator: " ").compactMap { Double($0) }.map { min(max(Int($0.rounded()), 0), 255) }
        }
    }
}
