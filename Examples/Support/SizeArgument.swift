/// A "WxH" argument ("390x844"): the one reader of sizes on the examples'
/// and benchmarks' command lines.
///
/// ```swift
/// let box = try SizeArgument("1080x1920", what: "--fit")   // box.width == 1080
/// ```
package struct SizeArgument: Hashable, Sendable {
    /// The width (a whole number when read with `wholeNumbers`).
    package let width: Double
    /// The height.
    package let height: Double

    /// Reads `text` as two numbers joined by `x`, each within `range`
    /// (whole numbers only when `wholeNumbers`); anything else ("10x",
    /// "1x2x3", "-5x5", "infxinf") is an error naming `what`.
    package init(_ text: String, what: String, range: ClosedRange<Double> = 1...65_535, wholeNumbers: Bool = false) throws(CLIError) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], range.contains(width), range.contains(height),
            !wholeNumbers || (width.rounded() == width && height.rounded() == height)
        else {
            throw CLIError(
                "\(what) takes a size WxH (each \(Int(range.lowerBound))-\(Int(range.upperBound))\(wholeNumbers ? ", whole numbers" : "")), got '\(text)'")
        }
        self.width = width
        self.height = height
    }

    /// The width as an `Int` (exact when read with `wholeNumbers`).
    package var pixelWidth: Int { Int(width) }
    /// The height as an `Int`.
    package var pixelHeight: Int { Int(height) }
}
