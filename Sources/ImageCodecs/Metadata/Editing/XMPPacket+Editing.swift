import Foundation

extension XMPPacket {
    static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    static let basicNamespace = "http://ns.adobe.com/xap/1.0/"
    static let photoshopNamespace = "http://ns.adobe.com/photoshop/1.0/"

    /// The XMP dates a date change moves with the EXIF ones: EXIF's
    /// `DateTimeOriginal` and `DateTimeDigitized`, XMP Basic's `CreateDate`
    /// and `ModifyDate`, Photoshop's `DateCreated`.
    static let editedDates: [(namespace: String, name: String)] = [
        (exifNamespace, "DateTimeOriginal"), (exifNamespace, "DateTimeDigitized"), (basicNamespace, "CreateDate"),
        (basicNamespace, "ModifyDate"), (photoshopNamespace, "DateCreated"),
    ]

    /// `packet` (a bare packet or with JPEG's XMP prefix) with `edit`
    /// applied where it already says something: its dates changed as the
    /// EXIF ones are, its `exif:GPSLatitude`, `GPSLongitude` and altitude
    /// set to the new place (every other location property removed: they
    /// described the old one), or every location property removed. A packet
    /// without those properties comes back as it was.
    static func editing(_ packet: [UInt8], with edit: MetadataEdit) -> [UInt8] {
        var text = String(decoding: packet, as: UTF8.self)
        if let change = edit.date {
            for (namespace, name) in editedDates {
                guard let prefix = XMPText.prefix(boundTo: namespace, in: text) else { continue }
                text = replacingValues(of: prefix, name, in: text) { XMPDate($0)?.changed(by: change)?.text }
            }
        }
        switch edit.place {
        case .set(let place):
            var kept: Set<String> = []
            if let prefix = XMPText.prefix(boundTo: exifNamespace, in: text) {
                let values = [
                    "GPSLatitude": coordinate(place.latitude, positive: "N", negative: "S"),
                    "GPSLongitude": coordinate(place.longitude, positive: "E", negative: "W"),
                    "GPSAltitude": place.altitude.map { "\(Int((abs($0) * 1000).rounded()))/1000" },
                    "GPSAltitudeRef": place.altitude.map { $0 < 0 ? "1" : "0" },
                ]
                for (name, value) in values {
                    guard let value else { continue }
                    let replaced = replacingValues(of: prefix, name, in: text) { _ in value }
                    if replaced != text || XMPText.property(name, in: text) == value { kept.insert(name) }
                    text = replaced
                }
            }
            text = String(decoding: removingLocation(Array(text.utf8), unless: false, keeping: kept).packet, as: UTF8.self)
        case .remove:
            text = String(decoding: removingLocation(Array(text.utf8), unless: false).packet, as: UTF8.self)
        case nil: break
        }
        if let marks = edit.annotations {
            // JPEG's packet starts with its namespace and a NUL: the marks go into the packet after it.
            let prefix = text.hasPrefix(String(decoding: JPEGMetadata.xmpPrefix, as: UTF8.self)) ? JPEGMetadata.xmpPrefix.count : 0
            let body = String(decoding: Array(text.utf8).dropFirst(prefix), as: UTF8.self)
            text = String(decoding: Array(text.utf8).prefix(prefix), as: UTF8.self) + recording(marks, in: body)
        }
        let edited = Array(text.utf8)
        return edited == packet ? packet : edited
    }

