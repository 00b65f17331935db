import CFFmpeg
import CVideoShim

/// Conversions between a stream's ticks (counts of its time base) and
/// `Duration`, each range-checked, so that no timestamp a file claims can
/// trap an arithmetic operation.
enum StreamTime {
    /// The most ticks either way taken as a time (about 28 years at a
    /// 1/1,000,000,000 time base): further is a lie, and refused.
    static let maxTicks: Int64 = 900_000_000_000_000_000

    /// `ticks` of `base` as a duration (to the millisecond), or `nil` when
    /// it is negative, not a time, or longer than 10⁹ seconds.
    static func duration(ticks: Int64, base: AVRational) -> Duration? {
        seconds(ticks: ticks, base: base).map { .milliseconds(Int64(($0 * 1_000).rounded())) }
    }

    /// `ticks` of `base` to the microsecond (a sound sample's time: a
    /// millisecond is 48 samples), or `nil` as for ``duration(ticks:base:)``.
    static func preciseDuration(ticks: Int64, base: AVRational) -> Duration? {
        seconds(ticks: ticks, base: base).map { .microseconds(Int64(($0 * 1_000_000).rounded())) }
    }

    private static func seconds(ticks: Int64, base: AVRational) -> Double? {
        guard ticks >= 0, ticks != PD_AV_NOPTS_VALUE, ticks < maxTicks, base.num > 0, base.den > 0 else { return nil }
        let seconds = Double(ticks) * Double(base.num) / Double(base.den)
        guard seconds.isFinite, seconds < 1e9 else { return nil }
        return seconds
    }

    /// `time` in ticks of `base` (rounded down), or `nil` when it does not
    /// fit ``maxTicks``.
    static func ticks(_ time: Duration, base: AVRational) -> Int64? {
        guard base.num > 0, base.den > 0 else { return nil }
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        let ticks = seconds * Double(base.den) / Double(base.num)
        guard ticks.isFinite, ticks >= 0, ticks < Double(maxTicks) else { return nil }
        return Int64(ticks.rounded(.down))
    }
}
