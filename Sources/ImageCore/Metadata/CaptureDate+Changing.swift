public import Foundation

extension CaptureDate {
    /// What a change of time zone keeps: the moment the photo was taken, or
    /// the time its clock showed.
    public enum ZoneChange: Hashable, Sendable {
        /// The same moment, told in the new zone: the clock moves with the
        /// offset (a photo taken at 12:00 in Berlin, +02:00, re-zoned to
        /// Tokyo reads 19:00 +09:00). For a camera that was set right but
        /// whose offset was recorded wrong or not at all.
        case keepingInstant
        /// The same clock time, labelled with the new zone's offset at that
        /// time (12:00 +02:00 becomes 12:00 +09:00): the moment moves. For a
        /// camera whose clock was set to the zone of the trip but whose
        /// offset says home.
        case keepingClock
    }

    /// This date with its clock moved by `seconds` (negative: earlier), the
    /// offset kept; `nil` when the result falls outside the years 1…9999.
    ///
    /// ```swift
    /// let fixed = date.shifted(by: -3600)   // the camera was an hour ahead
    /// ```
    public func shifted(by seconds: Int) -> CaptureDate? {
        guard abs(seconds) <= 10_000 * 366 * 86_400 else { return nil }
        return Self(clockSeconds: clockSeconds + seconds, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// This date in `zone`, keeping the instant or the clock as `change`
    /// says; the offset is the zone's at that moment, daylight saving
    /// included. `nil` when keeping the instant of a date that records no
    /// offset (the instant is unknown), or when the result falls outside
    /// the years 1…9999.
    ///
    /// ```swift
    /// let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// let moved = date.inZone(tokyo, keeping: .keepingInstant)
    /// ```
    public func inZone(_ zone: TimeZone, keeping change: ZoneChange) -> CaptureDate? {
        switch change {
        case .keepingInstant:
            guard let offset = utcOffsetSeconds else { return nil }
            let instant = clockSeconds - offset
            let newOffset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant) - Self.unixEpochClockSeconds))
            return Self(clockSeconds: instant + newOffset, utcOffsetSeconds: newOffset)
        case .keepingClock:
            // The offset the zone has at this clock time: found from the clock read as UTC, then once more
            // from the instant that offset gives (which settles a date near a daylight-saving change).
            let asUTC = TimeInterval(clockSeconds) - Self.unixEpochClockSeconds
            let first = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asUTC))
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asUTC - TimeInterval(first)))
            return Self(clockSeconds: clockSeconds, utcOffsetSeconds: offset)
        }
    }

    /// This date with `offset` recorded and the clock as it is (`nil`: no
    /// offset recorded); `nil` when the offset is past ±14 hours.
    public func withOffset(_ offset: Int?) -> CaptureDate? {
        Self(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetSeconds: offset)
    }

    /// The moment in UTC, when the offset is known.
    public var utc: CaptureDate? {
        guard let offset = utcOffsetSeconds else { return nil }
        return Self(clockSeconds: clockSeconds - offset, utcOffsetSeconds: 0)
    }

    /// Seconds from 0001-01-01 00:00:00 on the clock (proleptic Gregorian),
    /// ignoring the offset; leap seconds read as the next minute.
    var clockSeconds: Int {
        Self.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Seconds from 0001-01-01 to 1970-01-01.
    static let unixEpochClockSeconds = TimeInterval(days(year: 1970, month: 1, day: 1) * 86_400)

    /// The date whose clock is `clockSeconds` from 0001-01-01.
    init?(clockSeconds: Int, utcOffsetSeconds: Int?) {
        guard clockSeconds >= 0 else { return nil }
        let (year, month, day) = Self.civil(days: clockSeconds / 86_400)
        let time = clockSeconds % 86_400
        self.init(
            year: year, month: month, day: day, hour: time / 3600, minute: time % 3600 / 60, second: time % 60,
            utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Days from 0001-01-01 to the date (Howard Hinnant's `days_from_civil`, shifted to year 1).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 306  // 0001-01-01 is day 306 of era 0 counted from 0000-03-01
    }

    /// The date `days` after 0001-01-01 (`civil_from_days`).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 306
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
