/// How a rendition relates to its box.
public enum RenditionMode: String, Hashable, Sendable, CaseIterable {
    /// The whole image, as large as fits inside the box (aspect fit).
    case fit
    /// The box covered, the overflow cropped away (aspect fill): the
    /// middle kept unless ``RenditionOptions/crop`` chooses otherwise.
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
    /// Whether tagged colours end as sRGB (the default, for screens) or
    /// keep their profile in ``DecodedImage/colorProfile``.
    public var colorHandling: ColorHandling
    /// Which part of a ``RenditionMode/fill`` rendition's overflow stays:
    /// ``ImageCore/CropStrategy/centre`` (the default) or a choice made from the
    /// content. The rendition reports it in ``DecodedImage/crop``.
    public var crop: CropStrategy

    /// Creates rendition options.
    public init(
        filter: ResamplingFilter = .lanczos3, limits: ImageLimits = .default, shrinkOnLoadHeadroom: Int = 2, colorHandling: ColorHandling = .convertToSRGB,
        crop: CropStrategy = .centre
    ) {
        self.crop = crop
        self.colorHandling = colorHandling
        self.filter = filter
        self.limits = limits
        self.shrinkOnLoadHeadroom = shrinkOnLoadHeadroom
    }

    /// Lanczos3, default limits, 2x headroom.
    public static let `default` = RenditionOptions()

    /// For a rendition someone is waiting to see (a photo browser's page):
    /// Lanczos3 with no headroom, so a JPEG decodes at the smallest DCT
    /// scale that still covers the box. A 24 MP JPEG for a 1620x1080 page
    /// then decodes at 1/2 scale instead of full size, with a lighter
    /// resize: about 15% less CPU alone, and in photo-browser's window
    /// (where SDL and the display server share the cores) a first page 40 ms
    /// sooner (median 129 against 171 ms).
    ///
    /// The price is fidelity, since libjpeg's reduced IDCT is a sharper,
    /// less even low-pass than Lanczos3. Against an exact Lanczos3 of the
    /// full decode: 42 dB on a smooth colour texture and 34 dB on saturated
    /// colour noise at the finest detail a JPEG keeps, where ``default``
    /// gets 57 dB on both. Against ``default``'s own output: 53 dB for a
    /// generated 24 MP colour plasma, 51 dB for a grey texture. Use ``default`` for
    /// renditions that are kept or shared.
    public static func interactive(limits: ImageLimits = .default) -> RenditionOptions {
        RenditionOptions(limits: limits, shrinkOnLoadHeadroom: 1)
    }
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
    /// 2. the final filter (Lanczos3 by default) to the exact size, alpha
    ///    premultiplied. JPEG and non-interlaced PNG rows are filtered on a
    ///    second thread while they decode, so the decoded image is never held
    ///    whole (HEIC and AVIF rows stream from libheif's buffer); other
    ///    inputs are decoded whole, box pre-shrunk when the
    ///    remaining ratio is large, and filtered on two threads;
    /// 3. the EXIF orientation, applied once, to the small image (on the
    ///    filtering thread as it makes each row, when rows stream);
    /// 4. for ``RenditionMode/fill``, a crop to the box where
    ///    ``RenditionOptions/crop`` chooses (reported in ``crop``);
    /// 5. an embedded colour profile converted to sRGB, once, on the result
    ///    (``RenditionOptions/colorHandling``).
    ///
    /// The box is in display orientation. The result's ``exif`` (when the
    /// file had EXIF) says orientation 1, matching the upright pixels.
    public init<Bytes: Collection<UInt8>>(
        rendering bytes: Bytes, in box: PixelSize, mode: RenditionMode = .fit,
        options: RenditionOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        let decodeOptions = try Self.decodeOptions(box: box, mode: mode, options: options)
        let data = Array(bytes)
        let decoder = try registry.decoder(for: MemoryByteSource(data.prefix(registry.sniffLength)))

        // Streaming first: resample rows while they decode (JPEG, PNG).
        if let streaming = decoder as? any RowDecoding {
            let streamed: Result<DecodedImage?, ImageCodecError> = data.withUnsafeBufferPointer { buffer in
                do throws(ImageCodecError) {
                    guard let decode = try streaming.rowSource(for: buffer, options: decodeOptions) else { return .success(nil) }
                    return .success(try Self.render(decode, box: box, mode: mode, options: options))
                } catch {
                    return .failure(error)
                }
            }
            if let image = try streamed.get() {
                self = image
                return
            }
        }

        // Whole-image path: WebP (decoded straight to about twice the target),
        // interlaced PNG, CMYK JPEG and formats added to the registry.
        let decoded = try decoder.decode(data, options: decodeOptions)
        let storedTarget = Self.storedTarget(source: decoded.sourceSize, orientation: decoded.orientation, box: box, mode: mode)
        let bitmap = Resampler.resize(decoded.bitmap, to: storedTarget, filter: options.filter, boxPreshrink: true)
        self = Self.finishRendition(
            bitmap, format: decoded.format, orientation: decoded.orientation, sourceSize: decoded.sourceSize, exif: decoded.exif,
            warnings: decoded.warnings, colorProfile: decoded.colorProfile, box: box, mode: mode, options: options
        )
    }

