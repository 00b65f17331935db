import Foundation

/// A GPS track read from a GPX file (`<trkpt>` points, and `<rtept>` and
/// `<wpt>` points with times), to find where a photo was taken from when
/// it was taken, as `exiftool -geotag` does: between two points, the
/// position interpolated along the line between them by time; before the
/// first, after the last or between two points further apart than the
/// gap allowed, the nearest point's, when it is within that gap.
///
/// Everything in the file is a claim: at most ``pointLimit`` points are
/// read, a point without a time or with a coordinate out of range is left
/// out, and a file without one usable point is an error.
///
/// ```swift
/// let track = try GPXTrack(parsing: gpxBytes)
/// let place = track.location(at: photoDate, maximumGap: 1800)   // nil: no point near enough
/// ```
public struct GPXTrack: Hashable, Sendable {
    /// One point: where and when (seconds since 1970, UTC).
    public struct Point: Hashable, Sendable {
        /// Where.
        public let location: GeoLocation
        /// When: whole seconds since 1970, UTC.
        public let time: Int
        /// Fractions of a second, for points logged more than once a second.
        public let fraction: Double
    }

    /// Why a GPX file could not be read.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file holds no point with a position and a time.
        case noPoints
        /// The file holds more than ``GPXTrack/pointLimit`` points.
        case tooManyPoints(Int)

