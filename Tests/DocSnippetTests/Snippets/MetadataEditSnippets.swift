// The doc-comment samples of date, zone and place edits, compiled.

import Foundation
import ImageCodecs
import VideoCodecs

enum MetadataEditSnippets {
    static func edit() {
        // The camera was an hour ahead, and the trip was in Tokyo.
        let edit = MetadataEdit(
            date: .shift(seconds: -3600),
            place: .set(GeoLocation(latitude: 35.6586, longitude: 139.7454)!))
        _ = edit
    }

    static func shifted(date: CaptureDate) {
        let fixed = date.shifted(by: -3600)  // the camera was an hour ahead
        _ = fixed
    }

    static func zoned(date: CaptureDate) {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let moved = date.inZone(tokyo, keeping: .keepingInstant)
        _ = moved
    }

    static func applied(jpeg: [UInt8]) throws {
        let fixed = try MetadataEdit(date: .shift(seconds: -3600)).applied(to: jpeg)
        _ = fixed
    }

    static func many(paths: [String]) {
        let results = MetadataEdit(date: .shift(seconds: -3600)).apply(toFilesAt: paths)
        for case (let path, .failure(let error)) in zip(paths, results) { print(path, error) }
    }

    static func movie(mov: [UInt8]) throws {
        let moved = try MetadataEdit(date: .shift(seconds: 3600)).applied(toMovie: mov)
        _ = moved
    }

    static func track(gpxBytes: [UInt8], photoDate: CaptureDate) throws {
        let track = try GPXTrack(parsing: gpxBytes)
        let place = track.location(at: photoDate, maximumGap: 1800)  // nil: no point near enough
        _ = place
    }

    static func annotations() {
        var marks = PhotoAnnotations()
        marks.rating = 4
        marks.colorLabel = .green
        marks.tags = ["Paris", "holiday"]
        _ = marks
    }

    static func readMarks() throws {
        let marks = try PhotoAnnotations(readingFileAt: "IMG_0001.jpg")
        print(marks.rating ?? 0, marks.tags)
    }

    static func zone() throws {
        let zone = try GeoLocation(latitude: 48.8583, longitude: 2.2945)!.nearestTimeZone()  // Europe/Paris
        _ = zone
    }

    static func article(tripPhotos: [String]) throws {
        // Re-date a trip's photos an hour back, mark the best one, all in place.
        let results = MetadataEdit(date: .shift(seconds: -3600)).apply(toFilesAt: tripPhotos)
        var best = try PhotoAnnotations(readingFileAt: tripPhotos[0])
        best.rating = 5
        try MetadataEdit(annotations: best).apply(toFileAt: tripPhotos[0])
        _ = results
    }

    static func embedded(jpegBytes: [UInt8]) {
        let marks = PhotoAnnotations(embeddedIn: jpegBytes)
        _ = marks
    }
}
