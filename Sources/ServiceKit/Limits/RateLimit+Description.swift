import SystemSupport

extension RateLimit: CustomStringConvertible {
    /// The limit in words, as a service's documentation states it:
    /// "30 per hour per account", "10 per minute", "4 per calendar month
    /// (UTC+8) per account".
    public var description: String {
        let window: String
        switch self.window {
        case .rolling(let length): window = Self.words(for: length)
        case .calendarDay(let offset): window = "calendar day (\(Self.zone(offset)))"
        case .calendarMonth(let offset): window = "calendar month (\(Self.zone(offset)))"
        }
        return "\(count) per \(window)" + (scope == .account ? " per account" : "")
    }

    private static func words(for interval: Duration) -> String {
        let seconds = interval.components.seconds
        if seconds > 0, seconds % 86_400 == 0 { return seconds == 86_400 ? "day" : "\(seconds / 86_400) days" }
        if seconds > 0, seconds % 3_600 == 0 { return seconds == 3_600 ? "hour" : "\(seconds / 3_600) hours" }
        if seconds > 0, seconds % 60 == 0, interval.components.attoseconds == 0 { return seconds == 60 ? "minute" : "\(seconds / 60) minutes" }
        if interval.components.attoseconds == 0 { return "\(seconds) seconds" }
        return "\(interval.inSeconds) seconds"
    }

    private static func zone(_ offset: Int) -> String {
        guard offset != 0 else { return "UTC" }
        let hours = abs(offset) / 3_600
        let minutes = abs(offset) % 3_600 / 60
        return "UTC\(offset < 0 ? "-" : "+")\(hours)" + (minutes == 0 ? "" : ":\(minutes < 10 ? "0" : "")\(minutes)")
    }
}
