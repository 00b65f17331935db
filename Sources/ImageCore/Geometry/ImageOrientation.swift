/// The EXIF orientation (TIFF tag 0x0112): how the stored pixels must be
/// transformed to display upright. Raw values 1...8; cases are named as
/// `UIImage.Orientation` names them.
public enum ImageOrientation: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: transposed (mirrored across the top-left to bottom-right diagonal).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to display.
    case right = 6
    /// 7: transversed (mirrored across the top-right to bottom-left diagonal).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to display.
    case left = 8

    /// The orientation for an EXIF value; values outside 1...8 (0 is common
    /// in the wild) mean ``up``, as the EXIF specification's default.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: UInt8(clamping: exifValue)) ?? .up
    }

    /// Whether displaying the image exchanges its width and height (5...8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The display size of stored pixels of `storedSize`.
    public func orientedSize(_ storedSize: PixelSize) -> PixelSize {
        swapsDimensions ? storedSize.transposed : storedSize
    }

    /// The stored-pixel coordinate shown at display coordinate (`x`, `y`),
    /// for stored pixels of `storedSize`.
    public func sourceCoordinate(ofDisplayX x: Int, y: Int, storedSize: PixelSize) -> (x: Int, y: Int) {
        let w = storedSize.width
        let h = storedSize.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    public var description: String {
        switch self {
        case .up: "up (1)"
        case .upMirrored: "up mirrored (2)"
        case .down: "down (3)"
        case .downMirrored: "down mirrored (4)"
        case .leftMirrored: "left mirrored (5)"
        case .right: "right (6)"
        case .rightMirrored: "right mirrored (7)"
        case .left: "left (8)"
        }
    }
}
