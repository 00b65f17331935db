extension VideoInfo {
    /// Reads the container's header of the video at `path` (or in `range`
    /// of it: a Motion Photo's video follows its JPEG) without decoding a
    /// frame: at most ``VideoLimits/maxProbeBytes`` are read, and every
    /// number is checked against `limits`. Blocks while FFmpeg reads: call
    /// it on a worker thread, or ``probe(fileAt:range:limits:)`` from
    /// async code.
    public init(probingFileAt path: String, range: Range<Int>? = nil, limits: VideoLimits = .default) throws(VideoError) {
        self = try VideoInput(path: path, range: range, limits: limits).info()
    }

    /// ``init(probingFileAt:range:limits:)`` on PhotoDeck's video worker threads.
    ///
    /// ```swift
    /// let info = try await VideoInfo.probe(fileAt: path)
    /// ```
    public static func probe(fileAt path: String, range: Range<Int>? = nil, limits: VideoLimits = .default) async throws(VideoError) -> VideoInfo {
        try await VideoWorkers.run { _ throws(VideoError) -> VideoInfo in
            try VideoInfo(probingFileAt: path, range: range, limits: limits)
        }
    }
}
