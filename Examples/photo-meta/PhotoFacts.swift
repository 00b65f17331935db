import Foundation
import ImageCodecs

/// What `photo-meta` reports of a photo: when and where.
struct PhotoFacts: CustomStringConvertible, Sendable {
    var date: CaptureDate?
    var place: GeoLocation?

    init(readingFileAt path: String) throws(ImageCodecError) {
        let exif = try ExifMetadata(readingFileAt: path)
        date = exif?.captureDate
        place = exif?.details.location
    }

    var description: String {
        let when = date.map { "taken \($0)" } ?? "no capture date"
        let whereText = place.map { place in "at \(place)" + (place.altitude.map { String(format: ", %.1f m", $0) } ?? "") } ?? "no place"
        return "\(when), \(whereText)"
    }

    /// One JSON object: the path, the date as ISO 8601 with its offset (or
    /// null), the offset in seconds, and the place in decimal degrees.
    func json(path: String) -> Data {
        var object: [String: Any] = ["file": path]
        if let date {
            let clock = date.exifDateTime
            let iso = clock.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + clock.suffix(8)
            object["date"] = iso + (date.exifOffset ?? "")
            object["offsetSeconds"] = date.utcOffsetSeconds.map { $0 as Any } ?? NSNull()
        } else {
            object["date"] = NSNull()
        }
        if let place {
            object["place"] =
                ["latitude": place.latitude, "longitude": place.longitude, "altitude": place.altitude.map { $0 as Any } ?? NSNull()] as [String: Any]
        } else {
            object["place"] = NSNull()
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
