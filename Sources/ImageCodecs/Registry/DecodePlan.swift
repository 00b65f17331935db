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
    /// The colour the file declares for its pixels.
    let color: EmbeddedColor

    /// `appliesExifOrientation` is `false` for containers whose own
    /// transforms the codec library already applied (HEIF `irot`/`imir`):
    /// their EXIF orientation must not rotate the pixels a second time.
    /// `orientation`, when given, is the format's own (JPEG XL's header)
    /// and is applied instead of the EXIF one.
    init(
        format: ImageFormat, storedSize: PixelSize, exif: ExifMetadata?, color: EmbeddedColor = .sRGB, options: DecodeOptions,
        appliesExifOrientation: Bool = true, orientation headerOrientation: ImageOrientation? = nil
    ) throws(ImageCodecError) {
        try options.limits.check(storedSize, format: format)
        self.format = format
        self.storedSize = storedSize
        self.exif = appliesExifOrientation ? exif : exif?.settingOrientation(.up)
        self.color = color
        orientation = headerOrientation ?? (appliesExifOrientation ? exif?.orientation ?? .up : .up)
        let oriented = orientation.orientedSize(storedSize)
        if let required = try options.targetSize.requiredSize(forOrientedSize: oriented) {
            requiredStoredSize = orientation.swapsDimensions ? required.transposed : required
        } else {
            requiredStoredSize = storedSize
        }
    }

    /// Whether the request can be met by scaling while decoding.
    var wantsScaling: Bool { requiredStoredSize != storedSize }

    /// Wraps decoded pixels: colour converted to sRGB or tagged with the
    /// file's profile, as the options say, and the orientation applied when
    /// asked. `color` overrides the file's colour when the decoder already
    /// converted the pixels (CMYK).
    func finish(_ bitmap: Bitmap, warnings: [String], options: DecodeOptions, color: EmbeddedColor? = nil) -> DecodedImage {
        let color = color ?? self.color
        var image = DecodedImage(
            bitmap: bitmap, format: format, orientation: orientation, sourceOrientation: orientation,
            sourceSize: storedSize, exif: exif, warnings: warnings + color.warnings, colorProfile: color.profile
        )
        if options.colorHandling == .convertToSRGB { image.convertToSRGB() }
        return options.appliesOrientation ? image.applyingOrientation() : image
    }
}
