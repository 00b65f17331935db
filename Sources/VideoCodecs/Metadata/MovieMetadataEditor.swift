import Foundation

/// Rewrites a movie's `moov` box for a ``ImageCore/MetadataEdit``: the
/// `mvhd`, `tkhd` and `mdhd` times (UTC, seconds since 1904), the `©day`
/// text (QuickTime user data and iTunes-style items), Apple's
/// `com.apple.quicktime.creationdate` and `…location.ISO6709` keys, the
/// `©xyz` position and 3GPP `loci`; the chunk offsets (`stco`, `co64`)
/// moved by what `moov` grew or shrank when the media data follows it. The
/// media data itself is never read or changed.
struct MovieMetadataEditor {
    static let creationKey = "com.apple.quicktime.creationdate"
    static let locationKey = "com.apple.quicktime.location.ISO6709"
    /// Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01.
    static let epochOffset = 2_082_844_800

    let moov: [UInt8]
    let edit: MetadataEdit
    /// The capture date before and after the edit.
    private(set) var before: CaptureDate?
    private(set) var after: CaptureDate?
    /// For a set: the new UTC time in QuickTime seconds; otherwise the seconds every time moves by.
    private var absoluteTime: Int?
    private var timeShift = 0
    /// Chunk offsets at or past this point move by `offsetShift`.
    private var offsetsFrom = Int.max
    private var offsetShift = 0

    /// Keys holding the capture date as text: Apple's (local, with its offset) and FFmpeg's (UTC).
    static let dateKeys: Set<String> = [creationKey, "creation_time"]

    /// Reads what the edit needs from `moov` (a `moov` box's payload).
    init(moov: [UInt8], edit: MetadataEdit) throws(VideoError) {
        guard edit.annotations == nil else { throw .invalidArgument("ratings, labels and tags of a movie go in a sidecar (IMG_0001.MOV.xmp)") }
        self.moov = moov
        self.edit = edit
        var creation: String?
        var mvhdTime: Int?
        var day: String?
        let top = try MovieBox.children(of: moov, in: 0..<moov.count)
        var metas = top.filter { $0.type == "meta" }
        for box in top {
            switch box.type {
            case "mvhd": mvhdTime = Self.times(moov, box).first.flatMap { $0 > 0 ? $0 : nil }
            case "udta":
                for child in try MovieBox.children(of: moov, in: box.payload) {
                    if child.type == "\u{A9}day" { day = Self.userDataText(moov, child) }
                    if child.type == "meta" { metas.append(child) }
                }
            default: break
            }
        }
        // Apple's keys live in moov/meta (iPhones) or moov/udta/meta (FFmpeg).
        for meta in metas {
            let (keys, ilst) = try Self.keysAndItems(moov, meta)
            guard let ilst else { continue }
            for item in try MovieBox.children(of: moov, in: ilst.payload) where Self.keyName(moov, item, keys) == Self.creationKey {
                creation = try Self.dataText(moov, item)
            }
        }
        // The capture date: Apple's key (a local time and its offset), else the movie's UTC time, else ©day.
        let fromHeader = mvhdTime.flatMap { CaptureDate(unixSeconds: $0 - Self.epochOffset) }
        before = creation.flatMap(CaptureDate.init(iso8601:)) ?? fromHeader ?? day.flatMap(CaptureDate.init(iso8601:))
        switch edit.date {
        case .set(let date):
            after = date.utcOffsetSeconds == nil ? date.withOffset(before?.utcOffsetSeconds) : date
            absoluteTime = after.map { ($0.utc ?? $0).unixSeconds + Self.epochOffset }
        case .shift(let seconds):
            guard let before else { throw .invalidArgument("the movie records no date to shift") }
            guard let moved = before.shifted(by: seconds) else { throw .invalidArgument("a shift of \(seconds) s takes \(before) outside the years 1…9999") }
            after = moved
            timeShift = seconds
        case .zone(let zone, let keeping):
            guard let before else { throw .invalidArgument("the movie records no date to move to \(zone.identifier)") }
            // A movie's header time is UTC, so its instant is known even without Apple's key.
            let known = before.utcOffsetSeconds == nil ? before.withOffset(0) : before
            guard let known, let moved = known.inZone(zone, keeping: keeping) else {
                throw .invalidArgument("\(before) in \(zone.identifier) falls outside the years 1…9999")
            }
            after = moved
            timeShift = (moved.utc?.unixSeconds ?? 0) - (known.utc?.unixSeconds ?? 0)
        case nil: break
        }
    }

