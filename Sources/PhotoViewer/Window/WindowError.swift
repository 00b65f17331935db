/// Why the window could not open.
public enum WindowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SDL found no display (no `DISPLAY`, a refused connection): SDL's reason.
    case noDisplay(String)
    /// The window opened but no renderer could draw in it.
    case noRenderer(String)

    public var description: String {
        switch self {
        case .noDisplay(let reason): "no display for a window: \(reason.isEmpty ? "SDL could not start its video" : reason)"
        case .noRenderer(let reason): "the window has no renderer: \(reason)"
        }
    }
}
