import ExampleSupport
import Foundation
import ImageCodecs
import VideoCodecs

/// `photo-meta show` and `photo-meta set`.
enum MetaCommand {
    static let usage = """
        usage: photo-meta show [--json] FILE...
               photo-meta set FILE... [--date DATE] [--shift ±DURATION] [--zone IANA --keep-instant|--keep-clock]
                                      [--gps LAT,LON[,ALT] | --no-gps | --gpx TRACK [--max-gap SECONDS]]
                                      [--rating N] [--label NAME] [--tag TAG]... [--untag TAG]... [--sidecar]
               (DATE: 2024-05-01T12:20:30+09:00, or without the offset to keep the one recorded)
               (DURATION: +1h, -30m, -1d2h, +90s or -0:30:00; --zone place: each file's zone from where it was taken)
               (--rating: -1 rejected, 0 none, 1...5 stars; --label: red, orange, yellow, green, blue, purple, gray,
                black, white, any other text, or none; --tag adds a keyword (A|B|C: a path of levels), --untag removes one;
                --sidecar writes the marks to FILE.xmp instead of FILE, as a movie's always are)
               (--gpx: each photo placed where the track was when it was taken, after any date change;
                points further apart than --max-gap, 1800 s by default, place nothing)
        """

    /// The largest file read: 1 GiB.
    static let limit = 1 << 30

