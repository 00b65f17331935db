import Foundation
import TestSupport

/// Runs the reference command-line decoders (djpeg, dwebp) and reads their
/// Netpbm output.
enum ReferenceDecoder {
    struct Image {
        let width: Int
        let height: Int
        let channels: Int
        let pixels: [UInt8]
    }

    enum Failure: Error, CustomStringConvertible {
        case toolFailed(String)
        case badOutput(String)
        var description: String {
            switch self {
            case .toolFailed(let text): "reference tool failed: \(text)"
            case .badOutput(let text): "unreadable reference output: \(text)"
            }
        }
    }

    /// `djpeg -pnm FILE` (PPM for colour, PGM for gray).
    static func djpeg(_ url: URL) throws -> Image {
        try netpbm(run("/usr/bin/djpeg", ["-pnm", url.path]))
    }

    /// `dwebp -pam FILE -o -` (always RGBA).
    static func dwebp(_ url: URL) throws -> Image {
        try netpbm(run("/usr/bin/dwebp", ["-quiet", "-pam", url.path, "-o", "-"]))
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = try bytes(readingToEndOf: output.fileHandleForReading, limit: 1 << 30)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.toolFailed("\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    /// Parses P5/P6 (maxval 255) and P7 (PAM) images.
    static func netpbm(_ bytes: [UInt8]) throws -> Image {
        var index = 0
        func token() -> String {
            while index < bytes.count {
                if bytes[index] == 0x23 {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let magic = token()
        var width = 0
        var height = 0
        var channels = 0
        switch magic {
        case "P5", "P6":
            width = Int(token()) ?? 0
            height = Int(token()) ?? 0
            guard token() == "255" else { throw Failure.badOutput("maxval is not 255") }
            channels = magic == "P5" ? 1 : 3
            index += 1
        case "P7":
            while true {
                let key = token()
                if key == "ENDHDR" { break }
                let value = token()
                switch key {
                case "WIDTH": width = Int(value) ?? 0
                case "HEIGHT": height = Int(value) ?? 0
                case "DEPTH": channels = Int(value) ?? 0
                case "MAXVAL": guard value == "255" else { throw Failure.badOutput("maxval is not 255") }
                default: break
                }
                guard index < bytes.count else { throw Failure.badOutput("PAM header never ends") }
            }
            index += 1
        default:
            throw Failure.badOutput("magic \(magic)")
        }
        let length = width * height * channels
        guard length > 0, bytes.count - index >= length else { throw Failure.badOutput("\(bytes.count - index) bytes for \(width)x\(height)x\(channels)") }
        return Image(width: width, height: height, channels: channels, pixels: Array(bytes[index..<index + length]))
    }
}
