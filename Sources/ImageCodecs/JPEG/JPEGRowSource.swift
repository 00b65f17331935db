import CJPEGShim

/// Rows of a JPEG from libjpeg's scanline API (the same libjpeg-turbo
/// engine as TurboJPEG, which has no row-by-row call): streamed by renditions,
/// read whole (``readAllRows()``) for files TurboJPEG refuses.
final class JPEGRowSource: RowSource {
    private var reader: OpaquePointer?
    /// Heap-allocated: the C reader keeps this address for its whole life.
    private let diagnostics = UnsafeMutablePointer<pd_jpeg_diagnostics>.allocate(capacity: 1)
    private let acceptsTruncatedData: Bool
    /// The file a file reader reads (kept open while the reader lives).
    private let file: FileByteSource?
    // Defaults first, so that every stored property is set before any
    // failure and deinit always frees the C reader and the diagnostics.
    private(set) var size = PixelSize(width: 0, height: 0)
    /// Bytes per pixel: 1 (gray), 3 (RGB) or 4 (CMYK).
    private(set) var channels = 3

    /// The row layout for streaming. CMYK sources are never streamed (their
    /// rows need converting); they are read whole with ``readAllRows()``.
    var pixelFormat: PixelFormat { channels == 1 ? .gray8 : .rgb8 }

    init(
        data: UnsafeBufferPointer<UInt8>, eighths: Int, size: PixelSize, output: pd_jpeg_output, acceptsTruncatedData: Bool
    ) throws(ImageCodecError) {
        self.size = size
        channels = Int(output.rawValue)
        self.acceptsTruncatedData = acceptsTruncatedData
        file = nil
        diagnostics.initialize(to: pd_jpeg_diagnostics())
        reader = pd_jpeg_reader_open(
            data.baseAddress, data.count, Int32(eighths), output, UInt32(size.width), UInt32(size.height), diagnostics
        )
        guard reader != nil else { throw failure() }
    }

    /// A reader of `file` that reads it 64 KB at a time as rows are asked
    /// for, up to the length it had when opened: the file is never held whole.
    init(file: FileByteSource, eighths: Int, size: PixelSize, output: pd_jpeg_output, acceptsTruncatedData: Bool) throws(ImageCodecError) {
        self.size = size
        channels = Int(output.rawValue)
        self.acceptsTruncatedData = acceptsTruncatedData
        self.file = file
        diagnostics.initialize(to: pd_jpeg_diagnostics())
        reader = pd_jpeg_reader_open_file(
            file.descriptor, UInt64(file.count), Int32(eighths), output, UInt32(size.width), UInt32(size.height), diagnostics
        )
        guard reader != nil else { throw failure() }
    }

    /// The error libjpeg (or the scan budget) stopped with.
    private func failure() -> ImageCodecError {
        .corrupt(format: .jpeg, message: string(fromCCharacters: diagnostics.pointee.message))
    }

    deinit {
        pd_jpeg_reader_close(reader)
        diagnostics.deallocate()
    }

    func read(into rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(ImageCodecError) {
        guard pd_jpeg_reader_read(reader, rows, UInt32(count)) == 0 else { throw failure() }
        if diagnostics.pointee.truncated != 0 && !acceptsTruncatedData {
            throw .truncated(format: .jpeg, detail: string(fromCCharacters: diagnostics.pointee.first_warning))
        }
    }

    /// Every row, tightly packed, then finishes.
    func readAllRows() throws(ImageCodecError) -> ([UInt8], [String]) {
        let stride = size.width * channels
        var pixels = [UInt8](decoderOutputCount: stride * size.height)
        let result: Result<Void, ImageCodecError> = pixels.withUnsafeMutableBufferPointer { output in
            var rows = (0..<size.height).map { Optional(output.baseAddress! + $0 * stride) }
            return rows.withUnsafeMutableBufferPointer { pointers in
                do throws(ImageCodecError) {
                    try read(into: pointers.baseAddress!, count: size.height)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        }
        try result.get()
        return (pixels, try finish())
    }

    func finish() throws(ImageCodecError) -> [String] {
        let status = pd_jpeg_reader_close(reader)
        reader = nil
        guard status == 0 else { throw failure() }
        return diagnostics.pointee.warning_count > 0 ? [string(fromCCharacters: diagnostics.pointee.first_warning)] : []
    }
}

extension JPEGCodec: RowDecoding {
    func rowSource(for data: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        try rowSource(header: JPEGHeader(reading: MemoryByteSource(data)), options: options) { eighths, size, output throws(ImageCodecError) in
            try JPEGRowSource(data: data, eighths: eighths, size: size, output: output, acceptsTruncatedData: options.acceptsTruncatedData)
        }
    }

    /// The same for a file, read as it decodes (64 KB at a time), never
    /// held whole: a 24 MP photo's 4 to 12 MB stay on disk.
    func rowSource(for file: FileByteSource, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        try rowSource(header: JPEGHeader(reading: file), options: options) { eighths, size, output throws(ImageCodecError) in
            try JPEGRowSource(file: file, eighths: eighths, size: size, output: output, acceptsTruncatedData: options.acceptsTruncatedData)
        }
    }

    /// The plan from `header`, and the reader `open` makes at the scale it picks.
    private func rowSource(
        header: JPEGHeader, options: DecodeOptions,
        open: (_ eighths: Int, _ size: PixelSize, _ output: pd_jpeg_output) throws(ImageCodecError) -> JPEGRowSource
    ) throws(ImageCodecError) -> StreamingDecode? {
        try header.checkSupported()
        guard header.componentCount == 1 || header.componentCount == 3 else { return nil }
        let plan = try DecodePlan(format: .jpeg, storedSize: header.size, exif: header.exif, color: header.color, options: options)
        let scaling =
            plan.wantsScaling
            ? Self.scaling(of: header.size, covering: plan.requiredStoredSize, fastOnly: options.prefersFastScaling)
            : (eighths: 8, size: header.size)
        let source = try open(scaling.eighths, scaling.size, header.componentCount == 1 ? PD_JPEG_GRAY : PD_JPEG_RGB)
        return StreamingDecode(source: source, plan: plan)
    }
}
