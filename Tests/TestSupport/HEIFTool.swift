import Foundation

/// Runs Debian's `heif-enc` (libheif-examples) to make HEIC and AVIF
/// fixtures from PNG bytes at test time.
public enum HEIFTool {
    /// The tool failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `png` encoded as HEIC (or AVIF) at `quality`; a PNG `iCCP` profile is carried into `colr`.
    public static func encode(png: [UInt8], avif: Bool = false, quality: Int = 90, arguments extra: [String] = []) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "heif-tool-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "in.png")
        let output = directory.appending(path: avif ? "out.avif" : "out.heic")
        try Data(png).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        process.arguments = ["-q", String(quality)] + (avif ? ["-A"] : []) + extra + ["-o", output.path, input.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "heif-enc exited with \(process.terminationStatus)") }
        return try fileBytes(output)
    }
}
