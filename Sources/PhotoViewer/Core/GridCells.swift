public import ImageCodecs

/// How the thumbnail grid shows a photo in its square cell.
///
/// ```swift
/// await controller.setGridCells(.fill(.attention))  // the default
/// await controller.setGridCells(.fit)               // whole photos, letterboxed
/// ```
public enum GridCells: Hashable, Sendable, CustomStringConvertible {
    /// The whole photo, fitted into the cell (bars beside a wide photo).
    case fit
    /// The cell covered, the photo cropped where the strategy chooses.
    case fill(CropStrategy)

    public var description: String {
        switch self {
        case .fit: "fit"
        case .fill(let strategy): "fill-\(strategy.rawValue)"
        }
    }
}
