import Foundation

/// A position on Earth in decimal degrees (WGS 84, as GPS records it).
public struct GeoLocation: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north (negative: south), -90 to 90.
    public let latitude: Double
    /// Degrees east (negative: west), -180 to 180.
    public let longitude: Double
    /// Metres above sea level (negative: below), when recorded.
    public let altitude: Double?

    /// `nil` when a coordinate is out of range or not a number.
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }

    /// `52.52000° N, 13.40500° E` (five decimals: about a metre).
    public var description: String {
        let north = String(format: "%.5f", abs(latitude)) + (latitude < 0 ? "° S" : "° N")
        let east = String(format: "%.5f", abs(longitude)) + (longitude < 0 ? "° W" : "° E")
        return "\(north), \(east)"
    }
}