    /// The new `moov` box, header included, for one that filled `box` in
    /// the file: chunk offsets past its end move by what it grew or shrank.
    mutating func rebuilt(replacing box: Range<Int>) throws(VideoError) -> [UInt8] {
        let first = MovieBox.box("moov", try container(0..<moov.count, path: "moov"))
        guard first.count != box.count else { return first }
        offsetsFrom = box.upperBound
        offsetShift = first.count - box.count
        return MovieBox.box("moov", try container(0..<moov.count, path: "moov"))
    }

    // MARK: Containers

    private func container(_ range: Range<Int>, path: String) throws(VideoError) -> [UInt8] {
        var output: [UInt8] = []
        let children = try MovieBox.children(of: moov, in: range)
        for child in children { output += try rebuilt(child, in: path) }
        if edit.place.flatMap({ if case .set = $0 { true } else { false } }) == true {
            // A place for a movie without user data: a udta box holding ©xyz.
            if path == "moov", !children.contains(where: { $0.type == "udta" }) { output += MovieBox.box("udta", positionBox()) }
            if path == "moov/udta", !children.contains(where: { $0.type == "\u{A9}xyz" }) { output += positionBox() }
        }
        return output
    }

    private func rebuilt(_ box: MovieBox, in path: String) throws(VideoError) -> [UInt8] {
        let whole = Array(moov[box.range])
        switch box.type {
        case "trak", "mdia", "minf", "stbl", "udta":
            return MovieBox.box(box.type, try container(box.payload, path: path + "/" + box.type))
        case "meta":
            let prefix = Self.isFullMeta(moov, box) ? Array(moov[box.payload.prefix(4)]) : []
            let (keys, _) = try Self.keysAndItems(moov, box)
            var output = prefix
            for child in try Self.metaChildren(moov, box) {
                output += child.type == "ilst" ? MovieBox.box("ilst", try items(child, keys: keys)) : Array(moov[child.range])
            }
            return MovieBox.box("meta", output)
        case "mvhd", "tkhd", "mdhd":
            return times(box)
        case "stco", "co64":
            return try chunkOffsets(box)
        case "\u{A9}day" where path.hasSuffix("udta"):
            guard let after, let old = Self.userDataText(moov, box) else { return whole }
            return Self.userDataBox(
                "\u{A9}day", Self.text(after, like: old), language: Array(moov[(box.payload.lowerBound + 2)..<(box.payload.lowerBound + 4)]))
        case "\u{A9}xyz" where path.hasSuffix("udta"):
            return edit.place == nil ? whole : (edit.place == .remove ? [] : positionBox())
        case "loci" where path.hasSuffix("udta"):
            return edit.place == nil ? whole : []
        default:
            return whole
        }
    }

    // MARK: Leaves

    /// `mvhd`, `tkhd` or `mdhd` with its creation and modification times changed.
    private func times(_ box: MovieBox) -> [UInt8] {
        var payload = Array(moov[box.payload])
        guard edit.date != nil, payload.count >= 20 else { return MovieBox.box(box.type, payload) }
        let width = payload[0] == 1 ? 8 : 4
        for field in [4, 4 + width] {
            let old = Int(truncatingIfNeeded: MovieBox.bigEndian(payload, at: field, size: width))
            var new = absoluteTime ?? (old == 0 ? 0 : old + timeShift)
            // A time a 32-bit field cannot hold stays as it was.
            if new < 0 || (width == 4 && new > Int(UInt32.max)) { new = old }
            payload.replaceSubrange(field..<(field + width), with: MovieBox.bytes(new, size: width))
        }
        return MovieBox.box(box.type, payload)
    }

