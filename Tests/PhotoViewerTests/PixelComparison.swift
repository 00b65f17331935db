import Foundation
import ImageCodecs

/// Test pictures and the measures the viewer tests compare with.
enum Pictures {
    /// A smooth picture: diagonal gradients with a few hard edges (photos are
    /// mostly smooth; noise would defeat any palette).
    static func gradient(width: Int, height: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = (x / 16 + y / 16) % 2 == 0 ? 200 : 60
            }
        }
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }
}
