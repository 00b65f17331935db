import Foundation
import Testing

@testable import PhotoViewer

@Suite("Window pinch gestures")
struct PinchGestureTests {
    let viewport = CGSize(width: 800, height: 600)

    @Test("fingers moving apart zoom in at their centre, closer zoom out, by a quarter of the diagonal per doubling")
    func pinch() {
        #expect(
            PinchGesture.command(fingers: 2, distanceChange: 0.25, x: 0.5, y: 0.25, viewport: viewport)
                == .pinch(scale: 2, center: CGPoint(x: 400, y: 150)))
        #expect(
            PinchGesture.command(fingers: 3, distanceChange: -0.05, x: 0, y: 1, viewport: viewport)
                == .pinch(scale: 0.8, center: CGPoint(x: 0, y: 600)))
    }

    @Test("one finger, a rotation without a distance change and nonsense values are no pinch; extremes are bounded")
    func ignored() {
        #expect(PinchGesture.command(fingers: 1, distanceChange: 0.2, x: 0.5, y: 0.5, viewport: viewport) == nil)
        #expect(PinchGesture.command(fingers: 2, distanceChange: 0, x: 0.5, y: 0.5, viewport: viewport) == nil)
        #expect(PinchGesture.command(fingers: 2, distanceChange: .nan, x: 0.5, y: 0.5, viewport: viewport) == nil)
        #expect(
            PinchGesture.command(fingers: 2, distanceChange: -3, x: 1.7, y: -0.2, viewport: viewport)
                == .pinch(scale: 0.5, center: CGPoint(x: 800, y: 0)))
    }
}
