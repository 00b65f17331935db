// The doc-comment samples of the bounded readers, checked numbers, owned
// folders, server URLs, the curl transport and the decode memory budget
// (issue 34), compiled.

import Foundation
import ImageCodecs
import PhotoViewer
import SafeText
import ServiceKit
import SystemSupport

enum HostileInputSnippets {
    struct Mismatch: Error { let expected: String }
    static func mismatch(_ expected: String) -> Mismatch { Mismatch(expected: expected) }
    static func parse(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    static func fileLines(journal: String) throws -> String? {
        var entries: [String?] = []
        let file = try ReadOnlyFile(path: journal, followingSymlinks: false)
        try FileLines.forEach(in: file, maxLineBytes: 64 << 10) { line in
            if case .text(let bytes, _) = line { entries.append(parse(bytes)) }
            return true  // false stops the reading
        }
        var skipped = 0
        let last = try FileLines.last(in: file, maxLineBytes: 64 << 10, overlong: &skipped) { parse($0) }
        return last
    }

    static func wholeFile(path: String) throws -> [UInt8] {
        let text = try RegularFile.contents(of: path, limit: 64 << 10)  // keys.conf: 64 KiB
        return text
    }

    static func numbers(seconds: Double, stored: Int) -> (Int?, Int, Int?) {
        let milliseconds = Int(rounding: seconds * 1000, .up)  // nil for NaN, ±∞, 1e300
        let wait = Int(clamping: seconds * 1000, rounding: .up, to: 1...86_400_000)
        let next = stored.checkedSuccessor  // nil at Int.max
        return (milliseconds, wait, next)
    }

    static func lines(text: String) -> [String] {
        var problems: [String] = []
        for (number, line) in TextLines.split(text).enumerated() where line.hasPrefix("=") {
            problems.append("line \(number + 1): expected KEY = ACTION, got '\(TextLines.excerpt(line))'")
        }
        return problems
    }

    static func ownedFolder(cache: String, file: String) throws {
        let data = try OwnedFolder(path: "\(cache)/data", ownNames: { $0.hasSuffix(".entry") })
        try data.remove(file)  // refused unless file has an entry's shape
    }

    static func serverURL(text: String) throws -> URL {
        guard let picture = ServerURL.parse(text) else { throw mismatch("an http or https URL") }
        return picture
    }

    static func curl() async throws -> HTTPResponse {
        let client = ServiceClient(transport: CurlTransport())
        let answer = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/status")!))
        return answer
    }

    static func budget(info: ImageInfo, bytes: [UInt8], box: PixelSize) async throws -> Bitmap {
        let estimate = info.renditionPeakBytes(in: box)
        let bitmap = try await DecodeMemoryBudget.shared.withReservation(of: estimate) {
            try await ImageWorkers.shared.run { try DecodedImage(rendering: bytes, in: box).bitmap }
        }
        return bitmap
    }

    static func estimate(bytes: [UInt8]) throws -> Int {
        let info = try ImageInfo(probing: bytes)
        let bytes = info.renditionPeakBytes(in: PixelSize(width: 390, height: 390))
        return bytes
    }

    static func keymap(controller: ViewerController) async throws {
        if let path = ViewerKeymap.configurationPath(), let loaded = try ViewerKeymap.load(fromFileAt: path) {
            for problem in loaded.problems { print("\(path): \(problem)") }
            await controller.setKeymap(loaded.keymap)
        }
    }
}
