import Foundation

/// A `Duration` as the floating-point counts C calls, timers and reports
/// take: the one place its seconds and attoseconds are added up.
extension Duration {
    /// The duration in seconds (`.milliseconds(1500).inSeconds == 1.5`).
    package var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in milliseconds, with fractions.
    package var inMilliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    /// Whole milliseconds, rounded down and clamped to `Int64` (poll and
    /// socket timeouts; a negative duration is 0).
    package var wholeMilliseconds: Int64 {
        let parts = components
        guard parts.seconds >= 0 else { return 0 }
        let (scaled, overflow) = parts.seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return .max }
        return scaled + parts.attoseconds / 1_000_000_000_000_000
    }

    /// The duration as a clock, `M:SS` (`H:MM:SS` from an hour), rounded
    /// to the second: how a video's length and position are shown. A
    /// negative duration is `0:00`; one past 99 hours is shown as 99:59:58.
    package var clock: String {
        // Clamped before any arithmetic: a duration is whatever the caller (or a file) said.
        let whole = Int(min(max(components.seconds, 0), 359_998))
        let total = whole + (components.attoseconds >= 500_000_000_000_000_000 ? 1 : 0)
        let (hours, minutes, seconds) = (total / 3_600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, seconds) : String(format: "%d:%02d", minutes, seconds)
    }
}
