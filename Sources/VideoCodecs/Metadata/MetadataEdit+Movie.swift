public import ImageCore
import SystemSupport

extension MetadataEdit {
    /// The largest `moov` box read: 64 MiB (a 10-hour movie's is a few).
    static let movieHeaderLimit = 64 << 20

    /// `movie` (MP4 or QuickTime) with this edit written into its `moov`
    /// box (see `MovieMetadataEditor`): the header times, `©day`, Apple's
    /// creation-date and position keys, `©xyz`; the media data copied as
    /// it is, its chunk offsets moved when `moov` before it changes size.
    ///
    /// Dates: a movie's capture date is Apple's
    /// `com.apple.quicktime.creationdate` (a local time with its offset)
    /// when it has one, else its `mvhd` time, which is UTC. A date set
    /// without an offset takes the recorded one, or is UTC.
    ///
    /// ```swift
    /// let moved = try MetadataEdit(date: .shift(seconds: 3600)).applied(toMovie: mov)
    /// ```
    ///
    /// - Throws: ``VideoCodecs/VideoError/unsupportedContainer(message:)`` for a file
    ///   that is not an unfragmented MP4 or QuickTime movie,
    ///   ``VideoCodecs/VideoError/corrupt(message:)`` for boxes that do not fit, and
    ///   ``VideoCodecs/VideoError/invalidArgument(_:)`` for an edit that cannot apply.
    public func applied(toMovie movie: [UInt8]) throws(VideoError) -> [UInt8] {
        let (moov, _) = try Self.movieLayout(count: movie.count) { offset, length throws(VideoError) in Array(movie[offset..<min(movie.count, offset + length)])
        }
        var editor = try MovieMetadataEditor(moov: Array(movie[moov.payload]), edit: self)
        return Array(movie[..<moov.range.lowerBound]) + (try editor.rebuilt(replacing: moov.range)) + Array(movie[moov.range.upperBound...])
    }

    /// Applies this edit to the movie at `path` in place: the new file
    /// written beside it a chunk at a time (the media data is copied, never
    /// held in memory), flushed, renamed over it; the old file or the new
    /// one, complete, whatever happens. Symbolic links are refused.
    /// Blocking: call it off the cooperative pool (on ImageCodecs' `ImageWorkers`, say).
    public func apply(toMovieAt path: String) throws(VideoError) {
        func access<T>(_ body: () throws(SystemError) -> T) throws(VideoError) -> T {
            do { return try body() } catch { throw .fileAccess(path: path, reason: error.reason) }
        }
        guard FileSystem.kind(of: path, followingSymlinks: false) == .regular else {
            throw .fileAccess(path: path, reason: "not a regular file (a link, a folder or a device)")
        }
        let file = try access { () throws(SystemError) in try ReadOnlyFile(path: path, followingSymlinks: false) }
        let mode = try access { () throws(SystemError) in try FileSystem.status(of: path, followingSymlinks: false).permissions }
        let (moov, _) = try Self.movieLayout(count: file.size) { offset, length throws(VideoError) in
            try access { () throws(SystemError) in try file.bytes(at: offset, length: length) }
        }
        let payload = try access { () throws(SystemError) in try file.bytes(at: moov.payload.lowerBound, length: moov.payload.count) }
        guard payload.count == moov.payload.count else { throw .corrupt(message: "the moov box is cut short") }
        var editor = try MovieMetadataEditor(moov: payload, edit: self)
        let edited = try editor.rebuilt(replacing: moov.range)
        do {
            try DurableFile.splice([.range(0..<moov.range.lowerBound), .bytes(edited), .range(moov.range.upperBound..<file.size)], from: file, mode: mode)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
    }

    /// The top-level boxes of a movie of `count` bytes, read by their
    /// headers alone: its one `moov` box (read whole: at most
    /// ``movieHeaderLimit``) and every box.
    static func movieLayout(
        count: Int, bytesAt: (Int, Int) throws(VideoError) -> [UInt8]
    ) throws(VideoError) -> (moov: MovieBox, boxes: [MovieBox]) {
        var boxes: [MovieBox] = []
        var offset = 0
        while offset + 8 <= count {
            guard boxes.count < 4096 else { throw .corrupt(message: "more than 4,096 boxes at the top level") }
            let header = try bytesAt(offset, 16)
            guard header.count >= 8 else { throw .corrupt(message: "the file ends inside a box header") }
            let type = MovieBox.fourCC(header[4..<8])
            if boxes.isEmpty, type != "ftyp" { throw .unsupportedContainer(message: "an MP4 or QuickTime movie starts with ftyp, this one with '\(type)'") }
            var size = Int(MovieBox.bigEndian(header, at: 0, size: 4))
            var headerSize = 8
            if size == 1 {
                guard header.count >= 16 else { throw .corrupt(message: "a \(type) box's 64-bit size is cut short") }
                let wide = MovieBox.bigEndian(header, at: 8, size: 8)
                guard wide <= UInt64(count) else { throw .corrupt(message: "a \(type) box of \(wide) bytes in a file of \(count)") }
                size = Int(wide)
                headerSize = 16
            } else if size == 0 {
                size = count - offset
            }
            guard size >= headerSize, size <= count - offset else { throw .corrupt(message: "a \(type) box of \(size) bytes runs past the end of the file") }
            boxes.append(MovieBox(type: type, range: offset..<(offset + size), payload: (offset + headerSize)..<(offset + size)))
            offset += size
        }
        if boxes.contains(where: { $0.type == "moof" }) { throw .unsupportedContainer(message: "a fragmented movie (moof boxes)") }
        let moovs = boxes.filter { $0.type == "moov" }
        guard moovs.count == 1, let moov = moovs.first else { throw .corrupt(message: "\(moovs.count) moov boxes") }
        guard moov.payload.count <= movieHeaderLimit else {
            throw .limitExceeded(what: "moov box bytes", value: moov.payload.count, limit: movieHeaderLimit)
        }
        return (moov, boxes)
    }
}
