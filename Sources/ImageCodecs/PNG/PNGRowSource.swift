import CPNGShim

/// Rows of a non-interlaced PNG from libpng's row API.
final class PNGRowSource: RowSource {
    private var reader: OpaquePointer?
    /// Heap-allocated: the C reader keeps this address for its whole life.
    private let diagnostics = UnsafeMutablePointer<pd_png_diagnostics>.allocate(capacity: 1)
    // Defaults first, so that every stored property is set before any
    // failure and deinit always frees the C reader and the diagnostics.
    private(set) var size = PixelSize(width: 0, height: 0)
    private(set) var pixelFormat = PixelFormat.rgb8

    /// Keeps the file open while libpng reads from it.
    private var file: FileByteSource?

    /// Rows of the PNG in `data`; `nil` when it is interlaced (rows only
    /// exist after the last pass).
    convenience init?(data: UnsafeBufferPointer<UInt8>, limits: ImageLimits) throws(ImageCodecError) {
        try self.init(limits: limits) { header, diagnostics, maxSide in
            pd_png_reader_open(data.baseAddress, data.count, maxSide, maxSide, header, diagnostics)
        }
    }

    /// Rows of the PNG file `file`, read from disk as libpng needs them, so
    /// the file is never held in memory; `nil` when it is interlaced.
    convenience init?(file: FileByteSource, limits: ImageLimits) throws(ImageCodecError) {
        try self.init(limits: limits) { header, diagnostics, maxSide in
            pd_png_reader_open_file(file.descriptor, maxSide, maxSide, header, diagnostics)
        }
        self.file = file
    }

    private init?(
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
        // Interlaced rows exist only after the last pass: decode those whole.
        if header.interlaced != 0 { return nil }
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

    func finish() throws(ImageCodecError) -> [String] {
        let status = pd_png_reader_close(reader)
        reader = nil
        try check(status)
        guard diagnostics.pointee.warning_count > 0 else { return [] }
        return [string(fromCCharacters: diagnostics.pointee.first_warning)]
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
        guard let source = try PNGRowSource(data: data, limits: options.limits) else { return nil }
        return try Self.checked(StreamingDecode(source: source, plan: plan))
    }

    /// Rows of a PNG file read from disk as they are needed; `nil` when it
    /// is interlaced.
    func rowSource(for file: FileByteSource, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        let plan = try Self.plan(for: file, options: options)
        guard let source = try PNGRowSource(file: file, limits: options.limits) else { return nil }
        return try Self.checked(StreamingDecode(source: source, plan: plan))
    }

    private static func plan(for source: any ByteSource, options: DecodeOptions) throws(ImageCodecError) -> DecodePlan {
        let header = try PNGHeader(reading: source)
        return try DecodePlan(format: .png, storedSize: header.size, exif: header.exif, options: options)
    }

    private static func checked(_ decode: StreamingDecode) throws(ImageCodecError) -> StreamingDecode {
        let source = decode.source
        let plan = decode.plan
        guard source.size == plan.storedSize else {
            throw .corrupt(format: .png, message: "libpng reads \(source.size), the IHDR chunk says \(plan.storedSize)")
        }
        return decode
    }
}
