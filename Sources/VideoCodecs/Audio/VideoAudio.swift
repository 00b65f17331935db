/// A video's sound in order, for async code: each run decoded on
/// PhotoDeck's video worker threads when it is asked for, by a
/// ``VideoAudioReader`` the sequence opens on the first request. A silent
/// file ends the sequence at once with ``VideoError/noAudioStream``.
///
/// ```swift
/// for try await chunk in VideoAudio(fileAt: "/videos/beach.mp4", from: .seconds(3), format: .stereo48k) {
///     output.enqueue(chunk)
/// }
/// ```
///
/// A player asks for sound ahead of what is playing (a fraction of a
/// second) and stops asking while enough is queued, so a paused player
/// holds no thread.
public struct VideoAudio: AsyncSequence, Sendable {
    public typealias Element = AudioChunk
    public typealias Failure = VideoError

    private let path: String
    private let range: Range<Int>?
    private let start: Duration
    private let format: AudioFormat
    private let limits: VideoLimits

    /// The sound of the video at `path` (or in `range` of it) from `start`, in `format`.
    public init(fileAt path: String, range: Range<Int>? = nil, from start: Duration = .zero, format: AudioFormat, limits: VideoLimits = .default) {
        self.path = path
        self.range = range
        self.start = start
        self.format = format
        self.limits = limits
    }

    public func makeAsyncIterator() -> Iterator {
        let (path, range, start, format, limits) = (path, range, start, format, limits)
        return Iterator(
            LazyReader(
                open: { _ throws(VideoError) in
                    let reader = try VideoAudioReader(fileAt: path, range: range, format: format, limits: limits)
                    if start > .zero { try reader.seek(to: start) }
                    return reader
                },
                step: { reader, cancellation throws(VideoError) in try reader.nextChunk(cancellation: cancellation) }))
    }

    /// Gives the sound run by run; each call decodes one.
    public struct Iterator: AsyncIteratorProtocol {
        private let source: LazyReader<VideoAudioReader, AudioChunk>

        init(_ source: LazyReader<VideoAudioReader, AudioChunk>) { self.source = source }

        public mutating func next() async throws(VideoError) -> AudioChunk? {
            try await source.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(VideoError) -> AudioChunk? {
            try await source.next()
        }
    }
}
