import Foundation
import ServiceKit
import SystemSupport

/// Weibo's date format, `Tue May 31 17:46:55 +0800 2011`, read without a
/// `DateFormatter` (which is neither fast nor `Sendable`).
enum WeiboDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date, or `nil` when `text` is not in that format or names an impossible time.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, let month = months.firstIndex(of: String(parts[1])), let day = Int(parts[2]), let year = Int(parts[5]),
            (1...31).contains(day), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[3].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second)
        else { return nil }
        let zone = parts[4]
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-", let hours = Int(zone.dropFirst().prefix(2)),
            let minutes = Int(zone.suffix(2)), hours <= 14, minutes < 60
        else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        let days = CivilDate.days(year: year, month: month + 1, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Formats `date` the way Weibo writes it, in UTC+8 (Beijing time).
    static func format(_ date: Date) -> String {
        let offset = 8 * 3600
        // Years 1 to 9999 (a stored date is a claim): never a trap for one beyond.
        let seconds = Int(clamping: date.timeIntervalSince1970, rounding: .down, to: -62_135_596_800...253_402_300_799) + offset
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.from(days: days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday) \(months[month - 1]) \(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0800 \(year)"
    }
}