    /// `text` with the simple value of `prefix:name` (an attribute or an
    /// element holding only text, at most 64 characters) replaced by what
    /// `transform` makes of it (`nil`: left as it is).
    static func replacingValues(of prefix: String, _ name: String, in text: String, _ transform: (String) -> String?) -> String {
        let qualified = NSRegularExpression.escapedPattern(for: prefix) + ":" + name
        guard let attribute = try? Regex(#"(\s"# + qualified + #"\s*=\s*)(["'])([^"'<]{0,64})\2"#),
            let element = try? Regex(#"(<"# + qualified + #">)\s*([^<]{0,64}?)\s*(</"# + qualified + #"\s*>)"#)
        else { return text }
        var result = text.replacing(attribute) { match -> String in
            let value = match.output[3].substring.map(String.init) ?? ""
            guard let new = transform(value) else { return String(match.output[0].substring ?? "") }
            let quote = match.output[2].substring.map(String.init) ?? "\""
            return (match.output[1].substring.map(String.init) ?? "") + quote + new + quote
        }
        result = result.replacing(element) { match -> String in
            let value = match.output[2].substring.map(String.init) ?? ""
            guard let new = transform(value) else { return String(match.output[0].substring ?? "") }
            return (match.output[1].substring.map(String.init) ?? "") + new + (match.output[3].substring.map(String.init) ?? "")
        }
        return result
    }

    /// A coordinate as XMP's EXIF schema writes it: `35,39.51600000N`.
    static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let whole = Int(abs(degrees))
        let minutes = (abs(degrees) - Double(whole)) * 60
        return "\(whole)," + String(format: "%.8f", minutes) + (degrees < 0 ? negative : positive)
    }
}

/// An XMP date (ISO 8601 as XMP restricts it): the day alone, or with a
/// time to the minute or second, fractions of a second and a zone; the
/// parts an edit does not change are written back as they were.
struct XMPDate {
    var date: CaptureDate
    /// Whether the value had a time, seconds, and which fraction text.
    let hasTime: Bool
    let hasSeconds: Bool
    let fraction: String
    /// Whether the value wrote UTC as `Z`.
    let zulu: Bool

    init?(_ text: String) {
        guard let match = text.wholeMatch(of: #/(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?/#)
        else { return nil }
        let out = match.output
        let zone = out.8.map(String.init)
        var offset: Int?
        if let zone, zone != "Z" {
            let sign = zone.hasPrefix("-") ? -1 : 1
            offset = sign * ((Int(zone.dropFirst().prefix(2)) ?? 0) * 3600 + (Int(zone.suffix(2)) ?? 0) * 60)
        } else if zone == "Z" {
            offset = 0
        }
        guard
            let date = CaptureDate(
                year: Int(out.1)!, month: Int(out.2)!, day: Int(out.3)!, hour: out.4.flatMap { Int($0) } ?? 0, minute: out.5.flatMap { Int($0) } ?? 0,
                second: out.6.flatMap { Int($0) } ?? 0, utcOffsetSeconds: offset)
        else { return nil }
        self.date = date
        hasTime = out.4 != nil
        hasSeconds = out.6 != nil
        fraction = out.7.map(String.init) ?? ""
        zulu = zone == "Z"
    }

    /// This date after `change`, as ``MetadataEdit/DateChange`` says for
    /// EXIF; `nil` when it cannot apply (a zone kept for a date without
    /// one), and the value is then left.
    func changed(by change: MetadataEdit.DateChange) -> XMPDate? {
        var copy = self
        switch change {
        case .set(let new):
            guard let moved = new.utcOffsetSeconds == nil ? new.withOffset(date.utcOffsetSeconds) : new else { return nil }
            copy.date = moved
        case .shift(let seconds):
            // A day alone moves by whole days, the rest of the shift left out (as ExifTool shifts one).
            guard let moved = date.shifted(by: hasTime ? seconds : seconds / 86_400 * 86_400) else { return nil }
            copy.date = moved
        case .zone(let zone, let keeping):
            guard hasTime, let moved = date.inZone(zone, keeping: keeping) else { return nil }
            copy.date = moved
        }
        return copy
    }

    var text: String {
        let clock = date.exifDateTime
        let day = clock.prefix(10).replacingOccurrences(of: ":", with: "-")
        guard hasTime else { return day }
        var time = "T" + clock.dropFirst(11).prefix(5)
        if hasSeconds { time += ":" + clock.suffix(2) + fraction }
        let zone = date.utcOffsetSeconds == 0 && zulu ? "Z" : (date.exifOffset ?? "")
        return day + time + zone
    }
}
