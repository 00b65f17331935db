/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width * height`, saturating instead of
    /// overflowing for absurd sizes.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// Whether either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The size with width and height exchanged, as after a quarter turn.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The largest size with this aspect ratio that fits inside `box`, never
    /// larger than `self` (images are not upscaled), each side at least 1.
    ///
    /// ```swift
    /// PixelSize(width: 4000, height: 3000).fitting(in: PixelSize(width: 1920, height: 1080))
    /// // 1440 × 1080
    /// ```
    public func fitting(in box: PixelSize) -> PixelSize {
        scaled(by: min(Double(box.width) / Double(width), Double(box.height) / Double(height)))
    }

    /// The smallest size with this aspect ratio that covers `box`, never
    /// larger than `self`, each side at least 1.
    public func filling(_ box: PixelSize) -> PixelSize {
        scaled(by: max(Double(box.width) / Double(width), Double(box.height) / Double(height)))
    }

    /// The size scaled by `factor` (capped at 1: never upscaled), rounded to
    /// the nearest pixel, each side at least 1.
    public func scaled(by factor: Double) -> PixelSize {
        guard !isEmpty, factor.isFinite, factor < 1 else { return self }
        let factor = max(factor, 0)
        return PixelSize(
            width: max(1, min(width, Int((Double(width) * factor).rounded()))),
            height: max(1, min(height, Int((Double(height) * factor).rounded())))
        )
    }

    /// Whether both sides are at least those of `other`.
    public func covers(_ other: PixelSize) -> Bool {
        width >= other.width && height >= other.height
    }

    public var description: String { "\(width)x\(height)" }
}