    /// `stco` or `co64` with the offsets past `moov` moved.
    private func chunkOffsets(_ box: MovieBox) throws(VideoError) -> [UInt8] {
        var payload = Array(moov[box.payload])
        guard offsetShift != 0, payload.count >= 8 else { return MovieBox.box(box.type, payload) }
        let width = box.type == "co64" ? 8 : 4
        let count = Int(MovieBox.bigEndian(payload, at: 4, size: 4))
        guard count <= (payload.count - 8) / width else { throw .corrupt(message: "\(box.type) lists \(count) chunks in \(payload.count) bytes") }
        for index in 0..<count {
            let at = 8 + index * width
            let old = Int(truncatingIfNeeded: MovieBox.bigEndian(payload, at: at, size: width))
            guard old >= offsetsFrom else { continue }
            let new = old + offsetShift
            guard new >= 0, width == 8 || new <= Int(UInt32.max) else { throw .corrupt(message: "a chunk offset past what \(box.type) can hold") }
            payload.replaceSubrange(at..<(at + width), with: MovieBox.bytes(new, size: width))
        }
        return MovieBox.box(box.type, payload)
    }

    /// `ilst` items: Apple's creation date and position keys, iTunes' `©day`.
    private func items(_ ilst: MovieBox, keys: [String]) throws(VideoError) -> [UInt8] {
        var output: [UInt8] = []
        for item in try MovieBox.children(of: moov, in: ilst.payload) {
            let name = Self.keyName(moov, item, keys)
            if name.map(Self.dateKeys.contains) == true || item.type == "\u{A9}day", let after, let old = try Self.dataText(moov, item) {
                output += MovieBox.box(item.type, MovieBox.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(Self.text(after, like: old).utf8)))
            } else if name == Self.locationKey, let place = edit.place {
                if case .set(let location) = place {
                    output += MovieBox.box(item.type, MovieBox.box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(Self.iso6709(location).utf8)))
                }
            } else {
                output += moov[item.range]
            }
        }
        return output
    }

    private func positionBox() -> [UInt8] {
        guard case .set(let location) = edit.place else { return [] }
        return Self.userDataBox("\u{A9}xyz", Self.iso6709(location), language: [0x15, 0xC7])
    }

    /// The key an `ilst` item stands for (its type read as a 1-based index into `keys`).
    static func keyName(_ moov: [UInt8], _ item: MovieBox, _ keys: [String]) -> String? {
        let index = Int(MovieBox.bigEndian(moov, at: item.range.lowerBound + 4, size: 4))
        return index >= 1 && index <= keys.count ? keys[index - 1] : nil
    }

    /// A `meta` box's key names (none without a `keys` box) and its `ilst`.
    static func keysAndItems(_ moov: [UInt8], _ meta: MovieBox) throws(VideoError) -> (keys: [String], ilst: MovieBox?) {
        let children = try metaChildren(moov, meta)
        let keys = try children.first { $0.type == "keys" }.map { box throws(VideoError) in try keyNames(moov, box) } ?? []
        return (keys, children.first { $0.type == "ilst" })
    }

    // MARK: Formats

    /// A position as ISO 6709 text, as iPhones write it: `+48.8583+002.2945+035.000/`.
    static func iso6709(_ place: GeoLocation) -> String {
        String(format: "%+08.4f%+09.4f", place.latitude, place.longitude) + (place.altitude.map { String(format: "%+08.3f", $0) } ?? "") + "/"
    }

    /// `date` written in the form `old` has: `Z` for UTC, an offset with or without its colon, or no zone.
    static func text(_ date: CaptureDate, like old: String) -> String {
        let clock = date.exifDateTime
        let iso = clock.prefix(10).replacingOccurrences(of: ":", with: "-") + "T" + clock.suffix(8)
        let zone = old.count > 19 ? old.dropFirst(19).drop { $0 == "." || $0.isNumber } : ""
        if zone.hasPrefix("Z") { return (date.utc.map { text($0, like: "") } ?? iso) + "Z" }
        guard !zone.isEmpty, let offset = date.exifOffset else { return iso }
        return iso + (zone.contains(":") ? offset : offset.replacingOccurrences(of: ":", with: ""))
    }

    /// A QuickTime user-data text box: length, language, text.
    static func userDataBox(_ type: String, _ text: String, language: [UInt8]) -> [UInt8] {
        let bytes = Array(text.utf8)
        return MovieBox.box(type, MovieBox.bytes(bytes.count, size: 2) + language + bytes)
    }

    /// The text of a QuickTime user-data text box (at most 256 bytes).
    static func userDataText(_ moov: [UInt8], _ box: MovieBox) -> String? {
        guard box.payload.count >= 4 else { return nil }
        let length = Int(MovieBox.bigEndian(moov, at: box.payload.lowerBound, size: 2))
        guard length <= box.payload.count - 4, length <= 256 else { return nil }
        return String(decoding: moov[(box.payload.lowerBound + 4)..<(box.payload.lowerBound + 4 + length)], as: UTF8.self)
    }

    /// The UTF-8 text of an `ilst` item's `data` box (at most 256 bytes).
    static func dataText(_ moov: [UInt8], _ item: MovieBox) throws(VideoError) -> String? {
        guard let data = try MovieBox.children(of: moov, in: item.payload).first(where: { $0.type == "data" }), data.payload.count >= 8,
            data.payload.count <= 264, moov[data.payload.lowerBound + 3] == 1
        else { return nil }
        return String(decoding: moov[(data.payload.lowerBound + 8)..<data.payload.upperBound], as: UTF8.self)
    }

    /// The key names of a `keys` box.
    static func keyNames(_ moov: [UInt8], _ box: MovieBox) throws(VideoError) -> [String] {
        guard box.payload.count >= 8 else { return [] }
        let count = Int(MovieBox.bigEndian(moov, at: box.payload.lowerBound + 4, size: 4))
        let entries = try MovieBox.children(of: moov, in: (box.payload.lowerBound + 8)..<box.payload.upperBound)
        guard count == entries.count else { throw .corrupt(message: "a keys box says \(count) keys and holds \(entries.count)") }
        return entries.map { String(decoding: moov[$0.payload].prefix(256), as: UTF8.self) }
    }

    /// Whether a `meta` box is a full box (version and flags before its children, as in MP4's `udta`).
    static func isFullMeta(_ moov: [UInt8], _ box: MovieBox) -> Bool {
        guard box.payload.count >= 12 else { return false }
        let childType = String(decoding: moov[(box.payload.lowerBound + 8)..<(box.payload.lowerBound + 12)], as: UTF8.self)
        return moov[box.payload.prefix(4)].allSatisfy { $0 == 0 } && ["hdlr", "keys", "ilst", "mhdr", "free"].contains(childType)
    }

    static func metaChildren(_ moov: [UInt8], _ box: MovieBox) throws(VideoError) -> [MovieBox] {
        let skip = isFullMeta(moov, box) ? 4 : 0
        return try MovieBox.children(of: moov, in: (box.payload.lowerBound + skip)..<box.payload.upperBound)
    }

    /// The first time of an `mvhd`, `tkhd` or `mdhd`: its creation time.
    static func times(_ moov: [UInt8], _ box: MovieBox) -> [Int] {
        guard box.payload.count >= 20 else { return [] }
        let width = moov[box.payload.lowerBound] == 1 ? 8 : 4
        return [Int(truncatingIfNeeded: MovieBox.bigEndian(moov, at: box.payload.lowerBound + 4, size: width))]
    }
}

extension CaptureDate {
    /// The UTC date `seconds` after 1970-01-01; `nil` outside the years 1…9999.
    init?(unixSeconds seconds: Int) {
        guard seconds > -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        let epoch = CaptureDate(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, utcOffsetSeconds: 0)!
        guard let date = epoch.shifted(by: seconds) else { return nil }
        self = date
    }

    /// Seconds from 1970-01-01 to this clock time, read as UTC.
    var unixSeconds: Int {
        Int(date.timeIntervalSince1970) + (utcOffsetSeconds ?? 0)
    }
}
