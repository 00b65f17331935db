/// A rectangle in whole pixels: a left and top edge and a size.
///
/// A rendition's ``PixelRect`` is in the *displayed* (upright) image's
/// pixels, as a picker's crop is.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle's size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    public var description: String { "\(width)x\(height) at (\(x), \(y))" }
}
