/// The layout of one pixel in a ``Bitmap``: 8 bits per channel, sRGB assumed,
/// alpha (when present) straight, not premultiplied.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One luminance byte per pixel.
    case gray8
    /// Red, green and blue bytes.
    case rgb8
    /// Red, green, blue and straight (unpremultiplied) alpha bytes.
    case rgba8

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: 1
        case .rgb8: 3
        case .rgba8: 4
        }
    }

    /// Whether the format carries an alpha channel.
    public var hasAlpha: Bool { self == .rgba8 }

    public var description: String { rawValue }
}

/// Decoded pixels: a value type that owns its memory (copy-on-write).
///
/// Rows are stored top to bottom, each `bytesPerRow` bytes long, of which the
/// first `width * pixelFormat.bytesPerPixel` hold pixels.
public struct Bitmap: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Distance in bytes from one row to the next.
    public let bytesPerRow: Int
    /// How each pixel is laid out.
    public let pixelFormat: PixelFormat
    /// The pixel bytes, `bytesPerRow * height` of them.
    public private(set) var pixels: [UInt8]

    /// Wraps existing pixel bytes.
    ///
    /// - Throws: ``ImageCodecError/invalidArgument(_:)`` when the buffer is too
    ///   small for the geometry or the geometry is empty.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument("a bitmap needs a positive size, got \(width)x\(height)")
        }
        // Sizes from outside can be any Int: the products are checked, never trapped on.
        let (tightRow, rowOverflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        let rowBytes = bytesPerRow ?? tightRow
        guard !rowOverflow, rowBytes >= tightRow else {
            throw .invalidArgument("bytesPerRow \(rowBytes) is less than \(width) pixels of \(pixelFormat)")
        }
        let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, pixels.count >= needed else {
            throw .invalidArgument("\(pixels.count) bytes cannot hold \(width)x\(height) \(pixelFormat) with \(rowBytes) bytes per row")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = rowBytes
        self.pixelFormat = pixelFormat
        self.pixels = pixels
    }

    /// Creates a tightly packed bitmap whose pixels are all zero.
    public init(zeroedWidth width: Int, height: Int, pixelFormat: PixelFormat) {
        precondition(width > 0 && height > 0, "a bitmap needs a positive size")
        self.width = width
        self.height = height
        self.bytesPerRow = width * pixelFormat.bytesPerPixel
        self.pixelFormat = pixelFormat
        self.pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
    }

    /// Internal initialiser for buffers whose geometry the caller has checked.
    package init(uncheckedWidth width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixelFormat = pixelFormat
        self.pixels = pixels
    }

    /// The bitmap's size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of pixel memory held, the figure caches should count.
    public var byteCount: Int { pixels.count }

    /// Calls `body` with the raw pixel bytes.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = pixels.withUnsafeBytes { buffer in
            do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Calls `body` with the raw pixel bytes, mutably.
    public mutating func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = pixels.withUnsafeMutableBytes { buffer in
            do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The channel bytes of the pixel at (`x`, `y`), for tests and tools.
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(size)")
        let start = y * bytesPerRow + x * pixelFormat.bytesPerPixel
        return pixels[start..<start + pixelFormat.bytesPerPixel]
    }

    public var description: String { "Bitmap(\(width)x\(height) \(pixelFormat))" }
}
