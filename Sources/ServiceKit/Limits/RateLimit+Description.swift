import SystemSupport

extension RateLimit: CustomStringConvertible {
    /// The limit in words, as a service's documentation states it:
    /// "30 per hour per account", "10 per minute", "4 per 30 days per account".
    public var description: String {
        let seconds = interval.components.seconds
        let window: String
        if seconds > 0, seconds % 86_400 == 0 {
            window = seconds == 86_400 ? "day" : "\(seconds / 86_400) days"
        } else if seconds > 0, seconds % 3_600 == 0 {
            window = seconds == 3_600 ? "hour" : "\(seconds / 3_600) hours"
        } else if seconds > 0, seconds % 60 == 0, interval.components.attoseconds == 0 {
            window = seconds == 60 ? "minute" : "\(seconds / 60) minutes"
        } else if interval.components.attoseconds == 0 {
            window = "\(seconds) seconds"
        } else {
            window = "\(interval.inSeconds) seconds"
        }
        return "\(count) per \(window)" + (scope == .account ? " per account" : "")
    }
}
