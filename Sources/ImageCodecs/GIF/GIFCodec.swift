/// GIF decoding through giflib: a still decode is the first frame on the
/// logical screen (RGBA when the file uses transparency, else RGB); every
/// frame, composited, comes from ``ImageFrames``. There is no GIF encoder.
public struct GIFCodec: ImageDecoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .gif }
    public var signatureLength: Int { 6 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { GIFStructure.recognizes(leadingBytes) }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        // The block structure only (no LZW data is decompressed): frames and transparency.
        let structure = try GIFStructure(reading: source)
        return ImageInfo(
            format: .gif, size: structure.canvasSize, hasAlpha: structure.usesTransparency, bitDepth: 8, isAnimated: structure.frameCount > 1)
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let structure = try GIFStructure(reading: MemoryByteSource(data), maxFrames: 1)
        let plan = try DecodePlan(format: .gif, storedSize: structure.canvasSize, exif: nil, options: options)
        let decoder = try GIFFrameDecoder(data, limits: options.limits)
        guard let first = try decoder.nextFrame() else { throw .corrupt(format: .gif, message: "the file has no image") }
        let bitmap = structure.usesTransparency ? first.bitmap : first.bitmap.converted(to: .rgb8)
        return plan.finish(bitmap, warnings: [], options: options)
    }
}
