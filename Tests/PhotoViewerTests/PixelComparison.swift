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

    /// The peak signal-to-noise ratio of two RGB bitmaps of one size, in dB (infinity when equal).
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) and \(b.size)")
        let first = a.converted(to: .rgb8)
        let second = b.converted(to: .rgb8)
        var squared = 0.0
        first.withUnsafeBytes { x in
            second.withUnsafeBytes { y in
                for row in 0..<first.height {
                    for byte in 0..<(first.width * 3) {
                        let difference = Double(x[row * first.bytesPerRow + byte]) - Double(y[row * second.bytesPerRow + byte])
                        squared += difference * difference
                    }
                }
            }
        }
        let mean = squared / Double(first.width * first.height * 3)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }
}
