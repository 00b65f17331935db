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
