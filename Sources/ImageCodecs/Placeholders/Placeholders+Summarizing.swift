extension Bitmap {
    /// The bitmap fitted into 100×100, the most pixels a placeholder hash
    /// needs; itself when it already fits.
    package func placeholderSample() -> Bitmap {
        let side = ThumbHash.maxEncodedDimension
        guard width > side || height > side else { return self }
        let target = size.fitting(in: PixelSize(width: side, height: side))
        return resized(to: PixelSize(width: max(1, target.width), height: max(1, target.height)), filter: .bilinear)
    }
}

extension DecodeOptions {
    /// Options for the decode a placeholder is made from: the smallest
    /// image covering 100×100 (1/8 of a JPEG's size through DCT scaling),
    /// upright and in sRGB.
    package static func placeholder(limits: ImageLimits) -> DecodeOptions {
        let side = ThumbHash.maxEncodedDimension
        return DecodeOptions(targetSize: .fitting(PixelSize(width: side, height: side)), limits: limits, prefersFastScaling: true)
    }
}

extension ThumbHash {
    /// The ThumbHash of a bitmap of any size: fitted into 100×100, then
    /// encoded as the reference encodes.
    ///
    /// ```swift
    /// let hash = ThumbHash(summarizing: decoded.bitmap)
    /// print(hash.base64)
    /// ```
    public init(summarizing bitmap: Bitmap) {
        // A sample fits 100x100 by construction, so the encoder accepts it.
        try! self.init(pixels: bitmap.placeholderSample())
    }

    /// The ThumbHash of an encoded image, decoded at the smallest size that
    /// covers 100×100 (a JPEG at 1/8 scale), upright and in sRGB.
    ///
    /// - Throws: ``ImageCore/ImageCodecError`` when the image cannot be
    ///   decoded within `limits`.
    public init<Bytes: Collection<UInt8>>(
        summarizingImage bytes: Bytes, limits: ImageLimits = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        let image = try DecodedImage(decoding: bytes, options: .placeholder(limits: limits), registry: registry)
        self.init(summarizing: image.bitmap)
    }

    /// The ThumbHash of the image file at `path`; see
    /// ``init(summarizingImage:limits:registry:)``.
    public init(summarizingImageAt path: String, limits: ImageLimits = .default, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        let image = try DecodedImage(decodingFileAt: path, options: .placeholder(limits: limits), registry: registry)
        self.init(summarizing: image.bitmap)
    }
}

extension BlurHash {
    /// The BlurHash of a bitmap of any size: fitted into 100×100, then
    /// encoded as the reference encodes.
    public init(summarizing bitmap: Bitmap, components: Components = .standard) {
        self.init(pixels: bitmap.placeholderSample(), components: components)
    }

    /// The BlurHash of an encoded image, decoded at the smallest size that
    /// covers 100×100, upright and in sRGB.
    ///
    /// ```swift
    /// let hash = try BlurHash(summarizingImage: jpegBytes)
    /// print(hash) // 28 characters: 4x3 components
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError`` when the image cannot be
    ///   decoded within `limits`.
    public init<Bytes: Collection<UInt8>>(
        summarizingImage bytes: Bytes, components: Components = .standard, limits: ImageLimits = .default,
        registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        let image = try DecodedImage(decoding: bytes, options: .placeholder(limits: limits), registry: registry)
        self.init(summarizing: image.bitmap, components: components)
    }

    /// The BlurHash of the image file at `path`; see
    /// ``init(summarizingImage:components:limits:registry:)``.
    public init(
        summarizingImageAt path: String, components: Components = .standard, limits: ImageLimits = .default,
        registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        let image = try DecodedImage(decodingFileAt: path, options: .placeholder(limits: limits), registry: registry)
        self.init(summarizing: image.bitmap, components: components)
    }
}

extension ImageSignature {
    /// The signature of an encoded image, from the decode a placeholder is
    /// made from (the smallest covering 100×100, upright and in sRGB): a
    /// few milliseconds for a 12 MP JPEG.
    ///
    /// ```swift
    /// let signature = try ImageSignature(summarizingImage: jpegBytes)
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError`` when the image cannot be
    ///   decoded within `limits`.
    public init<Bytes: Collection<UInt8>>(
        summarizingImage bytes: Bytes, limits: ImageLimits = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        self.init(summarizing: try DecodedImage(decoding: bytes, options: .placeholder(limits: limits), registry: registry).bitmap)
    }

    /// The signature of the image file at `path`; see
    /// ``init(summarizingImage:limits:registry:)``.
    public init(summarizingImageAt path: String, limits: ImageLimits = .default, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        self.init(summarizing: try DecodedImage(decodingFileAt: path, options: .placeholder(limits: limits), registry: registry).bitmap)
    }
}
