import Foundation

/// Hostile animations made at test time: frames that cost far more than
/// the canvas they are shown on, and canvases libwebp allocates before
/// anyone checks them.
public enum HostileAnimation {
    /// What could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A GIF whose logical screen is `screen` x `screen` and whose `frames`
    /// frames are each `frame` x `frame` (all palette index 0, so the LZW
    /// data is small): each frame decompresses `frame`² pixels to show
    /// `screen`² of them. The frame is encoded once and its bytes repeated.
    public static func oversizedGIFFrames(screen: Int = 16, frame: Int = 4_000, frames: Int = 1) throws -> [UInt8] {
        let one = try GIFWriter.encode(
            width: screen, height: screen, palette: [(0, 0, 0), (255, 255, 255)],
            frames: [GIFWriter.Frame(width: frame, height: frame, indices: [UInt8](repeating: 0, count: frame * frame))], loopCount: 0)
        // Header (13), global palette (768), NETSCAPE block (19), then the frame up to the trailer.
        let frameStart = 13 + 3 * 256 + 19
        guard one.count > frameStart + 2, one[frameStart] == 0x21, one[frameStart + 1] == 0xF9, one.last == 0x3B else {
            throw Failure(description: "giflib wrote an unexpected layout")
        }
        let frameBytes = one[frameStart..<one.count - 1]
        var result = Array(one[..<frameStart])
        for _ in 0..<frames { result += frameBytes }
        return result + [0x3B]
    }

    /// A two-frame animated WebP (`img2webp`, 16x16 frames) whose VP8X
    /// header is rewritten to a `width` x `height` canvas: valid (frames may
    /// cover part of the canvas), and libwebp's animation decoder allocates
    /// two canvases of that size when it is created.
    public static func webPCanvas(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try animatedWebP(durations: [100, 100])
        guard bytes.count > 30, bytes[12..<16].elementsEqual("VP8X".utf8) else { throw Failure(description: "img2webp wrote no VP8X header") }
        // VP8X: flags (4 bytes), then canvas width − 1 and height − 1, 24 bits little-endian each.
        for (offset, value) in [(24, width - 1), (27, height - 1)] {
            for index in 0..<3 { bytes[offset + index] = UInt8(value >> (8 * index) & 0xFF) }
        }
        return bytes
    }

    /// An animated WebP made by `img2webp` (lossless): one flat grey 16x16
    /// frame per entry of `durations`, each shown for its entry in
    /// milliseconds (`-d` before each frame).
    public static func animatedWebP(durations: [Int]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webp-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = ["-lossless"]
        for (index, duration) in durations.enumerated() {
            let path = folder.appendingPathComponent("f\(index).pgm").path
            // img2webp reads PNG, JPEG, TIFF, WebP, PNM.
            try Data(Array("P5\n16 16\n255\n".utf8) + [UInt8](repeating: UInt8(40 + index * 160 / max(1, durations.count - 1)), count: 256))
                .write(to: URL(fileURLWithPath: path))
            arguments += ["-d", "\(duration)", path]
        }
        let output = folder.appendingPathComponent("out.webp").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/img2webp")
        process.arguments = arguments + ["-o", output]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "img2webp exited \(process.terminationStatus)") }
        return try fileBytes(URL(fileURLWithPath: output))
    }
}
