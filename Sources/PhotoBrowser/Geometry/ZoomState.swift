public import Foundation

/// Where the browser is looking: a zoom and the image point (in image
/// pixels) shown at the centre of the visible area.
///
/// Keeping the centre as an image point, rather than a scroll offset, is what
/// lets a rotation or resize keep the same part of the photo in view.
public struct ZoomState: Hashable, Sendable {
    /// Points per image pixel.
    public var zoom: Double
    /// The image point, in pixels, at the centre of the visible area.
    public var center: CGPoint

    /// Creates a state.
    public init(zoom: Double, center: CGPoint) {
        self.zoom = zoom
        self.center = center
    }
}
