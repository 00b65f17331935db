/// How an image is first placed in the browser's viewport.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// The whole image visible, as large as fits (letter- or pillar-boxed).
    case aspectFit
    /// The viewport covered; the overflow can be panned to.
    case aspectFill
    /// One image pixel per screen pixel, centred.
    case center
    /// The image's width matches the viewport's.
    case fitWidth
    /// The image's height matches the viewport's.
    case fitHeight
}

/// Distances by which the visible area is inset from the viewport's edges
/// (a safe area, a toolbar), in points.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the left edge.
    public var left: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the right edge.
    public var right: Double

    /// Creates insets.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets()
}
