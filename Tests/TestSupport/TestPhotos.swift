public import ImageCodecs

/// Real photos re-encoded at a chosen size, for tests that need a large
/// progressive JPEG of a photograph (noise compresses unlike a photo).
public enum TestPhotos {
    /// The conformance set's `Landscape_1.jpg` (a 1800x1200 photo) fitted
    /// into `size` and encoded as a JPEG.
    ///
    /// ```swift
    /// let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 1_200, height: 800), quality: 90)
    /// ```
    public static func landscapeJPEG(
        size: PixelSize, quality: Int, isProgressive: Bool = true, exif: ExifMetadata? = nil
    ) throws -> [UInt8] {
        let photo = try DecodedImage(
            decodingFileAt: TestData.root.appendingPathComponent("exif-orientation-examples/Landscape_1.jpg").path,
            options: DecodeOptions(targetSize: .fitting(size)))
        let bitmap = photo.bitmap.resized(to: size)
        return try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: quality, isProgressive: isProgressive, exif: exif))
    }
}
