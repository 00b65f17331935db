/// A video's frames in the order they are shown, for async code: each
/// frame is decoded on PhotoDeck's video worker threads when it is asked
/// for, by a ``VideoFrameReader`` the sequence opens on the first request.
/// Cancelling the iterating task stops the decode between packets.
///
/// ```swift
/// let frames = VideoFrames(fileAt: "/videos/beach.mp4", from: .seconds(3), fitting: PixelSize(width: 640, height: 640))
/// for try await frame in frames {
///     show(frame.bitmap, at: frame.time)
/// }
/// ```
///
/// A player asks for the next frame while showing this one, so decoding
/// overlaps the wait; nothing is decoded that was not asked for, so a
/// paused player holds no thread.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = VideoFrame
    public typealias Failure = VideoError

    private let path: String
    private let range: Range<Int>?
    private let start: Duration
    private let box: PixelSize?
    private let limits: VideoLimits

    /// The frames of the video at `path` (or in `range` of it) from the
    /// first shown at or after `start`, fitted into `box` (the display
    /// size when `nil`).
    public init(fileAt path: String, range: Range<Int>? = nil, from start: Duration = .zero, fitting box: PixelSize? = nil, limits: VideoLimits = .default) {
        self.path = path
        self.range = range
        self.start = start
        self.box = box
        self.limits = limits
    }

    public func makeAsyncIterator() -> Iterator {
        let (path, range, start, box, limits) = (path, range, start, box, limits)
        return Iterator(
            LazyReader(
                open: { cancellation throws(VideoError) in
                    let reader = try VideoFrameReader(fileAt: path, range: range, fitting: box, limits: limits, forOneFrame: false)
                    try reader.seek(to: start, cancellation: cancellation)
                    return reader
                },
                step: { reader, cancellation throws(VideoError) in try reader.nextFrame(cancellation: cancellation) }))
    }

    /// Gives the frames one by one; each call decodes one.
    public struct Iterator: AsyncIteratorProtocol {
        private let source: LazyReader<VideoFrameReader, VideoFrame>

        init(_ source: LazyReader<VideoFrameReader, VideoFrame>) { self.source = source }

        public mutating func next() async throws(VideoError) -> VideoFrame? {
            try await source.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(VideoError) -> VideoFrame? {
            try await source.next()
        }
    }
}
