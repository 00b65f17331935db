/// The result of a decode: pixels plus what the file said about them.
public struct DecodedImage: Sendable {
    /// The decoded pixels. Upright when ``DecodeOptions/appliesOrientation``
    /// was set (the default).
    public var bitmap: Bitmap
    /// The format the pixels came from.
    public var format: ImageFormat
    /// The orientation still to apply to ``bitmap``: ``ImageCore/ImageOrientation/up``
    /// once applied, so it is never applied twice.
    public var orientation: ImageOrientation
    /// The orientation the file recorded.
    public var sourceOrientation: ImageOrientation
    /// The stored size of the full image, before any scaling or orientation.
    public var sourceSize: PixelSize
    /// The file's EXIF block, when present. Its orientation tag agrees with
    /// ``orientation``: when the pixels were rotated, the tag reads 1, so
    /// the block can be embedded in a re-encoded file safely.
    public var exif: ExifMetadata?
    /// Warnings the codec library reported for data it could recover from
    /// (extraneous bytes, a bad ancillary chunk). Empty for clean files.
    public var warnings: [String]
    /// The colour profile of ``bitmap``'s values; `nil` when they are sRGB
    /// (untagged, or converted by ``ColorHandling/convertToSRGB``).
    public var colorProfile: ColorProfile?
    /// For a ``RenditionMode/fill`` rendition, the part of the photo its
    /// pixels show, in the upright source's pixels (``sourceSize`` with
    /// the orientation applied), as ``RenditionOptions/crop`` chose it;
    /// `nil` for other decodes. A caller can keep it to crop a larger
    /// rendition the same way, or to show what a thumbnail left out.
    public var crop: PixelRect?

    /// Creates a decoded image.
    public init(
        bitmap: Bitmap, format: ImageFormat, orientation: ImageOrientation, sourceOrientation: ImageOrientation,
        sourceSize: PixelSize, exif: ExifMetadata? = nil, warnings: [String] = [], colorProfile: ColorProfile? = nil, crop: PixelRect? = nil
    ) {
        self.colorProfile = colorProfile
        self.crop = crop
        self.bitmap = bitmap
        self.format = format
        self.orientation = orientation
        self.sourceOrientation = sourceOrientation
        self.sourceSize = sourceSize
        self.exif = exif
        self.warnings = warnings
    }

    /// Converts ``bitmap`` from ``colorProfile`` to sRGB (Little CMS 2,
    /// perceptual intent; matrix-shaper profiles such as Adobe RGB and
    /// Display P3 convert colorimetrically). A profile that cannot be used
    /// leaves the pixels as they are and adds a warning; either way
    /// ``colorProfile`` is `nil` afterwards.
    public mutating func convertToSRGB() {
        guard let profile = colorProfile else { return }
        if let warning = ColorConversion.convertToSRGB(&bitmap, from: profile) { warnings.append(warning.description) }
        colorProfile = nil
    }

    /// This image with its pending orientation applied (a no-op when it is
    /// ``ImageCore/ImageOrientation/up``).
    public func applyingOrientation() -> DecodedImage {
        guard orientation != .up else { return self }
        var copy = self
        copy.bitmap = bitmap.oriented(orientation)
        copy.orientation = .up
        copy.exif = exif?.settingOrientation(.up)
        return copy
    }
}
