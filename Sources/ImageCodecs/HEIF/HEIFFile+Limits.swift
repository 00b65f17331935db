extension HEIFFile {
    /// Checks every image `items` declares against `limits` before libheif
    /// allocates anything for it:
    ///
    /// - every image item's `ispe` (the primary, tiles, thumbnails, alpha
    ///   and depth images), and every grid's and overlay's own canvas;
    /// - a grid's canvas must be the size its `ispe` declares, or its
    ///   transpose (ISO/IEC 23008-12 requires the size; libheif 1.15's writer
    ///   swaps the sides of a rotated grid), since libheif 1.15 believes the
    ///   canvas: a 32x32 `ispe` over a 65535x65535 canvas overflows its buffer;
    /// - a grid's tiles together hold at most ``ImageCore/ImageLimits/maxPixelCount``
    ///   pixels, so decoding them is bounded like decoding one image.
    static func check(_ items: HEIFItems, against limits: ImageLimits, format: ImageFormat) throws(ImageCodecError) {
        for image in items.images {
            if let size = image.declaredSize { try limits.check(size, format: format) }
            guard let canvas = image.canvas else { continue }
            try limits.check(canvas, format: format)
            // libheif's own writer swaps the sides of a rotated grid's ispe: a transpose is accepted.
            if let declared = image.declaredSize, declared != canvas, declared != PixelSize(width: canvas.height, height: canvas.width) {
                throw .corrupt(format: format, message: "\(image.type) item \(image.id) lays out a \(canvas) canvas but declares \(declared) (ispe)")
            }
            guard image.type == "grid", let tileCount = image.tileCount else { continue }
            let tiles = items.tiles(of: image.id)
            guard tiles.count == tileCount else {
                throw .corrupt(format: format, message: "grid item \(image.id) has \(tileCount) cells but references \(tiles.count) tiles")
            }
            var area = 0
            for tile in tiles {
                guard let size = items.items[tile]?.declaredSize else {
                    throw .corrupt(format: format, message: "tile \(tile) of grid item \(image.id) declares no size")
                }
                area += size.pixelCount
                guard area <= limits.maxPixelCount else {
                    throw .tooLarge(width: canvas.width, height: canvas.height, limit: limits.maxPixelCount)
                }
            }
        }
    }
}

/// A ``ByteSource`` over memory the caller keeps alive, without a copy.
struct UnsafeMemoryByteSource: ByteSource {
    // Safe to send: the caller guarantees the memory outlives every use and
    // does not change it (HEIFFile's contract for its memory).
    nonisolated(unsafe) let memory: UnsafeRawBufferPointer

    init(_ memory: UnsafeRawBufferPointer) { self.memory = memory }

    var count: Int { memory.count }

    func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        guard offset >= 0, length > 0, offset < memory.count else { return [] }
        return Array(memory[offset..<min(memory.count, offset + min(length, memory.count - offset))])
    }
}
