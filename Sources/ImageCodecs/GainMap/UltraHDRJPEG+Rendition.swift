/// A gain map's pixels and how they apply: what goes beside a photo's
/// pixels when a rendition of an HDR photo is made or encoded.
public struct GainMapImage: Hashable, Sendable {
    /// How the map applies; its ``ImageCore/GainMap/size`` is the bitmap's.
    public var gainMap: GainMap
    /// The map's pixels: grey (one channel) or RGB, as stored, upright.
    public var bitmap: Bitmap

    /// Creates a gain map image; the gain map's size and channels are the bitmap's.
    public init(gainMap: GainMap, bitmap: Bitmap) {
        var gainMap = gainMap
        gainMap.size = bitmap.size
        gainMap.channelCount = bitmap.pixelFormat == .gray8 ? 1 : 3
        self.gainMap = gainMap
        self.bitmap = bitmap
    }

    /// The map resized by what its photo went through, from `old` to
    /// `photo` (per side), never below one pixel: for a photo shrunk again
    /// to meet a byte cap.
    public func resized(toMatch photo: PixelSize, from old: PixelSize) -> GainMapImage {
        let size = GainMapGeometry.scaled(bitmap.size, by: photo, over: old)
        guard size != bitmap.size else { return self }
        return GainMapImage(gainMap: gainMap, bitmap: bitmap.resized(to: size))
    }
}

extension UltraHDRJPEG {
    /// The gain map shaped as `rendition` shaped its photo: turned by the
    /// photo's orientation, cropped to the part a fill kept (at the map's
    /// scale), resized at the map's own ratio to the photo (a quarter-size
    /// map stays a quarter of the rendition). `rendition` is a rendition
    /// (``DecodedImage/init(rendering:in:mode:options:registry:)``) or a
    /// decode of the photo in `jpeg`, the file `self` was found in.
    ///
    /// ```swift
    /// guard case .present(let ultraHDR) = UltraHDRJPEG.find(in: bytes) else { return }
    /// let page = try DecodedImage(rendering: bytes, in: box, mode: .fill)
    /// let map = try ultraHDR.map(matching: page, in: bytes)
    /// let shared = try UltraHDRJPEG.encode(page.bitmap, map: map)
    /// ```
    ///
    /// - Throws: a typed error when the map cannot be decoded, or when
    ///   `rendition` is not of this photo (another stored size).
    public func map(matching rendition: DecodedImage, in jpeg: [UInt8], limits: ImageLimits = .default) throws(ImageCodecError) -> GainMapImage {
        let photo = try JPEGHeader(reading: MemoryByteSource(jpeg)).size
        return try storedMap(in: jpeg, limits: limits).shaped(as: rendition, photoSize: photo)
    }

    /// The map's picture as stored in `jpeg` (the file `self` was found in), decoded.
    func storedMap(in jpeg: [UInt8], limits: ImageLimits) throws(ImageCodecError) -> GainMapImage {
        guard map.upperBound <= jpeg.count, let mapSize = gainMap.size else {
            throw .invalidArgument("the gain map was found in another file (\(map) is past its \(jpeg.count) bytes)")
        }
        let decoded = try JPEGCodec().decode(
            Array(jpeg[map]), options: DecodeOptions(appliesOrientation: false, limits: limits, colorHandling: .preserve))
        guard decoded.bitmap.size == mapSize else { throw .corrupt(format: .jpeg, message: "the gain map decodes as \(decoded.bitmap.size), not \(mapSize)") }
        return GainMapImage(gainMap: gainMap, bitmap: decoded.bitmap)
    }

    /// An Ultra HDR JPEG of `photo` and `map` (its parameters both as
    /// `hdrgm:` XMP and as ISO 21496-1 metadata): `options` for the photo
    /// (its quality, EXIF and colour profile), `mapQuality` for the map,
    /// grey or RGB as it is.
    public static func encode(
        _ photo: Bitmap, map: GainMapImage, options: EncodeOptions = .default, mapQuality: Int = 85
    ) throws(ImageCodecError) -> [UInt8] {
        let base = try JPEGCodec().encode(photo, options: options)
        return try assemble(base: base, map: try map.encoded(quality: mapQuality), parameters: map.gainMap.parameters)
    }
}

extension GainMapImage {
    /// The map's own JPEG (grey or 4:4:4 colour), without metadata:
    /// ``UltraHDRJPEG/assemble(base:map:parameters:)`` adds its parameters.
    public func encoded(quality: Int = 85) throws(ImageCodecError) -> [UInt8] {
        let pixels = bitmap.pixelFormat == .gray8 || bitmap.pixelFormat == .rgb8 ? bitmap : bitmap.converted(to: .rgb8)
        return try JPEGCodec().encode(pixels, options: EncodeOptions(quality: quality, chromaSubsampling: .none444))
    }
}

/// The arithmetic that keeps a gain map over the part of the photo it
/// belongs to, at its own ratio.
enum GainMapGeometry {
    /// `rect` (in a picture of `size`) at the scale of a map of `map`:
    /// rounded outward to whole map pixels, at least one, inside the map.
    static func rect(_ rect: PixelRect, of size: PixelSize, in map: PixelSize) -> PixelRect {
        func span(_ start: Int, _ length: Int, _ whole: Int, _ mapWhole: Int) -> (Int, Int) {
            let ratio = Double(mapWhole) / Double(max(1, whole))
            let low = min(mapWhole - 1, max(0, Int((Double(start) * ratio).rounded(.down))))
            let high = min(mapWhole, max(low + 1, Int((Double(start + length) * ratio).rounded(.up))))
            return (low, high - low)
        }
        let (x, width) = span(rect.x, rect.width, size.width, map.width)
        let (y, height) = span(rect.y, rect.height, size.height, map.height)
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// `size` times `numerator / denominator` per side, rounded, at least
    /// one pixel, and no larger than `bound` when given.
    static func scaled(_ size: PixelSize, by numerator: PixelSize, over denominator: PixelSize, within bound: PixelSize? = nil) -> PixelSize {
        func side(_ value: Int, _ top: Int, _ bottom: Int, _ limit: Int?) -> Int {
            let scaled = max(1, Int((Double(value) * Double(top) / Double(max(1, bottom))).rounded()))
            return limit.map { min($0, scaled) } ?? scaled
        }
        return PixelSize(
            width: side(size.width, numerator.width, denominator.width, bound?.width),
            height: side(size.height, numerator.height, denominator.height, bound?.height))
    }
}
