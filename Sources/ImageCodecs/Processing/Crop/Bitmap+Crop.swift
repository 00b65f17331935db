extension Bitmap {
    /// Where a crop of `cropSize` goes in this bitmap when `strategy`
    /// chooses: a rectangle of that size (clamped to the bitmap, at least
    /// 1x1) inside it.
    ///
    /// ```swift
    /// let square = PixelSize(width: filled.height, height: filled.height)
    /// let rect = filled.cropRect(square, strategy: .attention)
    /// ```
    public func cropRect(_ cropSize: PixelSize, strategy: CropStrategy) -> PixelRect {
        let crop = PixelSize(width: min(width, max(1, cropSize.width)), height: min(height, max(1, cropSize.height)))
        let centred = PixelRect(x: (width - crop.width) / 2, y: (height - crop.height) / 2, width: crop.width, height: crop.height)
        guard strategy != .centre, crop != size else { return centred }
        let analysis = CropAnalysis(self)
        let window = analysis.window(for: crop)
        let position =
            switch strategy {
            case .centre: (left: (analysis.width - window.width) / 2, top: (analysis.height - window.height) / 2)
            case .attention: analysis.bestWindow(analysis.attention(), window: window)
            case .entropy: analysis.entropyWindow(window)
            }
        return analysis.sourceRect(left: position.left, top: position.top, window: window, crop: crop, source: size)
    }

    /// The `cropSize` part of the bitmap that `strategy` keeps (clamped to
    /// its size); ``centerCropped(to:)`` for ``ImageCore/CropStrategy/centre``.
    public func cropped(to cropSize: PixelSize, strategy: CropStrategy) -> Bitmap {
        let rect = cropRect(cropSize, strategy: strategy)
        // Cannot fail: the rectangle is inside the bitmap by construction.
        return (try? cropped(x: rect.x, y: rect.y, size: rect.size)) ?? self
    }

    /// The bitmap scaled to cover `box` (never up) and cropped to it, the
    /// part kept chosen by `strategy`: a grid's square cell from a
    /// thumbnail, say.
    ///
    /// ```swift
    /// let cell = thumbnail.filling(PixelSize(width: 128, height: 128), crop: .attention)
    /// ```
    public func filling(_ box: PixelSize, crop strategy: CropStrategy = .centre, filter: ResamplingFilter = .lanczos3) -> Bitmap {
        let covering = size.filling(box)
        let scaled = covering == size ? self : resized(to: covering, filter: filter)
        return scaled.cropped(to: box, strategy: strategy)
    }
}
