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
