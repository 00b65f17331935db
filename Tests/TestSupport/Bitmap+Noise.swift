public import ImageCodecs

extension Bitmap {
    /// Random RGB pixels from a seeded generator: incompressible, so encoded
    /// files are large, and the same seed always gives the same image.
    public static func noise(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var generator = SeededGenerator(seed: seed)
        let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // The geometry is valid by construction.
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }
}

extension Bitmap {
    /// A smooth picture: diagonal red and green ramps under a blue
    /// checkerboard of 16-pixel squares (`phase` shifts it), as photos are
    /// mostly smooth with some hard edges; noise would defeat any palette.
    public static func gradient(width: Int, height: Int, phase: Int = 0) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = (x / 16 + y / 16 + phase) % 2 == 0 ? 200 : 60
            }
        }
        // The geometry is valid by construction.
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }
}

/// A JPEG of seeded noise, `width` x `height`: the one helper every suite
/// uses for "some photo" (noise does not compress, so byte caps bite).
///
/// `orientation` other than `.up` is written as an EXIF tag; the pixels
/// stay as generated.
public func noiseJPEG(
    width: Int = 64, height: Int = 48, seed: UInt64 = 1, quality: Int = 85, orientation: ImageOrientation = .up
) throws -> [UInt8] {
    let exif = orientation == .up ? nil : ExifMetadata(orientation: orientation)
    return try Bitmap.noise(width: width, height: height, seed: seed).encoded(as: .jpeg, options: EncodeOptions(quality: quality, exif: exif))
}
