import CPNGShim

/// A PNG read through the C shim's reader: row by row (``read(into:count:)``,
/// not for interlaced images) or whole (``readImage()``).
final class PNGRowSource: RowSource {
    private var reader: OpaquePointer?
    /// Heap-allocated: the C reader keeps this address for its whole life.
    private let diagnostics = UnsafeMutablePointer<pd_png_diagnostics>.allocate(capacity: 1)
    // Defaults first, so that every stored property is set before any
    // failure and deinit always frees the C reader and the diagnostics.
    private(set) var size = PixelSize(width: 0, height: 0)
    private(set) var pixelFormat = PixelFormat.rgb8
    /// Whether the image is Adam7-interlaced: its rows exist only after the
    /// last pass, so it must be read whole.
    private(set) var isInterlaced = false

    /// Keeps the file open while libpng reads from it.
    private var file: FileByteSource?

    /// Reads the PNG in `data`, which must stay valid while the source is used.
    convenience init(data: UnsafeBufferPointer<UInt8>, limits: ImageLimits) throws(ImageCodecError) {
        try self.init(limits: limits) { header, diagnostics, maxSide in
            pd_png_reader_open(data.baseAddress, data.count, maxSide, maxSide, header, diagnostics)
        }
    }

    /// Reads the PNG file `file` from disk as libpng needs bytes, so the file
    /// is never held in memory.
    convenience init(file: FileByteSource, limits: ImageLimits) throws(ImageCodecError) {
        try self.init(limits: limits) { header, diagnostics, maxSide in
            pd_png_reader_open_file(file.descriptor, maxSide, maxSide, header, diagnostics)
        }
        self.file = file
    }

    private init(
        limits: ImageLimits,
        open: (UnsafeMutablePointer<pd_png_header>, UnsafeMutablePointer<pd_png_diagnostics>, UInt32) -> OpaquePointer?
    ) throws(ImageCodecError) {
        let maxSide = UInt32(clamping: limits.maxDimension)
        var header = pd_png_header()
        diagnostics.initialize(to: pd_png_diagnostics())
        reader = open(&header, diagnostics, maxSide)
        guard reader != nil else {
            let message = string(fromCCharacters: diagnostics.pointee.message)
            throw diagnostics.pointee.truncated != 0 ? .truncated(format: .png, detail: message) : .corrupt(format: .png, message: message)
        }
        isInterlaced = header.interlaced != 0
        size = PixelSize(width: Int(header.width), height: Int(header.height))
        switch header.output_channels {
        case 1: pixelFormat = .gray8
        case 3: pixelFormat = .rgb8
        case 4: pixelFormat = .rgba8
        default:
            throw .corrupt(format: .png, message: "unexpected output layout of \(header.output_channels) channels")
        }
    }

    deinit {
        pd_png_reader_close(reader)
        diagnostics.deallocate()
    }

    func read(into rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(ImageCodecError) {
        try check(pd_png_reader_read(reader, rows, UInt32(count)))
    }

    /// Decodes the whole image (interlaced or not) and finishes.
    func readImage() throws(ImageCodecError) -> (Bitmap, [String]) {
        let stride = size.width * pixelFormat.bytesPerPixel
        var pixels = [UInt8](decoderOutputCount: stride * size.height)
        let status = pixels.withUnsafeMutableBufferPointer { output in
            let rows = (0..<size.height).map { Optional(output.baseAddress! + $0 * stride) }
            return rows.withUnsafeBufferPointer { pd_png_reader_read_image(reader, $0.baseAddress) }
        }
        try check(status)
        let warnings = try finish()
        return (Bitmap(uncheckedWidth: size.width, height: size.height, bytesPerRow: stride, pixelFormat: pixelFormat, pixels: pixels), warnings)
    }

    func finish() throws(ImageCodecError) -> [String] {
        let status = pd_png_reader_close(reader)
        reader = nil
        try check(status)
        let count = diagnostics.pointee.warning_count
        guard count > 0 else { return [] }
        let first = string(fromCCharacters: diagnostics.pointee.first_warning)
        return [count == 1 ? first : "\(first) (and \(count - 1) more warnings)"]
    }

    private func check(_ status: pd_png_status) throws(ImageCodecError) {
        switch status {
        case PD_PNG_OK: return
        case PD_PNG_TRUNCATED: throw .truncated(format: .png, detail: string(fromCCharacters: diagnostics.pointee.message))
        default: throw .corrupt(format: .png, message: string(fromCCharacters: diagnostics.pointee.message))
        }
    }
}

extension PNGCodec: RowDecoding {
    func rowSource(for data: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        let plan = try Self.plan(for: MemoryByteSource(data), options: options)
        let source = try PNGRowSource(data: data, limits: options.limits)
        try Self.checkSize(of: source, against: plan)
        return source.isInterlaced ? nil : StreamingDecode(source: source, plan: plan)
    }

    /// Rows of a PNG file read from disk as they are needed; `nil` when it
    /// is interlaced.
    func rowSource(for file: FileByteSource, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        let plan = try Self.plan(for: file, options: options)
        let source = try PNGRowSource(file: file, limits: options.limits)
        try Self.checkSize(of: source, against: plan)
        return source.isInterlaced ? nil : StreamingDecode(source: source, plan: plan)
    }

    static func plan(for source: any ByteSource, options: DecodeOptions) throws(ImageCodecError) -> DecodePlan {
        let header = try PNGHeader(reading: source)
        return try DecodePlan(format: .png, storedSize: header.size, exif: header.exif, color: header.color, options: options)
    }

    /// Throws when libpng and the Swift header scan disagree on the size.
    static func checkSize(of source: PNGRowSource, against plan: DecodePlan) throws(ImageCodecError) {
        guard source.size == plan.storedSize else {
            throw .corrupt(format: .png, message: "libpng reads \(source.size), the IHDR chunk says \(plan.storedSize)")
        }
    }
}
