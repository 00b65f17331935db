public import ImageCodecs

extension ImageOrientation {
    /// The orientation that shows what this one shows, then transformed by
    /// `transform` (`.right` turns the picture a quarter clockwise,
    /// `.left` anticlockwise, `.upMirrored` flips it left to right,
    /// `.downMirrored` top to bottom).
    ///
    /// ```swift
    /// ImageOrientation.up.then(.right).then(.right)   // .down
    /// ```
    public func then(_ transform: ImageOrientation) -> ImageOrientation {
        // The eight orientations are a group: find the one that maps every
        // pixel of a small probe as the two steps do.
        let stored = PixelSize(width: 3, height: 2)
        let shown = orientedSize(stored)
        return ImageOrientation.allCases.first { candidate in
            guard candidate.orientedSize(stored) == transform.orientedSize(shown) else { return false }
            let size = candidate.orientedSize(stored)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let middle = transform.sourceCoordinate(ofDisplayX: x, y: y, storedSize: shown)
                    let expected = sourceCoordinate(ofDisplayX: middle.x, y: middle.y, storedSize: stored)
                    let actual = candidate.sourceCoordinate(ofDisplayX: x, y: y, storedSize: stored)
                    if expected != actual { return false }
                }
            }
            return true
        } ?? self
    }
}

/// A photo's renditions turned or flipped for viewing (`r`, `h`): the
/// photo's own renditions, asked for at the unturned size, then oriented.
struct OrientedRendition: RenditionSource {
    let photo: BrowserPhoto
    let orientation: ImageOrientation

    var identity: String { "\(photo.id)#orientation=\(orientation.rawValue)" }

    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        // orientedSize swaps the sides exactly when the orientation does.
        let unturned = orientation.orientedSize(size)
        return try await photo.loadRendition(fitting: unturned, options: options).oriented(orientation)
    }
}

extension BrowserPhoto {
    /// The photo as shown turned or flipped by `orientation` (itself when `.up`).
    func viewed(_ orientation: ImageOrientation) -> BrowserPhoto {
        guard orientation != .up else { return self }
        return BrowserPhoto(
            id: id, source: .rendered(OrientedRendition(photo: self, orientation: orientation)),
            displaySize: orientation.orientedSize(displaySize))
    }

    /// The rendition cache's name for this photo as shown.
    var renditionID: String {
        if case .rendered(let source as OrientedRendition) = source { return source.identity }
        return id
    }
}
