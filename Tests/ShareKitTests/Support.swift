import ImageCodecs
import TestSupport

enum ImageCodecsBridge {
    /// A small JPEG of noise (about 3 KB).
    static func smallJPEG() throws -> [UInt8] {
        try Bitmap.noise(width: 40, height: 30, seed: 5).encoded(as: .jpeg)
    }
}
