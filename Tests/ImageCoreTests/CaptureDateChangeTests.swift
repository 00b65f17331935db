import Foundation
import ImageCore
import Testing

/// Capture-date arithmetic: shifts on the clock, zone changes keeping the
/// instant or the clock, daylight saving included.
@Suite("Capture date changes")
struct CaptureDateChangeTests {
    static func date(_ text: String) -> CaptureDate { CaptureDate(iso8601: text)! }

    @Test("a shift moves the clock and keeps the offset, negative shifts and month, year and leap-day boundaries included")
    func shifts() {
        #expect(Self.date("2024-05-01T10:20:30+02:00").shifted(by: -5400) == Self.date("2024-05-01T08:50:30+02:00"))
        #expect(Self.date("2024-12-31T23:30:00+09:00").shifted(by: 3600) == Self.date("2025-01-01T00:30:00+09:00"))
        #expect(Self.date("2024-03-01T00:00:00").shifted(by: -1) == Self.date("2024-02-29T23:59:59"))
        #expect(Self.date("2023-03-01T00:00:00").shifted(by: -86_400) == Self.date("2023-02-28T00:00:00"))
        #expect(Self.date("2000-02-28T12:00:00Z").shifted(by: 86_400)?.day == 29, "2000 was a leap year")
        #expect(Self.date("1900-02-28T12:00:00Z").shifted(by: 86_400)?.month == 3, "1900 was not")
        #expect(Self.date("0001-01-01T00:00:00").shifted(by: -1) == nil, "before year 1")
        #expect(Self.date("9999-12-31T23:59:59").shifted(by: 1) == nil, "after 9999")
        #expect(Self.date("2024-05-01T10:20:30").shifted(by: Int.max) == nil)
    }

    @Test("the clock arithmetic agrees with Foundation's Gregorian calendar on 2,000 seeded dates")
    func agreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        var state: UInt64 = 0x5EED_0056
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for _ in 0..<2000 {
            let start = CaptureDate(
                year: 1600 + next() % 800, month: 1 + next() % 12, day: 1 + next() % 28, hour: next() % 24, minute: next() % 60, second: next() % 60,
                utcOffsetSeconds: 0)!
            let seconds = next() % 400_000_000 - 200_000_000
            let shifted = start.shifted(by: seconds)!
            let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start.date.addingTimeInterval(TimeInterval(seconds)))
            #expect(
                [shifted.year, shifted.month, shifted.day, shifted.hour, shifted.minute, shifted.second]
                    == [expected.year, expected.month, expected.day, expected.hour, expected.minute, expected.second], "\(start) + \(seconds) s")
        }
    }

    @Test("keeping the instant: the clock moves with the zone's offset at that moment, daylight saving included")
    func keepingInstant() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(Self.date("2024-05-01T12:00:00+02:00").inZone(tokyo, keeping: .keepingInstant) == Self.date("2024-05-01T19:00:00+09:00"))
        #expect(Self.date("2024-07-01T12:00:00Z").inZone(newYork, keeping: .keepingInstant) == Self.date("2024-07-01T08:00:00-04:00"), "EDT")
        #expect(Self.date("2024-01-15T12:00:00Z").inZone(newYork, keeping: .keepingInstant) == Self.date("2024-01-15T07:00:00-05:00"), "EST")
        // The 2024 change in New York: 07:00 UTC on 10 March is 03:00 EDT; a minute before is 01:59 EST.
        #expect(Self.date("2024-03-10T07:00:00Z").inZone(newYork, keeping: .keepingInstant) == Self.date("2024-03-10T03:00:00-04:00"))
        #expect(Self.date("2024-03-10T06:59:00Z").inZone(newYork, keeping: .keepingInstant) == Self.date("2024-03-10T01:59:00-05:00"))
        #expect(Self.date("2024-05-01T12:00:00").inZone(tokyo, keeping: .keepingInstant) == nil, "no offset: the instant is unknown")
    }

    @Test("keeping the clock: the same time on the clock with the zone's offset for that local time")
    func keepingClock() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        #expect(Self.date("2024-07-01T12:00:00+09:00").inZone(berlin, keeping: .keepingClock) == Self.date("2024-07-01T12:00:00+02:00"), "CEST")
        #expect(Self.date("2024-12-01T12:00:00+09:00").inZone(berlin, keeping: .keepingClock) == Self.date("2024-12-01T12:00:00+01:00"), "CET")
        #expect(Self.date("2024-12-01T12:00:00").inZone(kolkata, keeping: .keepingClock) == Self.date("2024-12-01T12:00:00+05:30"), "no offset before")
        // Berlin's 2024 change: 02:30 on 31 March does not exist; 03:30 that morning is CEST, 01:30 CET.
        #expect(Self.date("2024-03-31T03:30:00Z").inZone(berlin, keeping: .keepingClock)?.utcOffsetSeconds == 7200)
        #expect(Self.date("2024-03-31T01:30:00Z").inZone(berlin, keeping: .keepingClock)?.utcOffsetSeconds == 3600)
        #expect(Self.date("2024-03-31T02:30:00Z").inZone(berlin, keeping: .keepingClock).map { [3600, 7200].contains($0.utcOffsetSeconds ?? 0) } == true)
    }

    @Test("the moment in UTC, and an offset relabelled")
    func utcAndOffset() {
        #expect(Self.date("2024-01-01T05:30:00+09:00").utc == Self.date("2023-12-31T20:30:00Z"))
        #expect(Self.date("2024-01-01T05:30:00").utc == nil)
        #expect(Self.date("2024-01-01T05:30:00").withOffset(-3600)?.exifOffset == "-01:00")
        #expect(Self.date("2024-01-01T05:30:00").withOffset(15 * 3600) == nil)
    }
}