    static func show(_ reader: inout ArgumentReader) async throws -> Int32 {
        var json = false
        var files: [String] = []
        while let argument = reader.next() {
            switch argument {
            case "--json": json = true
            case "--help", "-h": throw CLIError(usage, isUsage: true)
            case _ where argument.hasPrefix("--"): throw CLIError("unknown option '\(argument)'\n\(usage)")
            default: files.append(argument)
            }
        }
        guard !files.isEmpty else { throw CLIError("show needs at least one FILE\n\(usage)") }
        var failed = false
        for file in files {
            do {
                let said = try await ImageWorkers.shared.run { () throws(MetaError) in try PhotoFacts.read(file).get() }
                if json { Console.json(said.json(path: file)) } else { Console.line("\(file): \(said)") }
            } catch {
                Console.error("error: \(file): \(error)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    static func set(_ reader: inout ArgumentReader) async throws -> Int32 {
        var files: [String] = []
        var edit = MetadataEdit()
        var zone: TimeZone?
        var keeping: CaptureDate.ZoneChange?
        var track: GPXTrack?
        var maximumGap = 1800
        var marks = MarkChange()
        /// `--zone place`: each file's zone from where it was taken, after any place change.
        var zoneFromPlace = false
        func once(_ flag: String, _ present: Bool) throws(CLIError) {
            if present { throw CLIError("\(flag): one date change at a time (--date, --shift or --zone)") }
        }
        while let argument = reader.next() {
            switch argument {
            case "--date":
                try once(argument, edit.date != nil || zone != nil)
                let text = try reader.value(for: argument)
                guard let date = CaptureDate(iso8601: text) ?? CaptureDate(exifDateTime: text), text.utf8.count <= 40 else {
                    throw CLIError("--date must look like 2024-05-01T12:20:30+09:00, got '\(text)'")
                }
                edit.date = .set(date)
            case "--shift":
                try once(argument, edit.date != nil || zone != nil)
                let text = try reader.value(for: argument)
                guard let seconds = SignedDuration.seconds(text) else {
                    throw CLIError("--shift must be a signed duration like +1h, -30m, -1d2h or -0:30:00, got '\(text)'")
                }
                edit.date = .shift(seconds: seconds)
            case "--zone":
                try once(argument, edit.date != nil || zone != nil)
                let name = try reader.value(for: argument)
                if name == "place" {
                    zoneFromPlace = true
                    zone = TimeZone(secondsFromGMT: 0)
                } else {
                    guard name.utf8.count <= 64, let found = TimeZone(identifier: name) else { throw CLIError("--zone: no time zone named '\(name)'") }
                    zone = found
                }
            case "--keep-instant", "--keep-clock":
                guard keeping == nil else { throw CLIError("--keep-instant and --keep-clock: one or the other") }
                keeping = argument == "--keep-instant" ? .keepingInstant : .keepingClock
            case "--gps":
                guard edit.place == nil, track == nil else { throw CLIError("--gpx, --gps and --no-gps: one of them") }
                let text = try reader.value(for: argument)
                let parts = text.utf8.count <= 64 ? text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) } : []
                guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }),
                    let place = GeoLocation(latitude: parts[0]!, longitude: parts[1]!, altitude: parts.count == 3 ? parts[2] : nil),
                    parts.count == 2 || abs(parts[2]!) < 100_000
                else { throw CLIError("--gps must be LAT,LON or LAT,LON,ALT in degrees and metres, got '\(text)'") }
                edit.place = .set(place)
            case "--gpx":
                guard edit.place == nil, track == nil else { throw CLIError("--gpx, --gps and --no-gps: one of them") }
                let path = try reader.value(for: argument)
                let bytes = try readInputFile(path, limit: 64 << 20)
                do { track = try GPXTrack(parsing: bytes) } catch { throw CLIError("--gpx \(path): \(error)") }
            case "--max-gap":
                maximumGap = try reader.number(for: argument, in: 1...86_400)
            case _ where try marks.read(argument, from: &reader): break
            case "--sidecar":
                marks.toSidecar = true
            case "--no-gps":
                guard edit.place == nil, track == nil else { throw CLIError("--gpx, --gps and --no-gps: one of them") }
                edit.place = .remove
            case "--help", "-h": throw CLIError(usage, isUsage: true)
            case _ where argument.hasPrefix("--"): throw CLIError("unknown option '\(argument)'\n\(usage)")
            default: files.append(argument)
            }
        }
        switch (zone, keeping) {
        case (let zone?, let keeping?): if !zoneFromPlace { edit.date = .zone(zone, keeping) }
        case (.some, nil): throw CLIError("--zone needs --keep-instant (the same moment, the clock moves) or --keep-clock (the same clock, the moment moves)")
        case (nil, .some): throw CLIError("--keep-instant and --keep-clock go with --zone")
        case (nil, nil): break
        }
        guard !files.isEmpty else { throw CLIError("set needs at least one FILE\n\(usage)") }
        guard !edit.isEmpty || track != nil || !marks.isEmpty || zoneFromPlace else {
            throw CLIError("set needs a change (--date, --shift, --zone, --gps, --gpx, --no-gps, --rating, --label, --tag or --untag)\n\(usage)")
        }
        var failed = false
        var outcomes =
            marks.isEmpty
            ? (edit.isEmpty ? [] : await Self.apply(edit, to: files))
            : await ImageWorkers.shared.run { [edit, marks, files] in files.map { applyOne(edit, marks, to: $0) } }
        if let track {
            // Placed from the track once the dates say what they will say; a file whose date change failed is not placed.
            let dated = outcomes.isEmpty ? files : outcomes.compactMap { if case .success = $0.result { $0.file } else { nil } }
            let placed = await ImageWorkers.shared.run { [maximumGap] in dated.map { geotag($0, track: track, maximumGap: maximumGap) } }
            let byFile = Dictionary(placed.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
            outcomes = outcomes.isEmpty ? placed : outcomes.map { byFile[$0.file] ?? $0 }
        }
        if zoneFromPlace, let keeping {
            let placed = outcomes.isEmpty ? files : outcomes.compactMap { if case .success = $0.result { $0.file } else { nil } }
            let zoned = await ImageWorkers.shared.run { placed.map { Self.zoneFromPlace($0, keeping: keeping) } }
            let byFile = Dictionary(zoned.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
            outcomes = outcomes.isEmpty ? zoned : outcomes.map { byFile[$0.file] ?? $0 }
        }
        for outcome in outcomes {
            switch outcome.result {
            case .success(let said): Console.line("\(outcome.file): \(said)")
            case .failure(let error):
                Console.error("error: \(outcome.file): \(error) (left as it was)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// One file's outcome: what it says now, or why it was left as it was.
    struct Outcome: Sendable {
        let file: String
        let result: Result<PhotoFacts, MetaError>
    }

    /// One half's outcomes, and which half.
    struct Half: Sendable {
        let index: Int
        let outcomes: [Outcome]
    }

    /// `edit` applied to `files`, half on each of two workers (the work is
    /// reading and writing, and each half's flushes wait on the disk); the
    /// outcomes in the order of `files`. Photos go through one batch per
    /// half; movies (MP4, QuickTime) one at a time.
    static func apply(_ edit: MetadataEdit, to files: [String]) async -> [Outcome] {
        let size = max(1, (files.count + 1) / 2)
        let halves = stride(from: 0, to: files.count, by: size).map { Array(files[$0..<min(files.count, $0 + size)]) }
        let done = await withTaskGroup(of: Half.self) { group in
            for (index, half) in halves.enumerated() {
                group.addTask {
                    let outcomes = await ImageWorkers.shared.run { applyBlocking(edit, to: half) }
                    return Half(index: index, outcomes: outcomes)
                }
            }
            var done: [Half] = []
            for await half in group { done.append(half) }
            return done
        }
        return done.sorted { $0.index < $1.index }.flatMap(\.outcomes)
    }

    private static func applyBlocking(_ edit: MetadataEdit, to files: [String]) -> [Outcome] {
        let movies = Set(files.filter(PhotoFacts.isMovie))
        let photos = files.filter { !movies.contains($0) }
        var results: [String: Result<PhotoFacts, MetaError>] = [:]
        for (file, result) in zip(photos, edit.apply(toFilesAt: photos, limit: limit)) {
            results[file] = result.mapError(MetaError.photo).flatMap { PhotoFacts.read(file) }
        }
        for file in movies {
            results[file] = Result { () throws(VideoError) in try edit.apply(toMovieAt: file) }.mapError(MetaError.movie).flatMap { PhotoFacts.read(file) }
        }
        return files.map { Outcome(file: $0, result: results[$0]!) }
    }

    /// Places `file` where `track` was when it was taken (a photo's EXIF date with its offset, a movie's).
    private static func geotag(_ file: String, track: GPXTrack, maximumGap: Int) -> Outcome {
        let result = PhotoFacts.read(file).flatMap { facts -> Result<PhotoFacts, MetaError> in
            guard let date = facts.date else { return .failure(.untagged("it records no capture date")) }
            guard date.utcOffsetSeconds != nil else {
                return .failure(.untagged("its capture date \(date) records no offset, so its instant is unknown (set it with --zone first)"))
            }
            guard let place = track.location(at: date, maximumGap: maximumGap) else {
                return .failure(.untagged("the track has no point within \(maximumGap) s of \(date)"))
            }
            return applyAndRead(MetadataEdit(place: .set(place)), to: file)
        }
        return Outcome(file: file, result: result)
    }

    /// `edit` applied to one photo or movie, then what it says now.
    private static func applyAndRead(_ edit: MetadataEdit, to file: String) -> Result<PhotoFacts, MetaError> {
        let applied =
            PhotoFacts.isMovie(file)
            ? Result { () throws(VideoError) in try edit.apply(toMovieAt: file) }.mapError(MetaError.movie)
            : Result { () throws(ImageCodecError) in try edit.apply(toFileAt: file, limit: limit) }.mapError(MetaError.photo)
        return applied.flatMap { PhotoFacts.read(file) }
    }

    /// `file`'s dates moved to the zone of the place it records (tzdata's nearest principal city).
    private static func zoneFromPlace(_ file: String, keeping: CaptureDate.ZoneChange) -> Outcome {
        let result = PhotoFacts.read(file).flatMap { facts -> Result<PhotoFacts, MetaError> in
            guard let place = facts.place else { return .failure(.untagged("it records no place to take a time zone from")) }
            let zone = Result { () throws(ImageCodecError) in try place.nearestTimeZone() }.mapError(MetaError.photo)
            return zone.flatMap { applyAndRead(MetadataEdit(date: .zone($0, keeping)), to: file) }
        }
        return Outcome(file: file, result: result)
    }

    /// `edit` and the marks changed in `file` (or in its sidecar), one file at a time: each file's marks are its own.
    private static func applyOne(_ edit: MetadataEdit, _ change: MarkChange, to file: String) -> Outcome {
        let movie = PhotoFacts.isMovie(file)
        let result = Result { () throws(ImageCodecError) in try PhotoAnnotations(readingFileAt: file) }.mapError(MetaError.photo).flatMap {
            current -> Result<PhotoFacts, MetaError> in
            let marks = change.applied(to: current)
            var edit = edit
            if !(change.toSidecar || movie) { edit.annotations = marks }
            let applied: Result<Void, MetaError> =
                movie
                ? (edit.isEmpty ? .success(()) : Result { () throws(VideoError) in try edit.apply(toMovieAt: file) }.mapError(MetaError.movie))
                : Result { () throws(ImageCodecError) in try edit.apply(toFileAt: file, limit: limit) }.mapError(MetaError.photo)
            return applied.flatMap { () -> Result<Void, MetaError> in
                guard change.toSidecar || movie else { return .success(()) }
                return Result { () throws(ImageCodecError) in try marks.writeSidecar(for: file) }.mapError(MetaError.photo)
            }.flatMap { PhotoFacts.read(file) }
        }
        return Outcome(file: file, result: result)
    }
}
