public import Foundation

/// A mouse drag as the browser needs it: the live movement (a pan while
/// zoomed in) and, when the button comes up, the whole translation and the
/// release velocity (a swipe). Velocity is measured over the last 100 ms.
public struct DragTracker: Sendable {
    private var origin: CGPoint
    private var last: CGPoint
    private var samples: [(point: CGPoint, seconds: Double)] = []
    /// A drag shorter than this (points) is a click.
    public var clickSlop: Double = 4

    /// A drag that started at `point` at `seconds`.
    public init(at point: CGPoint, seconds: Double) {
        origin = point
        last = point
        samples = [(point, seconds)]
    }

    /// The pointer moved to `point`: returns the movement since the last call.
    public mutating func move(to point: CGPoint, seconds: Double) -> CGSize {
        let delta = CGSize(width: point.x - last.x, height: point.y - last.y)
        last = point
        samples.append((point, seconds))
        // Keep the last 100 ms (and at least two samples).
        while samples.count > 2, seconds - samples[0].seconds > 0.1 { samples.removeFirst() }
        return delta
    }

    /// The movement from the press to now.
    public var translation: CGSize { CGSize(width: last.x - origin.x, height: last.y - origin.y) }

    /// Whether the pointer stayed within ``clickSlop`` of the press.
    public var isClick: Bool { hypot(Double(translation.width), Double(translation.height)) < clickSlop }

    /// The velocity at release (points per second), from the samples of the last 100 ms.
    public func velocity(at seconds: Double) -> CGSize {
        let recent = samples.filter { seconds - $0.seconds <= 0.1 }
        guard let first = recent.first, let final = recent.last, final.seconds - first.seconds > 0.001 else { return .zero }
        let time = final.seconds - first.seconds
        return CGSize(width: (final.point.x - first.point.x) / time, height: (final.point.y - first.point.y) / time)
    }
}
