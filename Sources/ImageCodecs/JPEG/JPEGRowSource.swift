import CJPEGShim

/// Rows of a JPEG from libjpeg's scanline API (the same libjpeg-turbo
/// engine as TurboJPEG, which has no row-by-row call): streamed by renditions,
/// read whole (``readAllRows()``) for files TurboJPEG refuses.
final class JPEGRowSource: RowSource {
    private var reader: OpaquePointer?
    /// Heap-allocated: the C reader keeps this address for its whole life.
    private let diagnostics = UnsafeMutablePointer<pd_jpeg_diagnostics>.allocate(capacity: 1)
    private let acceptsTruncatedData: Bool
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
        diagnostics.initialize(to: pd_jpeg_diagnostics())
        reader = pd_jpeg_reader_open(
            data.baseAddress, data.count, Int32(eighths), output, UInt32(size.width), UInt32(size.height), diagnostics
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
        let header = try JPEGHeader(reading: MemoryByteSource(data))
        try header.checkSupported()
        guard header.componentCount == 1 || header.componentCount == 3 else { return nil }
        let plan = try DecodePlan(format: .jpeg, storedSize: header.size, exif: header.exif, color: header.color, options: options)
        let scaling =
            plan.wantsScaling
            ? Self.scaling(of: header.size, covering: plan.requiredStoredSize, fastOnly: options.prefersFastScaling)
            : (eighths: 8, size: header.size)
        let source = try JPEGRowSource(
            data: data, eighths: scaling.eighths, size: scaling.size, output: header.componentCount == 1 ? PD_JPEG_GRAY : PD_JPEG_RGB,
            acceptsTruncatedData: options.acceptsTruncatedData
        )
        return StreamingDecode(source: source, plan: plan)
    }
}
