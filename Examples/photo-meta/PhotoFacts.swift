import ExampleSupport
import Foundation
import ImageCodecs
import VideoCodecs

/// Why a file could not be read or changed: the photo's error or the movie's.
enum MetaError: Error, CustomStringConvertible {
    case photo(ImageCodecError)
    case movie(VideoError)
    /// `--gpx` found no place for it: why.
    case untagged(String)

    var description: String {
        switch self {
        case .photo(let error): "\(error)"
        case .movie(let error): "\(error)"
        case .untagged(let reason): "not placed: \(reason)"
        }
    }
}

/// What `photo-meta` reports of a photo or a movie: when and where.
struct PhotoFacts: CustomStringConvertible, Sendable {
    var date: CaptureDate?
    var place: GeoLocation?
    var marks = PhotoAnnotations()

    /// Whether `path` holds a movie (MP4, QuickTime) rather than a photo
    /// (a HEIC or AVIF starts with `ftyp` too, and is a photo).
    static func isMovie(_ path: String) -> Bool {
        guard VideoInfo.startsLikeVideo(fileAt: path), let leading = try? readInputFilePrefix(path, length: 64) else { return false }
        return ImageCodecRegistry.shared.format(of: leading) == nil
    }

    /// What the file says: a photo's EXIF, a movie's header (through FFmpeg).
    static func read(_ path: String) -> Result<PhotoFacts, MetaError> {
        let facts: Result<PhotoFacts, MetaError> =
            isMovie(path)
            ? Result { () throws(VideoError) in try VideoInfo(probingFileAt: path) }.mapError(MetaError.movie).map {
                PhotoFacts(date: $0.creationDate, place: $0.location)
            }
            : Result { () throws(ImageCodecError) in try ExifMetadata(readingFileAt: path) }.mapError(MetaError.photo).map {
                PhotoFacts(date: $0?.captureDate, place: $0?.details.location)
            }
        return facts.flatMap { facts in
            Result { () throws(ImageCodecError) in try PhotoAnnotations(readingFileAt: path) }.mapError(MetaError.photo).map {
                var facts = facts
                facts.marks = $0
                return facts
            }
        }
    }

    var description: String {
        let when = date.map { "taken \($0)" } ?? "no capture date"
        let whereText = place.map { place in "at \(place)" + (place.altitude.map { String(format: ", %.1f m", $0) } ?? "") } ?? "no place"
        var text = "\(when), \(whereText)"
        if let rating = marks.rating { text += rating < 0 ? ", rejected" : ", \(rating) star" + (rating == 1 ? "" : "s") }
        if let label = marks.colorLabel?.rawValue ?? marks.label { text += ", label \(label)" }
        if !marks.tags.isEmpty { text += ", tags " + marks.tags.joined(separator: ", ") }
        return text
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
        object["rating"] = marks.rating.map { $0 as Any } ?? NSNull()
        object["label"] = (marks.colorLabel?.rawValue ?? marks.label).map { $0 as Any } ?? NSNull()
        object["tags"] = marks.tags
        object["hierarchicalTags"] = marks.hierarchicalTags
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
