/// Numbers that came from outside (a file, an answer, a header) turned
/// into the package's integers without a trap: `Int(1e300)` and `Int(.nan)`
/// stop the process, and a stored `Int.max` plus one does too. These are
/// the one rule for each conversion; a value they refuse is the caller's
/// typed error or skipped line.
///
/// ```swift
/// let milliseconds = Int(rounding: seconds * 1000, .up)   // nil for NaN, ±∞, 1e300
/// let wait = Int(clamping: seconds * 1000, rounding: .up, to: 1...86_400_000)
/// let next = stored.checkedSuccessor                       // nil at Int.max
/// ```
extension Int {
    /// `value` rounded by `rule` when the result is finite and within
    /// `Int`'s range; `nil` otherwise.
    package init?(rounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        guard let exact = Int(exactly: value.rounded(rule)) else { return nil }
        self = exact
    }

    /// `value` rounded by `rule` and held within `range`: beyond it (±∞
    /// included) it is the nearer end; NaN is the lower end.
    package init(clamping value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero, to range: ClosedRange<Int>) {
        let rounded = value.rounded(rule)
        if rounded.isNaN || rounded <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if rounded >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Int(rounded)
        }
    }

    /// One more, or `nil` at `Int.max` (a stored sequence number's next).
    package var checkedSuccessor: Int? {
        let (next, overflow) = addingReportingOverflow(1)
        return overflow ? nil : next
    }
}
