// The targets added for the hostile-input audit: HEIF grids and
// thumbnails, animated WebP, the PNG file reader, the multipart reader,
// terminal replies and stored outbox content.

import Foundation
import ImageCodecs
import PhotoViewer
import SQLiteSupport
import ServiceKit
import ShareKit
import ShareKitTesting

extension FuzzTarget {
    func runHostileTarget(_ bytes: [UInt8], limits: ImageLimits) {
        switch self {
        case .heifGrid:
            var data = bytes
            if !(data.count > 12 && data[4..<8].elementsEqual("ftyp".utf8)) {
                data = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + data
            }
            // Small targets pick a thumbnail when one covers them; renditions stream the rows.
            for side in [8, 64, 400] {
                _ = try? DecodedImage(decoding: data, options: DecodeOptions(targetSize: .fitting(PixelSize(width: side, height: side)), limits: limits))
            }
            _ = try? DecodedImage(rendering: data, in: PixelSize(width: 48, height: 48), options: RenditionOptions(limits: limits))
            if let frames = try? ImageFrames(decoding: data, limits: .init(image: limits, maxFrameCount: 8, maxTotalPixels: 32_000_000)) {
                _ = try? frames.next()
            }
        case .webpAnimation:
            var data = bytes
            if !data.starts(with: Array("RIFF".utf8)) { data = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + data }
            _ = try? ImageInfo(probing: data)
            _ = try? DecodedImage(decoding: data, options: DecodeOptions(limits: limits))
            if let frames = try? ImageFrames(decoding: data, limits: .init(image: limits, maxFrameCount: 64, maxTotalPixels: 64_000_000)) {
                while (try? frames.next()) != nil {}
            }
        case .pngFile:
            var data = bytes
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            if !data.starts(with: signature) { data = signature + data }
            let path = Self.scratchFile
            guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { return }
            _ = try? ImageInfo(probingFileAt: path)
            _ = try? DecodedImage(decodingFileAt: path, options: DecodeOptions(limits: limits))
            _ = try? DecodedImage(renderingFileAt: path, in: PixelSize(width: 40, height: 40), options: RenditionOptions(limits: limits))
        case .multipart:
            // The first line is the boundary; the rest the body.
            let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
            let boundary = String(decoding: bytes[..<newline], as: UTF8.self)
            let body = Array(bytes.dropFirst(min(bytes.count, newline + 1)))
            for part in MultipartForm.parts(of: body, contentType: "multipart/form-data; boundary=\(boundary)") ?? [] {
                _ = part.filename?.count
                _ = String(decoding: part.data.prefix(64), as: UTF8.self)
            }
        case .terminal:
            // The first byte splits the input into pieces, as reads from a terminal arrive.
            var decoder = TerminalKeyDecoder()
            let step = Int(bytes.first ?? 1) % 16 + 1
            var rest = bytes.dropFirst()[...]
            while !rest.isEmpty {
                _ = decoder.feed(rest.prefix(step))
                rest = rest.dropFirst(step)
            }
            _ = decoder.flush()
            for reply in decoder.takeReplies() {
                _ = TerminalDetection.supportsSixel(reply)
                _ = TerminalDetection.textAreaPixels(reply)
                _ = TerminalDetection.graphics(environment: ["TERM": "xterm-256color"], deviceAttributes: reply)
            }
        case .outbox:
            Self.processStoredContent(bytes)
        case .rewrite:
            Self.rewrite(bytes, limits: limits)
        default:
            break
        }
    }

    /// Every policy's rewrite of `bytes`, and for a JPEG every lossless
    /// transform: a rewrite of an image that decoded must decode to the same
    /// pixels; a transform's result must decode. Anything else traps (a finding).
    static func rewrite(_ bytes: [UInt8], limits: ImageLimits) {
        let options = DecodeOptions(limits: limits, colorHandling: .preserve)
        let before = try? DecodedImage(decoding: bytes, options: options)
        for policy in [MetadataPolicy.strict, .default, .keepAll, MetadataPolicy(keepsEverythingElse: true)] {
            guard let rewritten = try? policy.rewriting(bytes) else { continue }
            guard let before else { continue }
            guard let after = try? DecodedImage(decoding: rewritten.bytes, options: options) else {
                fatalError("a rewrite under \(policy) made a decodable image undecodable")
            }
            precondition(after.bitmap == before.bitmap, "a rewrite under \(policy) changed the pixels")
        }
        guard JPEGHeader_recognizes(bytes), before != nil else { return }
        for operation in JPEGTransform.Operation.allCases {
            for edges in [JPEGTransform.Edges.perfect, .trim] {
                guard let turned = try? JPEGTransform.apply(operation, to: bytes, edges: edges, metadata: .default) else { continue }
                precondition((try? DecodedImage(decoding: turned.bytes, options: options)) != nil, "a \(operation) made a decodable JPEG undecodable")
            }
        }
    }

    /// A file for this process's PNG file target, rewritten for each input.
    static let scratchFile = NSTemporaryDirectory() + "photodeck-fuzz-\(ProcessInfo.processInfo.processIdentifier).png"

    /// An outbox at a scratch path for this process, with one queued entry
    /// whose stored content is `bytes`, processed once.
    static func processStoredContent(_ bytes: [UInt8]) {
        let path = NSTemporaryDirectory() + "photodeck-fuzz-outbox-\(ProcessInfo.processInfo.processIdentifier).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let done = DispatchSemaphore(value: 0)
        // The harness is synchronous; the outbox is an actor.
        Task.detached {
            defer { done.signal() }
            let provider = MockShareProvider(id: "chat")
            let center = ShareCenter()
            await center.register(provider)
            guard let outbox = try? await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi)),
                let id = try? await outbox.enqueue(ShareContent(text: "seed"), to: ShareTarget(provider: "chat", destination: .timeline, displayName: "Chat")),
                let database = try? SQLiteDatabase(path: path)
            else { return }
            try? database.prepare("UPDATE entries SET content = ? WHERE id = ?").bind(.blob(bytes), .text(id.uuidString)).run()
            _ = await outbox.process()
        }
        done.wait()
    }
}

/// Whether `bytes` start like a JPEG (SOI and a marker).
private func JPEGHeader_recognizes(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
}
