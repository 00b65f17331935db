/// Where pixels go when stored pixels are turned upright, as byte offsets:
/// ``ImageCore/ImageOrientation``'s coordinate map written as a start and
/// two steps, so that the C loops (`pd_orient_pixels`, `pd_orient_row`)
/// move whole pixels without looking at the orientation.
struct OrientationMap: Equatable {
    /// The offset of the first pixel.
    let start: Int
    /// The offset added per step along a row.
    let stepX: Int
    /// The offset added per step down a column.
    let stepY: Int

    /// For gathering: display pixel (x, y) is read from the stored pixels at
    /// `start + x * stepX + y * stepY`.
    init(gathering orientation: ImageOrientation, stored: PixelSize, storedBytesPerRow: Int, bytesPerPixel: Int) {
        self.init(orientation, from: stored, bytesPerRow: storedBytesPerRow, bytesPerPixel: bytesPerPixel)
    }

    /// For scattering: stored pixel (x, y) is written to the display pixels
    /// (rows `displayBytesPerRow` apart) at `start + x * stepX + y * stepY`.
    init(scattering orientation: ImageOrientation, stored: PixelSize, displayBytesPerRow: Int, bytesPerPixel: Int) {
        // The display position of a stored pixel is the stored position of
        // a display pixel under the inverse orientation (display and stored
        // swap roles): the quarter turns invert each other, the rest
        // invert themselves.
        let inverse: ImageOrientation =
            switch orientation {
            case .right: .left
            case .left: .right
            default: orientation
            }
        self.init(inverse, from: orientation.orientedSize(stored), bytesPerRow: displayBytesPerRow, bytesPerPixel: bytesPerPixel)
    }

    /// The gathering map of `orientation` over pixels of `size`.
    private init(_ orientation: ImageOrientation, from size: PixelSize, bytesPerRow: Int, bytesPerPixel: Int) {
        // The axes do not depend on the size (only the origin does): probe
        // them on 2x2 pixels, which also works for images one pixel wide.
        let probe = PixelSize(width: 2, height: 2)
        let zero = orientation.sourceCoordinate(ofDisplayX: 0, y: 0, storedSize: probe)
        let alongX = orientation.sourceCoordinate(ofDisplayX: 1, y: 0, storedSize: probe)
        let alongY = orientation.sourceCoordinate(ofDisplayX: 0, y: 1, storedSize: probe)
        let origin = orientation.sourceCoordinate(ofDisplayX: 0, y: 0, storedSize: size)
        start = origin.y * bytesPerRow + origin.x * bytesPerPixel
        stepX = (alongX.y - zero.y) * bytesPerRow + (alongX.x - zero.x) * bytesPerPixel
        stepY = (alongY.y - zero.y) * bytesPerRow + (alongY.x - zero.x) * bytesPerPixel
    }
}
