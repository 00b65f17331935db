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
}
