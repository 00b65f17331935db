import SystemSupport

extension VideoInfo {
    /// Whether `leading` (a file's first 189 bytes or more) starts as one of
    /// the containers PhotoDeck opens: an ISO media file (`ftyp`, or an old
    /// QuickTime's `moov`, `mdat`, `wide`, `free`, `skip` first), Matroska
    /// or WebM (EBML), AVI (`RIFF` ... `AVI `), or an MPEG transport stream
    /// (sync bytes 188 apart). A cheap test before asking FFmpeg to probe a file a
    /// folder holds, which might be anything.
    package static func mightBeVideo(leadingBytes leading: [UInt8]) -> Bool {
        guard leading.count >= 12 else { return false }
        let box = String(decoding: leading[4..<8], as: UTF8.self)
        if ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(box) { return true }
        if leading.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        if leading.starts(with: Array("RIFF".utf8)), leading[8..<12].elementsEqual("AVI ".utf8) { return true }
        return leading.count > 188 && leading[0] == 0x47 && leading[188] == 0x47
    }

    /// Whether the file at `path` starts like a video container PhotoDeck
    /// opens (its first 512 bytes, ``mightBeVideo(leadingBytes:)``); `false`
    /// when it cannot be read. The one test callers make before loading
    /// FFmpeg for a file that is no photo.
    package static func startsLikeVideo(fileAt path: String) -> Bool {
        guard let leading = try? ReadOnlyFile(path: path).bytes(at: 0, length: 512) else { return false }
        return mightBeVideo(leadingBytes: leading)
    }

    /// The file's description when it starts like a video and FFmpeg agrees; `nil` otherwise. Blocking.
    package static func probeIfVideo(fileAt path: String) -> VideoInfo? {
        guard startsLikeVideo(fileAt: path) else { return nil }
        return try? VideoInfo(probingFileAt: path)
    }
}
