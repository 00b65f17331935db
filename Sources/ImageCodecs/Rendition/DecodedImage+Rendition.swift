/// How a rendition relates to its box.
public enum RenditionMode: String, Hashable, Sendable, CaseIterable {
    /// The whole image, as large as fits inside the box (aspect fit).
    case fit
    /// The box covered, the overflow centre-cropped away (aspect fill).
    case fill
}

/// Tuning for ``DecodedImage/init(rendering:in:mode:options:registry:)``.
public struct RenditionOptions: Hashable, Sendable {
    /// The final resampling filter.
    public var filter: ResamplingFilter
    /// Limits checked from the header before any pixel memory is allocated.
    public var limits: ImageLimits
    /// How much larger than the target the shrink-on-load step (JPEG DCT
    /// scaling, WebP scaled decode) leaves the image for the final filter.
    /// 2 keeps Lanczos sharp; 1 is fastest.
    public var shrinkOnLoadHeadroom: Int

    /// Creates rendition options.
    public init(filter: ResamplingFilter = .lanczos3, limits: ImageLimits = .default, shrinkOnLoadHeadroom: Int = 2) {
        self.filter = filter
        self.limits = limits
        self.shrinkOnLoadHeadroom = shrinkOnLoadHeadroom
    }

    /// Lanczos3, default limits, 2x headroom.
    public static let `default` = RenditionOptions()
}

extension DecodedImage {
    /// Decodes the display-ready pixels of an image for a box: the one call
    /// between an encoded photo and a screen.
    ///
    /// ```swift
    /// let screen = PixelSize(width: 1170, height: 2532)
    /// let page = try DecodedImage(rendering: jpegBytes, in: screen, mode: .fit)
    /// // page.bitmap is at most 1170x2532, upright, never upscaled.
    /// ```
    ///
    /// The pipeline does each step once, on as few pixels as it can:
    /// 1. shrink on load: JPEG DCT scaling (1/2, 1/4, 1/8: the SIMD paths) or
    ///    WebP scaled decode to the smallest size that still leaves
    ///    ``RenditionOptions/shrinkOnLoadHeadroom`` times the target (PNG
    ///    decodes at full size);
    /// 2. an integer box pre-shrink when the remaining ratio is still large;
    /// 3. the final filter (Lanczos3 by default) to the exact size, alpha
    ///    premultiplied, rows split across two threads when it pays;
    /// 4. the EXIF orientation, applied once, to the small image;
    /// 5. for ``RenditionMode/fill``, a centre crop to the box.
    ///
    /// The box is in display orientation. The result's ``exif`` (when the
    /// file had EXIF) says orientation 1, matching the upright pixels.
    public init<Bytes: Collection<UInt8>>(
        rendering bytes: Bytes, in box: PixelSize, mode: RenditionMode = .fit,
        options: RenditionOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        guard !box.isEmpty else { throw .invalidArgument("the rendition box \(box) is empty") }
        guard options.shrinkOnLoadHeadroom >= 1 else {
            throw .invalidArgument("shrinkOnLoadHeadroom must be at least 1, got \(options.shrinkOnLoadHeadroom)")
        }
        let headroom = options.shrinkOnLoadHeadroom
        let loadBox = PixelSize(width: box.width * headroom, height: box.height * headroom)
        let decodeOptions = DecodeOptions(
            targetSize: mode == .fit ? .fitting(loadBox) : .filling(loadBox), appliesOrientation: false, limits: options.limits,
            prefersFastScaling: true
        )
        let decoded = try registry.decode(Array(bytes), options: decodeOptions)

        let orientation = decoded.orientation
        let sourceDisplaySize = decoded.sourceOrientation.orientedSize(decoded.sourceSize)
        let displayTarget = mode == .fit ? sourceDisplaySize.fitting(in: box) : sourceDisplaySize.filling(box)
        let storedTarget = orientation.swapsDimensions ? displayTarget.transposed : displayTarget

        var bitmap = Resampler.resize(decoded.bitmap, to: storedTarget, filter: options.filter, boxPreshrink: true)
        bitmap = bitmap.oriented(orientation)
        if mode == .fill { bitmap = bitmap.centerCropped(to: box) }

        self = DecodedImage(
            bitmap: bitmap, format: decoded.format, orientation: .up, sourceOrientation: decoded.sourceOrientation,
            sourceSize: decoded.sourceSize, exif: decoded.exif?.settingOrientation(.up), warnings: decoded.warnings
        )
    }

    /// Decodes the display-ready pixels of the image file at `path` for a
    /// box; see ``init(rendering:in:mode:options:registry:)``.
    public init(
        renderingFileAt path: String, in box: PixelSize, mode: RenditionMode = .fit,
        options: RenditionOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        try self.init(rendering: try FileByteSource(path: path).readAll(), in: box, mode: mode, options: options, registry: registry)
    }
}
