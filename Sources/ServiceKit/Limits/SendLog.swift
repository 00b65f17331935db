package import Foundation
import SystemSupport

/// The times things were sent under one key (a provider's destination, an
/// account), and the one rule that turns them into a wait under a
/// ``RateLimit``. Both ledgers (``InMemoryRateLimitLedger``,
/// ``FileRateLimitLedger``) keep these; nothing else does the arithmetic.
package struct SendLog: Hashable, Sendable, Codable {
    /// Send times in seconds since 1970, oldest first.
    package private(set) var times: [Double]

    package init(times: [Double] = []) { self.times = times.sorted() }

    /// The latest send time a log may hold: the year 9999. A ledger is a
    /// file like any other; a time that is not finite or lies beyond this
    /// (or before 1970) is not one a ledger writes.
    package static let timeRange: ClosedRange<Double> = 0...253_402_300_799

    /// The most send times one key keeps: far above any provider's window
    /// (Weibo allows 30 posts an hour), so a damaged file cannot make every
    /// check scan millions.
    package static let maxTimes = 100_000

    /// Reads a log, refusing times out of ``timeRange`` and more than
    /// ``maxTimes`` of them, as a damaged ledger (never emptied: an empty
    /// log would admit sends the service then refuses).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let times = try container.decode([Double].self, forKey: .times)
        guard times.count <= Self.maxTimes else {
            throw DecodingError.dataCorruptedError(
                forKey: .times, in: container, debugDescription: "\(times.count) send times, over the \(Self.maxTimes) a log keeps")
        }
        if let bad = times.first(where: { !Self.timeRange.contains($0) }) {
            throw DecodingError.dataCorruptedError(forKey: .times, in: container, debugDescription: "a send time of \(bad) seconds, not a time a ledger writes")
        }
        self.init(times: times)
    }

    private enum CodingKeys: String, CodingKey { case times }

    /// How long from `now` until one more send fits `limit` (`nil`: it fits now).
    package func wait(under limit: RateLimit, at now: Date) -> Duration? {
        let now = now.timeIntervalSince1970
        switch limit.window {
        case .rolling(let length):
            // Sends in (now - length, now], and any stamped later (a clock that went back).
            let inWindow = times.filter { $0 > now - length.inSeconds }
            guard inWindow.count >= limit.count else { return nil }
            // One more fits once all but count - 1 of them have left the window.
            let leaving = inWindow[inWindow.count - limit.count]
            return Self.duration(leaving + length.inSeconds - now)
        case .calendarDay(let offset), .calendarMonth(let offset):
            let start = Self.periodStart(of: limit.window, containing: now, offset: offset)
            guard times.filter({ $0 >= start }).count >= limit.count else { return nil }
            return Self.duration(Self.periodStart(of: limit.window, after: now, offset: offset) - now)
        }
    }

    /// Adds a send at `now`, forgetting those older than `horizon` (the
    /// longest window any limit on this key has).
    package mutating func record(at now: Date, keeping horizon: Duration) {
        let stamp = now.timeIntervalSince1970
        times.removeAll { $0 <= stamp - horizon.inSeconds }
        times.append(stamp)
        times.sort()
    }

    /// A wait of `seconds`, rounded up to the millisecond, never zero and
    /// never more than a year (whatever the times it came from).
    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int(clamping: seconds * 1_000, rounding: .up, to: 1...(366 * 86_400_000)))
    }

    /// The start of the day or month holding `time`, at `offset` from UTC.
    private static func periodStart(of window: RateLimit.Window, containing time: Double, offset: Int) -> Double {
        // Clamped to the years a ledger holds, so the calendar's arithmetic cannot overflow.
        let local = Int(clamping: time + Double(offset), rounding: .down, to: -86_400...Int(timeRange.upperBound) + 86_400)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        switch window {
        case .calendarMonth:
            let (year, month, _) = CivilDate.from(days: days)
            return Double(CivilDate.days(year: year, month: month, day: 1) * 86_400 - offset)
        default:
            return Double(days * 86_400 - offset)
        }
    }

    /// The start of the day or month after the one holding `time`.
    private static func periodStart(of window: RateLimit.Window, after time: Double, offset: Int) -> Double {
        let start = periodStart(of: window, containing: time, offset: offset)
        switch window {
        case .calendarMonth:
            let (year, month, _) = CivilDate.from(days: Int(clamping: (start + Double(offset)) / 86_400, rounding: .down, to: -1...3_000_000))
            let next = month == 12 ? (year + 1, 1) : (year, month + 1)
            return Double(CivilDate.days(year: next.0, month: next.1, day: 1) * 86_400 - offset)
        default:
            return start + 86_400
        }
    }
}

/// Days since 1970-01-01 and back (Howard Hinnant's algorithms), for
/// calendar windows without a `Calendar` (neither fast nor `Sendable`).
package enum CivilDate {
    /// Days from 1970-01-01 to `year`-`month`-`day`.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day `days` after 1970-01-01.
    package static func from(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
