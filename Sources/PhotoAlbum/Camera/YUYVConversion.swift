public import ImageCodecs

/// Converts packed YUYV 4:2:2 (the format most USB webcams offer besides
/// MJPEG) to RGB, with BT.601 limited-range coefficients in fixed point.
public enum YUYVConversion {
    /// An RGB bitmap of `width` x `height` from YUYV bytes with
    /// `bytesPerRow` per row (at least `width * 2`).
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` when the geometry
    ///   is odd or the bytes are too few.
    public static func rgbBitmap(fromYUYV bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int? = nil) throws(ImageCodecError) -> Bitmap {
        let stride = bytesPerRow ?? width * 2
        guard width > 0, height > 0, width % 2 == 0 else {
            throw .invalidArgument("YUYV needs an even, positive width; got \(width)x\(height)")
        }
        guard stride >= width * 2, bytes.count >= stride * (height - 1) + width * 2 else {
            throw .invalidArgument("\(bytes.count) bytes are too few for \(width)x\(height) YUYV with \(stride) bytes per row")
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var s = y * stride
                    var t = y * width * 3
                    for _ in 0..<(width / 2) {
                        let y0 = Int(source[s])
                        let u = Int(source[s + 1]) - 128
                        let y1 = Int(source[s + 2])
                        let v = Int(source[s + 3]) - 128
                        let red = 409 * v + 128
                        let green = -100 * u - 208 * v + 128
                        let blue = 516 * u + 128
                        for luma in 0..<2 {
                            let c = 298 * ((luma == 0 ? y0 : y1) - 16)
                            target[t] = clamp((c + red) >> 8)
                            target[t + 1] = clamp((c + green) >> 8)
                            target[t + 2] = clamp((c + blue) >> 8)
                            t += 3
                        }
                        s += 4
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: rgb)
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt8 { UInt8(clamping: value) }
}
