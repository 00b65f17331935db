public import Foundation
public import Testing

/// WebP files made at test time with libwebp's own tools (`cwebp`,
/// `img2webp`, Debian's `webp` package) from licensed images in
/// `Tests/Fixtures/conformance`.
///
/// libwebp's test vectors state no licence, so they are not in the
/// repository; these cover the same ground: lossy, lossless, near-lossless,
/// alpha (lossy and lossless, every alpha filter), odd and tiny sizes, EXIF
/// metadata, and animations (lossy, lossless, mixed, looping).
public enum GeneratedWebP {
    /// One generated file.
    public struct Sample: CustomTestStringConvertible, Sendable {
        /// A short name, also the file's base name.
        public let name: String
        /// The command that made it (for failure messages).
        public let command: String
        /// Whether the file is an animation.
        public let isAnimated: Bool
        /// The canvas size `cwebp`/`img2webp` were asked for.
        public let width: Int
        /// The canvas height.
        public let height: Int
        /// Where the file is.
        public let url: URL
        public var testDescription: String { name }
        /// The file's bytes.
        public func bytes() throws -> [UInt8] { try fileBytes(url) }
    }

    /// What went wrong making the set.
    public struct ToolFailure: Error, CustomStringConvertible {
        /// The command and what it printed.
        public let description: String
    }

    private struct Recipe {
        let name: String
        let tool: String
        let arguments: [String]
        let isAnimated: Bool
        let width: Int
        let height: Int
    }

    private static func source(_ path: String) -> String { TestData.root.appendingPathComponent(path).path }

    private static let photo = source("libjpeg-turbo-testimages/testorig.png")  // 227x149, IJG licence
    private static let rgba = source("pngsuite/png/basn6a08.png")  // 32x32 RGBA, PngSuite licence
    private static let gray = source("pngsuite/png/basn0g08.png")  // 32x32 gray
    private static let exifJPEG = source("pillow-edgecases/hopper_orientation_6.jpg")  // 128x128, EXIF orientation 6

    private static var recipes: [Recipe] {
        let frames = ["basn2c08", "basn6a08", "bgan6a08", "basn3p08"].map { source("pngsuite/png/\($0).png") }
        return [
            Recipe(name: "lossy", tool: "cwebp", arguments: ["-quiet", "-q", "75", photo], isAnimated: false, width: 227, height: 149),
            Recipe(name: "lossy-sharp-yuv", tool: "cwebp", arguments: ["-quiet", "-q", "90", "-sharp_yuv", photo], isAnimated: false, width: 227, height: 149),
            Recipe(name: "lossy-gray", tool: "cwebp", arguments: ["-quiet", "-q", "60", gray], isAnimated: false, width: 32, height: 32),
            Recipe(name: "lossless", tool: "cwebp", arguments: ["-quiet", "-lossless", "-z", "6", photo], isAnimated: false, width: 227, height: 149),
            Recipe(name: "near-lossless", tool: "cwebp", arguments: ["-quiet", "-near_lossless", "40", photo], isAnimated: false, width: 227, height: 149),
            Recipe(name: "lossy-alpha", tool: "cwebp", arguments: ["-quiet", "-q", "80", "-alpha_q", "50", rgba], isAnimated: false, width: 32, height: 32),
            Recipe(
                name: "lossy-alpha-unfiltered", tool: "cwebp", arguments: ["-quiet", "-q", "80", "-alpha_filter", "none", "-alpha_method", "0", rgba],
                isAnimated: false, width: 32, height: 32),
            Recipe(
                name: "lossy-alpha-best-filter", tool: "cwebp", arguments: ["-quiet", "-q", "80", "-alpha_filter", "best", rgba], isAnimated: false, width: 32,
                height: 32),
            Recipe(name: "lossless-alpha-exact", tool: "cwebp", arguments: ["-quiet", "-lossless", "-exact", rgba], isAnimated: false, width: 32, height: 32),
            Recipe(name: "tiny-1x1", tool: "cwebp", arguments: ["-quiet", "-resize", "1", "1", photo], isAnimated: false, width: 1, height: 1),
            Recipe(name: "odd-3x7", tool: "cwebp", arguments: ["-quiet", "-resize", "3", "7", photo], isAnimated: false, width: 3, height: 7),
            Recipe(name: "strip-97x1", tool: "cwebp", arguments: ["-quiet", "-resize", "97", "1", photo], isAnimated: false, width: 97, height: 1),
            Recipe(
                name: "odd-crop-lossless", tool: "cwebp", arguments: ["-quiet", "-lossless", "-crop", "5", "3", "61", "33", photo], isAnimated: false,
                width: 61, height: 33),
            Recipe(
                name: "exif-orientation-6", tool: "cwebp", arguments: ["-quiet", "-q", "80", "-metadata", "exif", exifJPEG], isAnimated: false, width: 128,
                height: 128),
            Recipe(
                name: "animated-lossy", tool: "img2webp", arguments: ["-loop", "3", "-lossy", "-q", "70", "-d", "80"] + frames, isAnimated: true, width: 32,
                height: 32),
            Recipe(
                name: "animated-lossless", tool: "img2webp", arguments: ["-loop", "0", "-lossless", "-d", "120"] + frames, isAnimated: true, width: 32,
                height: 32),
            Recipe(
                name: "animated-mixed", tool: "img2webp", arguments: ["-mixed", "-d", "50", frames[0], "-lossy", frames[1], "-lossless", frames[2]],
                isAnimated: true, width: 32, height: 32),
        ]
    }

    /// The generated files, made once per test process in a temporary
    /// folder. Throws when a tool is missing or fails (`make test`
    /// installs Debian's `webp` package).
    public static func samples() throws -> [Sample] { try made.get() }

    /// The still (not animated) samples; empty when they cannot be made,
    /// which ``samples()`` then reports.
    public static var stills: [Sample] { ((try? made.get()) ?? []).filter { !$0.isAnimated } }

    /// The animated samples.
    public static var animations: [Sample] { ((try? made.get()) ?? []).filter(\.isAnimated) }

    private static let made: Result<[Sample], ToolFailure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-webp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(ToolFailure(description: "cannot create \(folder.path): \(error)"))
        }
        var samples: [Sample] = []
        for recipe in recipes {
            let output = folder.appendingPathComponent("\(recipe.name).webp")
            let arguments = recipe.arguments + ["-o", output.path]
            let command = ([recipe.tool] + arguments).joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/\(recipe.tool)")
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return .failure(ToolFailure(description: "\(command): \(error) (install Debian's webp package)"))
            }
            let message = String(decoding: (try? bytes(readingToEndOf: errors.fileHandleForReading, limit: 1 << 20)) ?? [], as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                return .failure(ToolFailure(description: "\(command) exited \(process.terminationStatus): \(message)"))
            }
            samples.append(
                Sample(
                    name: recipe.name, command: command, isAnimated: recipe.isAnimated, width: recipe.width, height: recipe.height, url: output))
        }
        return .success(samples)
    }()
}