    /// Decode options for the shrink-on-load step.
    private static func decodeOptions(box: PixelSize, mode: RenditionMode, options: RenditionOptions) throws(ImageCodecError) -> DecodeOptions {
        guard !box.isEmpty else { throw .invalidArgument("the rendition box \(box) is empty") }
        guard options.shrinkOnLoadHeadroom >= 1 else {
            throw .invalidArgument("shrinkOnLoadHeadroom must be at least 1, got \(options.shrinkOnLoadHeadroom)")
        }
        let headroom = options.shrinkOnLoadHeadroom
        let loadBox = PixelSize(width: box.width * headroom, height: box.height * headroom)
        // Colour is converted once, on the final small image (see finishRendition).
        return DecodeOptions(
            targetSize: mode == .fit ? .fitting(loadBox) : .filling(loadBox), appliesOrientation: false, limits: options.limits,
            prefersFastScaling: true, colorHandling: .preserve
        )
    }

    /// Resamples a streaming decode while it runs, then finishes it.
    private static func render(
        _ decode: StreamingDecode, box: PixelSize, mode: RenditionMode, options: RenditionOptions
    ) throws(ImageCodecError) -> DecodedImage {
        let plan = decode.plan
        let storedTarget = storedTarget(source: plan.storedSize, orientation: plan.orientation, box: box, mode: mode)
        // The filtering thread writes the rows upright as it makes them.
        let (upright, warnings) = try StreamingResampler.resize(decode.source, to: storedTarget, filter: options.filter, orientation: plan.orientation)
        return finishRendition(
            upright, format: plan.format, orientation: plan.orientation, isUpright: true, sourceSize: plan.storedSize, exif: plan.exif,
            warnings: warnings + plan.color.warnings, colorProfile: plan.color.profile, box: box, mode: mode, options: options
        )
    }

    /// The rendition's size in stored orientation: the display size that
    /// fits (or fills) the box, never larger than the source.
    private static func storedTarget(source: PixelSize, orientation: ImageOrientation, box: PixelSize, mode: RenditionMode) -> PixelSize {
        let display = orientation.orientedSize(source)
        let target = mode == .fit ? display.fitting(in: box) : display.filling(box)
        return orientation.swapsDimensions ? target.transposed : target
    }

    /// Orients the resampled pixels (once, on the small image; `isUpright`
    /// when the streaming resampler has done it already), crops a fill
    /// to the box (where the strategy chooses, reading the colours as
    /// sRGB), converts the colours to sRGB (once, on the fewest
    /// pixels: the resampler filters the encoded values either way, so
    /// converting after it rather than before differs only by the curvature
    /// between two gamma-encoded spaces, while it touches the 3 MP result
    /// instead of the 24 MP source), and records that the EXIF orientation
    /// is now applied.
    private static func finishRendition(
        _ bitmap: Bitmap, format: ImageFormat, orientation: ImageOrientation, isUpright: Bool = false, sourceSize: PixelSize, exif: ExifMetadata?,
        warnings: [String], colorProfile: ColorProfile?, box: PixelSize, mode: RenditionMode, options: RenditionOptions
    ) -> DecodedImage {
        var upright = isUpright ? bitmap : bitmap.oriented(orientation)
        var crop: PixelRect?
        if mode == .fill {
            let rect = upright.cropRect(box, strategy: options.crop)
            crop = sourceRect(rect, within: upright.size, source: orientation.orientedSize(sourceSize))
            // Cannot fail: the rectangle is inside the bitmap by construction.
            upright = (try? upright.cropped(x: rect.x, y: rect.y, size: rect.size)) ?? upright
        }
        var image = DecodedImage(
            bitmap: upright, format: format, orientation: .up, sourceOrientation: orientation,
            sourceSize: sourceSize, exif: exif?.settingOrientation(.up), warnings: warnings, colorProfile: colorProfile, crop: crop
        )
        if options.colorHandling == .convertToSRGB { image.convertToSRGB() }
        return image
    }

    /// `rect` in a `scaled` image mapped onto the upright `source` it was
    /// resampled from, inside it.
    static func sourceRect(_ rect: PixelRect, within scaled: PixelSize, source: PixelSize) -> PixelRect {
        guard !scaled.isEmpty, scaled != source else { return rect }
        func map(_ start: Int, _ length: Int, _ from: Int, _ to: Int) -> (Int, Int) {
            let ratio = Double(to) / Double(from)
            let mappedLength = min(to, max(1, Int((Double(length) * ratio).rounded())))
            let mappedStart = min(to - mappedLength, max(0, Int((Double(start) * ratio).rounded())))
            return (mappedStart, mappedLength)
        }
        let (x, width) = map(rect.x, rect.width, scaled.width, source.width)
        let (y, height) = map(rect.y, rect.height, scaled.height, source.height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// Decodes the display-ready pixels of the image file at `path` for a
    /// box; see ``init(rendering:in:mode:options:registry:)``. A JPEG
    /// (grey or YCbCr) and a non-interlaced PNG are read from disk as they
    /// decode, never held whole.
    public init(
        renderingFileAt path: String, in box: PixelSize, mode: RenditionMode = .fit,
        options: RenditionOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        let file = try FileByteSource(path: path)
        let decoder = try registry.decoder(for: file)
        let streamed: StreamingDecode? =
            switch decoder {
            case let png as PNGCodec: try png.rowSource(for: file, options: Self.decodeOptions(box: box, mode: mode, options: options))
            case let jpeg as JPEGCodec: try jpeg.rowSource(for: file, options: Self.decodeOptions(box: box, mode: mode, options: options))
            default: nil
            }
        if let streamed {
            self = try Self.render(streamed, box: box, mode: mode, options: options)
            return
        }
        try self.init(rendering: try file.readAll(limit: options.limits.maxFileBytes), in: box, mode: mode, options: options, registry: registry)
    }
}
