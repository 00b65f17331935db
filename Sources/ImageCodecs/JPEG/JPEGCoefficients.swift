import CJPEGShim

/// A JPEG component's quantized DCT coefficients, as stored: what a
/// lossless transform moves, and so what proves it lost nothing.
struct JPEGCoefficients: Hashable, Sendable {
    /// Blocks across.
    let blocksWide: Int
    /// Blocks down.
    let blocksHigh: Int
    /// 64 values per block, blocks row by row, each block in natural order
    /// (index `8 * v + u`, `u` the horizontal frequency).
    let values: [Int16]

    /// The coefficients of component `component` (0 is luma) of `jpeg`,
    /// read under the decoder's scan budget.
    init(of jpeg: [UInt8], component: Int = 0) throws(ImageCodecError) {
        var diagnostics = pd_jpeg_diagnostics()
        var wide: UInt32 = 0
        var high: UInt32 = 0
        let sized = jpeg.withUnsafeBufferPointer {
            pd_jpeg_read_coefficients($0.baseAddress, $0.count, Int32(component), nil, 0, &wide, &high, &diagnostics)
        }
        guard sized == 0 else { throw .corrupt(format: .jpeg, message: string(fromCCharacters: diagnostics.message)) }
        var values = [Int16](repeating: 0, count: Int(wide) * Int(high) * 64)
        let read = jpeg.withUnsafeBufferPointer { input in
            values.withUnsafeMutableBufferPointer { output in
                pd_jpeg_read_coefficients(input.baseAddress, input.count, Int32(component), output.baseAddress, output.count, &wide, &high, &diagnostics)
            }
        }
        guard read == 0 else { throw .corrupt(format: .jpeg, message: string(fromCCharacters: diagnostics.message)) }
        blocksWide = Int(wide)
        blocksHigh = Int(high)
        self.values = values
    }

    /// The coefficient `(u, v)` of block `(column, row)`.
    subscript(column: Int, row: Int, u: Int, v: Int) -> Int16 {
        values[(row * blocksWide + column) * 64 + v * 8 + u]
    }
}
