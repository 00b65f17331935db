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
            let newOffset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            return Self(clockSeconds: instant + newOffset, utcOffsetSeconds: newOffset)
        case .keepingClock:
            // The offset the zone has at this clock time: found from the clock read as UTC, then once more
            // from the instant that offset gives (which settles a date near a daylight-saving change).
            let asUTC = TimeInterval(clockSeconds)
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

    /// The clock time read as UTC, in seconds since 1970 (Foundation's
    /// Gregorian calendar: proleptic Gregorian back to 1582, as photos need).
    var clockSeconds: Int {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        return Int((Self.utcCalendar.date(from: components) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
    }

    /// The date whose clock, read as UTC, is `clockSeconds` after 1970; `nil` outside the years 1…9999.
    init?(clockSeconds: Int, utcOffsetSeconds: Int?) {
        guard clockSeconds > -62_135_596_800, clockSeconds < 253_402_300_800 else { return nil }
        let parts = Self.utcCalendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(clockSeconds)))
        guard let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour, let minute = parts.minute,
            let second = parts.second
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetSeconds: utcOffsetSeconds)
    }

    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }
}
