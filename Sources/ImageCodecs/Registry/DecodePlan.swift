/// The decisions every decoder makes the same way once it knows the header:
/// limits, the smallest stored size that satisfies the request, and how the
/// result is finished (orientation applied exactly once).
struct DecodePlan {
    let format: ImageFormat
    let storedSize: PixelSize
    let orientation: ImageOrientation
    let exif: ExifMetadata?
    /// The stored-orientation size the decoded pixels must cover; equal to
    /// `storedSize` for a full-size decode.
    let requiredStoredSize: PixelSize

    init(format: ImageFormat, storedSize: PixelSize, exif: ExifMetadata?, options: DecodeOptions) throws(ImageCodecError) {
        try options.limits.check(storedSize, format: format)
        self.format = format
        self.storedSize = storedSize
        self.exif = exif
        orientation = exif?.orientation ?? .up
        let oriented = orientation.orientedSize(storedSize)
        if let required = try options.targetSize.requiredSize(forOrientedSize: oriented) {
            requiredStoredSize = orientation.swapsDimensions ? required.transposed : required
        } else {
            requiredStoredSize = storedSize
        }
    }

    /// Whether the request can be met by scaling while decoding.
    var wantsScaling: Bool { requiredStoredSize != storedSize }

    /// Wraps decoded pixels, applying the orientation when asked.
    func finish(_ bitmap: Bitmap, warnings: [String], options: DecodeOptions) -> DecodedImage {
        let image = DecodedImage(
            bitmap: bitmap, format: format, orientation: orientation, sourceOrientation: orientation,
            sourceSize: storedSize, exif: exif, warnings: warnings
        )
        return options.appliesOrientation ? image.applyingOrientation() : image
    }
}
