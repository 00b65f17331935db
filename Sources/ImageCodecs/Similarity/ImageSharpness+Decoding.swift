extension ImageSharpness {
    /// The longest side frames are measured at: large enough to see focus
    /// in a 12 MP photo (a JPEG decodes at 1/4 scale, then fits).
    public static let measuredSide = 1024

    /// Measures the image file at `path`, decoded upright in sRGB to fit
    /// ``measuredSide`` on each side, so that frames of different sizes
    /// (a burst's full frames beside a resized copy) compare at one size.
    ///
    /// ```swift
    /// let sharpest = try paths.max { try ImageSharpness(measuringImageAt: $1).isBetterCover(than: ImageSharpness(measuringImageAt: $0)) }
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError`` when the image cannot be
    ///   decoded within `limits`.
    public init(measuringImageAt path: String, limits: ImageLimits = .default, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        let side = Self.measuredSide
        let options = DecodeOptions(targetSize: .fitting(PixelSize(width: side, height: side)), limits: limits, prefersFastScaling: true)
        self.init(measuring: try DecodedImage(decodingFileAt: path, options: options, registry: registry).bitmap)
    }
}
