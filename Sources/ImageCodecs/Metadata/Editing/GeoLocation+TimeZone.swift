public import Foundation
public import ImageCore
import SystemSupport

extension GeoLocation {
    /// Where tzdata lists each zone's principal city (Debian's `tzdata`).
    public static let zoneTablePath = "/usr/share/zoneinfo/zone1970.tab"

    /// The IANA time zone of the principal city nearest to this place, by
    /// great-circle distance, among those tzdata's `zone1970.tab` lists
    /// (about 310: `Europe/Paris` for Paris, `Asia/Tokyo` for Tokyo). The
    /// rules for the zone (daylight saving included) are tzdata's, through
    /// Foundation.
    ///
    /// An approximation without borders: near one, or far from a large
    /// zone's principal city, the nearest city may be across it (Delhi is
    /// nearer Kathmandu than Kolkata, so it reads as `Asia/Kathmandu`).
    /// Show the zone to the person before using it, or let them name it.
    ///
    /// ```swift
    /// let zone = try GeoLocation(latitude: 48.8583, longitude: 2.2945)!.nearestTimeZone()   // Europe/Paris
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)`` when
    ///   the table cannot be read (install tzdata), or
    ///   ``ImageCore/ImageCodecError/invalidArgument(_:)`` when it lists no
    ///   zone Foundation knows.
    public func nearestTimeZone(tablePath: String = zoneTablePath) throws(ImageCodecError) -> TimeZone {
        let text: [UInt8]
        do {
            text = try RegularFile.contents(of: tablePath, limit: 1 << 20)
        } catch {
            throw .fileAccess(path: tablePath, reason: error.reason)
        }
        var best: (distance: Double, zone: String)?
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 3, let city = Self.iso6709(columns[1]) else { continue }
            let distance = centralAngle(to: city)
            if distance < best?.distance ?? .infinity { best = (distance, String(columns[2])) }
        }
        guard let best, let zone = TimeZone(identifier: best.zone) else { throw .invalidArgument("\(tablePath) lists no time zone Foundation knows") }
        return zone
    }

    /// The angle between two places on a sphere (haversine), in radians.
    private func centralAngle(to other: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians
        let dLongitude = (other.longitude - longitude) * radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// zone1970.tab's coordinates: `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS`.
    private static func iso6709(_ text: Substring) -> (latitude: Double, longitude: Double)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 11 || bytes.count == 15 else { return nil }
        let half = bytes.count == 11 ? 5 : 7
        func part(_ slice: ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
            guard let sign = slice.first, sign == 0x2B || sign == 0x2D else { return nil }
            let digits = Array(slice.dropFirst())
            guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let number = { (range: Range<Int>) -> Double in Double(Int(String(decoding: digits[range], as: UTF8.self)) ?? 0) }
            var value = number(0..<degreeDigits) + number(degreeDigits..<(degreeDigits + 2)) / 60
            if digits.count == degreeDigits + 4 { value += number((degreeDigits + 2)..<(degreeDigits + 4)) / 3600 }
            return sign == 0x2D ? -value : value
        }
        guard let latitude = part(bytes[0..<half], degreeDigits: 2), let longitude = part(bytes[half...], degreeDigits: 3) else { return nil }
        return (latitude, longitude)
    }
}
