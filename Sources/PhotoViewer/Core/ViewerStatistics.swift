import Foundation
import ImageCodecs

/// How fast a viewer answered: the time from an input (a key press, the
/// end of a drag) to the frame that shows its result, and how many
/// renditions were decoded.
public struct ViewerStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Every input-to-frame time, in milliseconds, in order.
    public private(set) var inputToFrame: [Double] = []
    /// The time to the first frame, in milliseconds (from the viewer's start).
    public var firstFrame: Double?
    /// Renditions decoded (cache misses).
    public var decodes = 0
    /// Renditions found in the cache or joined from a prefetch.
    public var cacheHits = 0
    /// For each frame, the time spent putting its pixels in place (the
    /// window's texture, the terminal's encoded image), in milliseconds.
    public private(set) var upload: [Double] = []
    /// For each frame, the time spent presenting it (the window system's
    /// present, the write to the terminal), in milliseconds.
    public private(set) var present: [Double] = []
    /// How the frames were shown, for example `window, software: the X
    /// server offers no direct rendering (no DRI3 or DRI2)` or `terminal, kitty`.
    public var output: String?

    /// Empty statistics.
    public init() {}

    /// Records one input-to-frame time.
    public mutating func record(milliseconds: Double) {
        guard milliseconds.isFinite, milliseconds >= 0 else { return }
        inputToFrame.append(milliseconds)
    }

    /// Records how long one frame's upload and present took.
    public mutating func recordDraw(uploadMilliseconds: Double, presentMilliseconds: Double) {
        guard uploadMilliseconds.isFinite, presentMilliseconds.isFinite else { return }
        upload.append(uploadMilliseconds)
        present.append(presentMilliseconds)
    }

    /// The median input-to-frame time, if any were recorded.
    public var median: Double? { percentile(50) }
    /// The 95th percentile input-to-frame time.
    public var p95: Double? { percentile(95) }
    /// The slowest input-to-frame time.
    public var maximum: Double? { inputToFrame.max() }

    /// The `p`th percentile (nearest rank) of the input-to-frame times.
    public func percentile(_ p: Double) -> Double? { Self.percentile(p, of: inputToFrame) }

    /// The `p`th percentile (nearest rank) of `values`.
    static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// One line per figure, for `--stats`.
    public var description: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0) } ?? "-" }
        return """
            frames: \(inputToFrame.count) after input; input to frame: median \(ms(median)), p95 \(ms(p95)), max \(ms(maximum))
            first frame: \(ms(firstFrame)); renditions: \(decodes) decoded, \(cacheHits) from cache or prefetch
            """
                + (upload.isEmpty
                    ? ""
                    : "\ndrawing: upload median \(ms(Self.percentile(50, of: upload))), present median \(ms(Self.percentile(50, of: present))), p95 \(ms(Self.percentile(95, of: present)))")
                + "\nimage threads: at most \(ImageWorkers.imageThreadPeak) at work at once (limit \(ImageWorkers.imageThreadLimit))"
                + (output.map { "\noutput: \($0)" } ?? "")
    }
}
