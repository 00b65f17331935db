import CZlib
import Foundation
public import ImageCodecs

/// Reads back the pictures a terminal viewer wrote, as a terminal would.
public enum TerminalPayloads {
    /// One kitty graphics transmission: its keys (from the first chunk) and its chunks.
    public struct KittyImage: Sendable {
        /// The control keys of the first chunk ("a" → "T", "s" → "640", ...).
        public var keys: [String: String]
        /// Each chunk's control keys and payload length, in order.
        public var chunks: [(keys: String, payloadLength: Int)]
        /// The decoded pixels (RGB, `f=24`, inflated when `o=z`).
        public var bitmap: Bitmap
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Every kitty image transmitted in `output` (APC `G` sequences; deletions skipped).
    public static func kittyImages(in output: [UInt8]) throws -> [KittyImage] {
        let text = String(decoding: output, as: UTF8.self)
        var images: [KittyImage] = []
        var current: (keys: [String: String], chunks: [(keys: String, payloadLength: Int)], payload: String)?
        for piece in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            guard let end = piece.range(of: "\u{1B}\\") else { throw Failure(description: "an APC without its ST") }
            let body = piece[..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            let keyText = String(parts[0])
            let payload = parts.count > 1 ? String(parts[1]) : ""
            let keys = Dictionary(
                keyText.split(separator: ",").map { pair -> (String, String) in
                    let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return (kv[0], kv.count > 1 ? kv[1] : "")
                }, uniquingKeysWith: { $1 })
            if current == nil {
                if keys["a"] == "d" { continue }
                current = (keys, [], "")
            }
            current!.chunks.append((keyText, payload.count))
            current!.payload += payload
            if keys["m"] != "1" {
                images.append(try finish(current!))
                current = nil
            }
        }
        guard current == nil else { throw Failure(description: "a kitty image whose last chunk never came") }
        return images
    }

    private static func finish(_ image: (keys: [String: String], chunks: [(keys: String, payloadLength: Int)], payload: String)) throws -> KittyImage {
        guard let width = image.keys["s"].flatMap(Int.init), let height = image.keys["v"].flatMap(Int.init), image.keys["f"] == "24" else {
            throw Failure(description: "a kitty image without s, v and f=24: \(image.keys)")
        }
        guard let data = Data(base64Encoded: image.payload) else { throw Failure(description: "kitty payload is not base64") }
        var pixels = Array(data)
        if image.keys["o"] == "z" {
            var inflated = [UInt8](repeating: 0, count: width * height * 3)
            var length = uLong(inflated.count)
            let status = inflated.withUnsafeMutableBufferPointer { target in
                pixels.withUnsafeBufferPointer { uncompress(target.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
            }
            guard status == Z_OK, length == uLong(inflated.count) else { throw Failure(description: "kitty payload does not inflate (\(status))") }
            pixels = inflated
        }
        return KittyImage(keys: image.keys, chunks: image.chunks, bitmap: try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels))
    }

    /// Every iTerm2 inline image in `output`: its arguments and its file's bytes.
    public static func itermImages(in output: [UInt8]) throws -> [(arguments: [String: String], file: [UInt8])] {
        let text = String(decoding: output, as: UTF8.self)
        return try text.components(separatedBy: "\u{1B}]1337;File=").dropFirst().map { piece in
            guard let end = piece.firstIndex(of: "\u{07}"), let colon = piece.firstIndex(of: ":"), colon < end else {
                throw Failure(description: "an iTerm2 image without its ':' or BEL")
            }
            let arguments = Dictionary(
                piece[..<colon].split(separator: ";").map { pair -> (String, String) in
                    let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return (kv[0], kv.count > 1 ? kv[1] : "")
                }, uniquingKeysWith: { $1 })
            guard let data = Data(base64Encoded: String(piece[piece.index(after: colon)..<end])) else {
                throw Failure(description: "iTerm2 file is not base64")
            }
            return (arguments, Array(data))
        }
    }
}
