import Foundation
import ImageCore
import Testing

@Suite("GPX tracks")
struct GPXTrackTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="48.8000000" lon="2.2000000"><ele>30</ele><time>2024-05-06T05:00:00Z</time></trkpt>
        <trkpt lon='2.3000000' lat='48.9000000'><ele>50</ele><time>2024-05-06T05:10:00.500Z</time></trkpt>
        <trkpt lat="49.0" lon="2.4"><time>2024-05-06T07:00:00+01:00</time></trkpt>
        <trkpt lat="91" lon="2.4"><time>2024-05-06T05:20:00Z</time></trkpt>
        <trkpt lat="49.5" lon="2.9"></trkpt>
        <trkpt lat="49.6" lon="3.0"><time>2024-05-06T07:00:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    static func at(_ text: String) -> CaptureDate { CaptureDate(iso8601: text)! }

    @Test("points are read in either attribute order, with fractions and offsets; bad and timeless points left out; positions interpolated by time")
    func interpolates() throws {
        let track = try GPXTrack(parsing: Array(Self.gpx.utf8))
        #expect(track.points.count == 4, "the latitude of 91 and the point without a time are left out")
        #expect(track.points.map(\.time) == [1_714_971_600, 1_714_972_200, 1_714_971_600 + 3600, 1_714_971_600 + 7200].sorted())
        let middle = try #require(track.location(at: Self.at("2024-05-06T07:05:00.250+02:00"), maximumGap: 1800))
        // 300 s of 600.5 s from the first point.
        let ratio = 300.0 / 600.5
        #expect(abs(middle.latitude - (48.8 + 0.1 * ratio)) < 1e-9 && abs(middle.longitude - (2.2 + 0.1 * ratio)) < 1e-9)
        #expect(abs((middle.altitude ?? 0) - (30 + 20 * ratio)) < 1e-9)
        #expect(track.location(at: Self.at("2024-05-06T05:00:00Z"))?.latitude == 48.8, "on a point: that point")
        #expect(track.location(at: Self.at("2024-05-06T04:40:00Z"))?.latitude == 48.8, "before the track, within the gap: the first point")
        #expect(track.location(at: Self.at("2024-05-06T04:20:00Z")) == nil, "before the track by more than the gap")
        #expect(track.location(at: Self.at("2024-05-06T05:35:00Z"), maximumGap: 1200) == nil, "between points 49.5 min apart, 25 min from either")
        #expect(track.location(at: Self.at("2024-05-06T05:30:00Z"), maximumGap: 1800)?.latitude == 48.9, "in a gap: the nearer point within 30 min")
        #expect(track.location(at: Self.at("2024-05-06T05:30:00Z"), maximumGap: 3600) != nil)
        #expect(track.location(at: Self.at("2024-05-06T05:05:00")) == nil, "a clock time without its offset is no instant")
    }

    @Test("across the antimeridian the short way; hostile files are errors or empty, never a trap")
    func hostile() throws {
        let wrap = """
            <gpx><trk><trkseg><trkpt lat="0" lon="179.5"><time>2024-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="0" lon="-179.5"><time>2024-01-01T00:10:00Z</time></trkpt></trkseg></trk></gpx>
            """
        let across = try #require(try GPXTrack(parsing: Array(wrap.utf8)).location(at: Self.at("2024-01-01T00:02:30Z")))
        #expect(abs(across.longitude - 179.75) < 1e-9)
        #expect(throws: GPXTrack.ParseError.noPoints) { try GPXTrack(parsing: Array("<gpx></gpx>".utf8)) }
        #expect(throws: GPXTrack.ParseError.noPoints) { try GPXTrack(parsing: Array(repeating: 0x3C, count: 100_000)) }
        #expect(throws: GPXTrack.ParseError.noPoints) {
            try GPXTrack(parsing: Array(#"<trkpt lat="NaN" lon="1e400"><time>2024-01-01T00:00:00Z</time></trkpt>"#.utf8))
        }
        // 20,000 points (a day at one point each 4 s) read in one pass.
        var many = "<gpx><trk><trkseg>"
        for index in 0..<20_000 {
            many += #"<trkpt lat="\#(Double(index) / 100_000)" lon="1"><time>"# + CaptureDate(unixTime: 1_704_067_200 + index * 4) + "</time></trkpt>\n"
        }
        let track = try GPXTrack(parsing: Array((many + "</trkseg></trk></gpx>").utf8))
        #expect(track.points.count == 20_000)
    }
}

extension CaptureDate {
    /// `2024-01-01T00:00:04Z` for seconds since 1970.
    fileprivate static func + (lhs: String, rhs: CaptureDate) -> String { lhs + rhs.isoText }
    fileprivate init(unixTime: Int) { self = CaptureDate(iso8601: "1970-01-01T00:00:00Z")!.shifted(by: unixTime)! }
    fileprivate var isoText: String {
        let clock = exifDateTime
        return clock.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + clock.suffix(8) + "Z"
    }
}
