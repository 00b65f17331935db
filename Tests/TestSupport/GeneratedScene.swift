public import ImageCodecs
import Synchronization

/// A seeded outdoor scene rendered like a photo: a sky, far hills, a middle
/// ground of trees and houses, a subject near the camera, textured ground
/// and sensor noise. Rendering it from a camera stepped aside moves each
/// layer by its depth (parallax), so the hard negatives of near-duplicate
/// detection (the same view from a step aside, the same composition with
/// another subject) come from the same scene as the copies.
public struct GeneratedScene: Sendable {
    struct Shape: Sendable {
        enum Kind: Sendable { case ellipse, box, triangle }
        let kind: Kind
        let x, y, width, height: Double  // fractions of the frame
        let depth: Double
        let color: (Double, Double, Double)
        let stripes: Double  // stripe frequency across the shape, 0 for none
    }

    public let seed: UInt64
    let skyTop: (Double, Double, Double)
    let skyBottom: (Double, Double, Double)
    let ridge: [(amplitude: Double, frequency: Double, phase: Double)]
    let hillColor: (Double, Double, Double)
    let groundColor: (Double, Double, Double)
    let shapes: [Shape]
    let subjects: [Shape]

    /// The scene of `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed &* 7919)
        func color(_ low: Double = 0, _ high: Double = 1) -> (Double, Double, Double) {
            (Double.random(in: low...high, using: &random), Double.random(in: low...high, using: &random), Double.random(in: low...high, using: &random))
        }
        skyTop = color(0.2, 0.7)
        skyBottom = color(0.5, 1)
        ridge = (0..<4).map { _ in
            (Double.random(in: 0.01...0.06, using: &random), Double.random(in: 2...14, using: &random), Double.random(in: 0...6.28, using: &random))
        }
        hillColor = color(0.1, 0.6)
        groundColor = color(0.15, 0.7)
        shapes = (0..<Int.random(in: 5...9, using: &random)).map { _ in
            Shape(
                kind: [.ellipse, .box, .triangle][Int.random(in: 0...2, using: &random)], x: Double.random(in: 0.05...0.95, using: &random),
                y: Double.random(in: 0.45...0.7, using: &random), width: Double.random(in: 0.05...0.2, using: &random),
                height: Double.random(in: 0.1...0.3, using: &random), depth: Double.random(in: 2.5...5, using: &random), color: color(),
                stripes: Bool.random(using: &random) ? Double.random(in: 3...12, using: &random) : 0)
        }
        // Two subjects for one place: same size and spot, another look.
        let spot = (Double.random(in: 0.35...0.65, using: &random), Double.random(in: 0.55...0.7, using: &random))
        subjects = (0..<2).map { index in
            Shape(
                kind: index == 0 ? .ellipse : .box, x: spot.0, y: spot.1, width: 0.18, height: 0.42, depth: 1.4, color: color(),
                stripes: index == 0 ? 0 : 6)
        }
    }

    /// Renders made in this test process, by seed and view: a scene is
    /// drawn pixel by pixel, slow in a debug or sanitizer build, and
    /// several suites ask for the same ones.
    private static let renders = Mutex<[String: Bitmap]>([:])

    /// The scene as a `width` × `height` RGB bitmap, from a camera moved
    /// sideways by `step` (a fraction of the frame at depth 1; nearer
    /// layers move more), showing subject 0 or 1. Made once per process.
    public func render(width: Int, height: Int, step: Double = 0, subject: Int = 0) -> Bitmap {
        let key = "\(seed) \(width)x\(height) \(step) \(subject)"
        if let made = Self.renders.withLock({ $0[key] }) { return made }
        let made = drawn(width: width, height: height, step: step, subject: subject)
        Self.renders.withLock { $0[key] = made }
        return made
    }

    private func drawn(width: Int, height: Int, step: Double, subject: Int) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var noise = SeededGenerator(seed: seed ^ 0xA5A5)
        let layered = (shapes + [subjects[subject]]).sorted { $0.depth > $1.depth }
        for row in 0..<height {
            let v = (Double(row) + 0.5) / Double(height)
            for column in 0..<width {
                let u = (Double(column) + 0.5) / Double(width)
                let t = min(1, v / 0.5)
                var c = (
                    skyTop.0 + (skyBottom.0 - skyTop.0) * t, skyTop.1 + (skyBottom.1 - skyTop.1) * t, skyTop.2 + (skyBottom.2 - skyTop.2) * t
                )
                let hillU = u + step / 8
                let ridgeLine = 0.42 + ridge.reduce(0) { $0 + $1.amplitude * Self.sine(hillU * $1.frequency + $1.phase) }
                if v > ridgeLine { c = Self.shade(hillColor, 0.85 + 0.15 * Self.sine(hillU * 40 + v * 25)) }
                if v > 0.62 {
                    let groundU = u + step / 2
                    c = Self.shade(groundColor, 0.8 + 0.2 * Self.sine(groundU * 60 * (v + 0.3)) * Self.sine(v * 90))
                }
                for shape in layered {
                    let su = u + step / shape.depth
                    let dx = (su - shape.x) / (shape.width / 2)
                    let dy = (v - shape.y) / (shape.height / 2)
                    let inside: Bool
                    switch shape.kind {
                    case .ellipse: inside = dx * dx + dy * dy <= 1
                    case .box: inside = abs(dx) <= 1 && abs(dy) <= 1
                    case .triangle: inside = dy >= -1 && dy <= 1 && abs(dx) <= (dy + 1) / 2
                    }
                    if inside { c = Self.shade(shape.color, shape.stripes > 0 ? 0.75 + 0.25 * Self.sine(dx * shape.stripes) : 0.9 + 0.1 * dy) }
                }
                let o = (row * width + column) * 3
                let grain = Double(Int(noise.next() % 9) - 4) / 255
                pixels[o] = Self.byte(c.0 + grain)
                pixels[o + 1] = Self.byte(c.1 + grain)
                pixels[o + 2] = Self.byte(c.2 + grain)
            }
        }
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    static func shade(_ color: (Double, Double, Double), _ factor: Double) -> (Double, Double, Double) {
        (color.0 * factor, color.1 * factor, color.2 * factor)
    }

    static func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, (value * 255).rounded()))) }

    /// A sine good enough for textures, without Foundation.
    static func sine(_ x: Double) -> Double {
        let twoPi = 6.283185307179586
        var y = x - (x / twoPi).rounded(.down) * twoPi - 3.141592653589793
        // sin(y + π) = −sin(y), with y in [−π, π): Bhaskara-style parabola, refined.
        let s = 1.2732395447351628 * y - 0.4052847345693511 * y * abs(y)
        y = 0.225 * (s * abs(s) - s) + s
        return -y
    }
}
