public import ImageCodecs

/// A rectangle in pixels of the *oriented* (displayed) image: the picker's
/// name for ``ImageCore/PixelRect``, which renditions report too.
public typealias CropRect = PixelRect

/// How a picked photo may be cropped.
public enum CropPreset: Hashable, Sendable {
    /// A square, as the classic picker's editing mode.
    case square
    /// Any rectangle.
    case free
    /// A fixed aspect ratio, `width`:`height`.
    case aspect(width: Int, height: Int)

    /// The largest centred rectangle with this preset's shape inside an
    /// oriented image of `size` (the whole image for ``free``).
    public func defaultCrop(in size: PixelSize) -> CropRect {
        guard let (w, h) = ratio else { return CropRect(x: 0, y: 0, width: size.width, height: size.height) }
        let fitted = PixelSize(width: w, height: h).scaledToFit(size)
        return CropRect(x: (size.width - fitted.width) / 2, y: (size.height - fitted.height) / 2, width: fitted.width, height: fitted.height)
    }

    /// `rect` made valid for this preset inside an image of `size`: shrunk
    /// to the preset's aspect ratio around its centre, at least 1x1, and
    /// moved (not shrunk further) to lie inside the image.
    public func constrain(_ rect: CropRect, in size: PixelSize) -> CropRect {
        var width = min(max(1, rect.width), size.width)
        var height = min(max(1, rect.height), size.height)
        if let (w, h) = ratio {
            let fitted = PixelSize(width: w, height: h).scaledToFit(PixelSize(width: width, height: height))
            width = fitted.width
            height = fitted.height
        }
        let centerX = rect.x + rect.width / 2
        let centerY = rect.y + rect.height / 2
        let x = min(max(0, centerX - width / 2), size.width - width)
        let y = min(max(0, centerY - height / 2), size.height - height)
        return CropRect(x: x, y: y, width: width, height: height)
    }

    private var ratio: (Int, Int)? {
        switch self {
        case .square: (1, 1)
        case .free: nil
        case .aspect(let width, let height): width > 0 && height > 0 ? (width, height) : nil
        }
    }
}

extension PixelSize {
    /// The largest size with this aspect ratio inside `box` (scaling up or
    /// down), each side at least 1.
    func scaledToFit(_ box: PixelSize) -> PixelSize {
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(
            width: max(1, min(box.width, Int((Double(width) * scale).rounded(.down)))),
            height: max(1, min(box.height, Int((Double(height) * scale).rounded(.down))))
        )
    }
}