        public var description: String {
            switch self {
            case .noPoints: "the GPX file holds no point with a position and a time"
            case .tooManyPoints(let limit): "the GPX file holds more than \(limit) points"
            }
        }
    }

    /// The most points read: a million (a point a second for 11 days).
    public static let pointLimit = 1_000_000

    /// The points, in time order.
    public let points: [Point]

    /// Reads the points of a GPX document, scanning its bytes once.
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        var points: [Point] = []
        var index = 0
        let count = bytes.count
        while let open = Self.find(0x3C, in: bytes, from: index) {
            index = open + 1
            // `<trkpt`, `<rtept` or `<wpt`, under any prefix.
            var nameStart = index
            var nameEnd = index
            while nameEnd < count, nameEnd - index < 64, Self.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            if let colon = bytes[nameStart..<nameEnd].firstIndex(of: 0x3A) { nameStart = colon + 1 }
            let name = bytes[nameStart..<nameEnd]
            guard name.elementsEqual("trkpt".utf8) || name.elementsEqual("rtept".utf8) || name.elementsEqual("wpt".utf8) else { continue }
            guard let tagEnd = Self.find(0x3E, in: bytes, from: nameEnd, within: 512) else { continue }
            let attributes = bytes[nameEnd..<tagEnd]
            // The body: up to the next point's closing tag, at most 4 KiB on.
            let bodyEnd = Self.closing(name, in: bytes, from: tagEnd + 1) ?? tagEnd + 1
            let body = bytes[(tagEnd + 1)..<bodyEnd]
            index = bodyEnd
            guard points.count < Self.pointLimit else { throw .tooManyPoints(Self.pointLimit) }
            guard let latitude = Self.attribute("lat", in: attributes).flatMap(Double.init),
                let longitude = Self.attribute("lon", in: attributes).flatMap(Double.init),
                let timeText = Self.element("time", in: body), let (time, fraction) = Self.utcSeconds(timeText)
            else { continue }
            let elevation = Self.element("ele", in: body).flatMap(Double.init).flatMap { abs($0) < 100_000 ? $0 : nil }
            guard let location = GeoLocation(latitude: latitude, longitude: longitude, altitude: elevation) else { continue }
            points.append(Point(location: location, time: time, fraction: fraction))
        }
        guard !points.isEmpty else { throw .noPoints }
        self.points = points.sorted { ($0.time, $0.fraction) < ($1.time, $1.fraction) }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x3A).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
    }

    /// The first `byte` at or after `start` (within `limit` bytes, when given).
    private static func find(_ byte: UInt8, in bytes: [UInt8], from start: Int, within limit: Int = Int.max) -> Int? {
        guard start < bytes.count else { return nil }
        let end = limit == Int.max ? bytes.count : min(bytes.count, start + limit)
        return bytes[start..<end].firstIndex(of: byte)
    }

    /// Where `</…name>` starts after `start`, within 4 KiB.
    private static func closing(_ name: ArraySlice<UInt8>, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        let end = min(bytes.count, start + 4096)
        while index < end, let open = find(0x3C, in: bytes, from: index, within: end - index) {
            if open + 1 < bytes.count, bytes[open + 1] == 0x2F {
                var nameEnd = open + 2
                while nameEnd < bytes.count, nameEnd - open < 66, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                var nameStart = open + 2
                if let colon = bytes[nameStart..<nameEnd].firstIndex(of: 0x3A) { nameStart = colon + 1 }
                if bytes[nameStart..<nameEnd].elementsEqual(name) { return open }
            }
            index = open + 1
        }
        return nil
    }

    /// An attribute's value (`lat="48.8"` or `lat='48.8'`), at most 32 bytes.
    private static func attribute(_ name: String, in text: ArraySlice<UInt8>) -> String? {
        let key = Array(name.utf8)
        var index = text.startIndex
        while index + key.count < text.endIndex {
            defer { index += 1 }
            guard text[index...].starts(with: key), index == text.startIndex || !isNameByte(text[index - 1]) else { continue }
            var cursor = index + key.count
            while cursor < text.endIndex, text[cursor] == 0x20 || text[cursor] == 0x09 || text[cursor] == 0x0A || text[cursor] == 0x0D { cursor += 1 }
            guard cursor < text.endIndex, text[cursor] == 0x3D else { continue }
            cursor += 1
            while cursor < text.endIndex, text[cursor] == 0x20 || text[cursor] == 0x09 { cursor += 1 }
            guard cursor < text.endIndex, text[cursor] == 0x22 || text[cursor] == 0x27 else { continue }
            let quote = text[cursor]
            guard let close = text[(cursor + 1)...].firstIndex(of: quote), close - cursor <= 33 else { return nil }
            return String(decoding: text[(cursor + 1)..<close], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// A child element's text (`<time>…</time>`, any prefix), at most 64 bytes.
    private static func element(_ name: String, in body: ArraySlice<UInt8>) -> String? {
        let key = Array(name.utf8)
        var index = body.startIndex
        while let open = body[index...].firstIndex(of: 0x3C) {
            var nameStart = open + 1
            var nameEnd = nameStart
            while nameEnd < body.endIndex, nameEnd - nameStart < 64, isNameByte(body[nameEnd]) { nameEnd += 1 }
            if let colon = body[nameStart..<nameEnd].firstIndex(of: 0x3A) { nameStart = colon + 1 }
            index = open + 1
            guard body[nameStart..<nameEnd].elementsEqual(key), let tagEnd = body[nameEnd...].firstIndex(of: 0x3E) else { continue }
            guard let close = body[(tagEnd + 1)...].firstIndex(of: 0x3C), close - tagEnd <= 65 else { return nil }
            return String(decoding: body[(tagEnd + 1)..<close], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// Where the track was at `date` (which must record its offset: a
    /// clock time alone is no instant): interpolated between the points
    /// around it when they are at most `maximumGap` seconds apart, else the
    /// nearest point within `maximumGap` seconds, else `nil` (exiftool's
    /// `GeoMaxIntSecs` and `GeoMaxExtSecs`, both 1800 by default).
    public func location(at date: CaptureDate, maximumGap: Int = 1800) -> GeoLocation? {
        guard let utc = date.utc else { return nil }
        let seconds = Double(Int(utc.date.timeIntervalSince1970))
        func time(_ point: Point) -> Double { Double(point.time) + point.fraction }
        // The first point at or after the photo.
        var low = 0
        var high = points.count
        while low < high {
            let middle = (low + high) / 2
            if time(points[middle]) < seconds { low = middle + 1 } else { high = middle }
        }
        let gap = Double(maximumGap)
        if low == points.count { return seconds - time(points[low - 1]) <= gap ? points[low - 1].location : nil }
        let after = points[low]
        if time(after) == seconds || low == 0 { return time(after) - seconds <= gap ? after.location : nil }
        let before = points[low - 1]
        let span = time(after) - time(before)
        if span > gap {
            // Too far apart to draw a line between: the nearer point, when near enough (as exiftool does).
            let nearer = seconds - time(before) < time(after) - seconds ? before : after
            return abs(seconds - time(nearer)) <= gap ? nearer.location : nil
        }
        let ratio = (seconds - time(before)) / span
        let latitude = before.location.latitude + (after.location.latitude - before.location.latitude) * ratio
        var longitudeStep = after.location.longitude - before.location.longitude
        // Across the antimeridian the short way.
        if longitudeStep > 180 { longitudeStep -= 360 } else if longitudeStep < -180 { longitudeStep += 360 }
        var longitude = before.location.longitude + longitudeStep * ratio
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        var altitude: Double?
        if let from = before.location.altitude, let to = after.location.altitude { altitude = from + (to - from) * ratio }
        return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// An ISO 8601 time (`2024-05-06T05:08:09Z`, `...09.250Z`, `...+02:00`) as UTC seconds and a fraction.
    private static func utcSeconds(_ text: String) -> (Int, Double)? {
        var fraction = 0.0
        var cleaned = text
        if let dot = text.firstIndex(of: "."), text.distance(from: text.startIndex, to: dot) == 19 {
            let digits = text[text.index(after: dot)...].prefix { $0.isNumber }
            fraction = Double("0." + digits) ?? 0
            cleaned = String(text[..<dot]) + String(text[text.index(after: dot)...].drop { $0.isNumber })
        }
        // A time without a zone is UTC in GPX.
        guard let date = CaptureDate(iso8601: cleaned), let utc = (date.utcOffsetSeconds == nil ? date.withOffset(0) : date)?.utc else { return nil }
        return (Int(utc.date.timeIntervalSince1970), fraction)
    }
}
