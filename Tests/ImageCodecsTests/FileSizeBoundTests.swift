import Foundation
import ImageCodecs
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A file's size is a claim too: a sparse file can say a terabyte. A
/// format decoded whole reads its file only within `ImageLimits.maxFileBytes`.
@Suite("Whole-file decodes have a size bound")
struct FileSizeBoundTests {
    @Test("a 2 GiB WebP, GIF or HEIC (sparse) is refused before a byte is read", arguments: ["webp", "gif", "heic"])
    func sparse(_ kind: String) throws {
        let path = NSTemporaryDirectory() + "sparse-\(UUID().uuidString).\(kind)"
        defer { unlink(path) }
        let header: [UInt8] =
            switch kind {
            case "webp": Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)
            case "gif": Array("GIF89a".utf8) + [16, 0, 16, 0, 0, 0, 0]
            default: [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
            }
        try Data(header).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, 2 << 30) == 0)
        let limits = ImageLimits()
        for decode in [
            { _ = try DecodedImage(decodingFileAt: path) },
            { _ = try DecodedImage(renderingFileAt: path, in: PixelSize(width: 64, height: 64)) },
        ] as [() throws -> Void] {
            #expect {
                try decode()
            } throws: { error in
                guard case .fileAccess(_, let reason) = error as? ImageCodecError else { return false }
                return reason.contains("over the \(limits.maxFileBytes)-byte limit")
            }
        }
    }
}
