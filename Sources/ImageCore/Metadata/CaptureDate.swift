public import Foundation

/// When a photo was taken, as EXIF records it: a wall-clock time and, when
/// the camera wrote `OffsetTimeOriginal`, its offset from UTC.
public struct CaptureDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Calendar year.
    public let year: Int
    /// Month, 1...12.
    public let month: Int
    /// Day of the month, 1...31.
    public let day: Int
    /// Hour, 0...23.
    public let hour: Int
    /// Minute, 0...59.
    public let minute: Int
    /// Second, 0...60.
    public let second: Int
    /// Offset from UTC in seconds, when the file records it.
    public let utcOffsetSeconds: Int?

    /// Parses EXIF's `"YYYY:MM:DD HH:MM:SS"` and an optional `"+HH:MM"`
    /// offset. Returns `nil` for blank or malformed dates
    /// (`"0000:00:00 00:00:00"` is common).
    public init?(exifDateTime text: String, offset: String? = nil) {
        let digits = Array(text.utf8.prefix(19))
        guard digits.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = digits[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard digits[4] == 0x3A, digits[7] == 0x3A, digits[13] == 0x3A, digits[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        self.init(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            utcOffsetSeconds: offset.flatMap(Self.parseOffset))
    }

    /// Creates a capture date from its parts; `nil` when a part is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetSeconds: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
            utcOffsetSeconds.map({ abs($0) <= 14 * 3600 }) ?? true
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The wall-clock time as EXIF writes it: `"YYYY:MM:DD HH:MM:SS"`.
    public var exifDateTime: String {
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + ":\(Self.two(month)):\(Self.two(day)) \(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))"
    }

    /// The offset as EXIF's `OffsetTimeOriginal` writes it (`"+09:00"`), when known.
    public var exifOffset: String? {
        utcOffsetSeconds.map { offset in
            (offset < 0 ? "-" : "+") + "\(Self.two(abs(offset) / 3600)):\(Self.two(abs(offset) % 3600 / 60))"
        }
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func parseOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(6))
        guard bytes.count == 6, bytes[0] == 0x2B || bytes[0] == 0x2D, bytes[3] == 0x3A,
            let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
            hours <= 14, minutes < 60
        else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return bytes[0] == 0x2D ? -seconds : seconds
    }

    /// The moment, using the recorded offset or, without one, UTC (EXIF
    /// wall-clock times carry no zone; UTC keeps ordering stable).
    public var date: Date {
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds ?? 0) ?? TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    public static func < (lhs: CaptureDate, rhs: CaptureDate) -> Bool { lhs.date < rhs.date }

    public var description: String {
        let date = exifDateTime.replacingOccurrences(
            of: ":", with: "-", options: [], range: exifDateTime.startIndex..<exifDateTime.index(exifDateTime.startIndex, offsetBy: 10))
        return exifOffset.map { "\(date) \($0)" } ?? date
    }
}
