import Foundation
import ServiceKit

/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850
/// and asctime forms a recipient must read, RFC 9110 §5.6.7), without a
/// `DateFormatter` (neither fast nor `Sendable`).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or `nil` when `text` is none of the three forms or names
    /// an impossible time (a header is a claim).
    static func parse(_ text: String) -> Date? {
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map { $0.lowercased() }
        let day: Int?
        let month: Int?
        var year: Int?
        let clock: Substring?
        switch words.count {
        case 6 where words[5] == "gmt":  // Sun, 06 Nov 1994 08:49:37 GMT
            (day, month, year, clock) = (Int(words[1]), months.firstIndex(of: words[2]), Int(words[3]), Substring(words[4]))
        case 4 where words[3] == "gmt":  // Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-")
            guard parts.count == 3 else { return nil }
            (day, month, year, clock) = (Int(parts[0]), months.firstIndex(of: String(parts[1])), Int(parts[2]), Substring(words[2]))
            if let two = year, two < 100 { year = two < 70 ? 2000 + two : 1900 + two }
        case 5:  // Sun Nov  6 08:49:37 1994
            (day, month, year, clock) = (Int(words[2]), months.firstIndex(of: words[1]), Int(words[4]), Substring(words[3]))
        default:
            return nil
        }
        guard let day, let month, let year, let clock, (1...31).contains(day), (1900...9999).contains(year) else { return nil }
        let fields = clock.split(separator: ":").compactMap { Int($0) }
        guard fields.count == 3, (0..<24).contains(fields[0]), (0..<60).contains(fields[1]), (0...60).contains(fields[2]) else { return nil }
        let days = CivilDate.days(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + fields[0] * 3_600 + fields[1] * 60 + fields[2]))
    }
}
