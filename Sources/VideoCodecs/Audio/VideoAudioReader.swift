import CFFmpeg
import CVideoShim
import ImageCore

/// A video's sound, decoded in order and converted to one ``AudioFormat``
/// (resampled and remixed by FFmpeg's filters), each run stamped on the
/// video's clock so that a player can keep pictures and sound together.
///
/// Like ``VideoFrameReader``, every call blocks while FFmpeg reads and
/// decodes: use one reader from one thread at a time, off Swift's
/// cooperative pool, or iterate ``VideoAudio`` from async code. The
/// ``VideoLimits`` bound the header and each step (bytes read, packets sent).
///
/// ```swift
/// let reader = try VideoAudioReader(fileAt: "/videos/beach.mp4", format: .stereo48k)
/// try reader.seek(to: .seconds(3))
/// while let chunk = try reader.nextChunk() {
///     output.enqueue(chunk.samples)
/// }
/// ```
public final class VideoAudioReader {
    /// What the container says about the sound stream.
    public let info: AudioStreamInfo
    /// The format every chunk comes out in.
    public let format: AudioFormat

    private let loop: StreamDecodeLoop
    private let decoder: VideoDecoder
    private let av: pd_ffmpeg
    /// Where the converter puts what it converted.
    private let converted: PacketAndFrame
    private var converter: OpaquePointer?
    /// The decoded shape the converter was made for (rate, sample format, channels).
    private var converterShape: (Int32, Int32, Int32)?
    /// The converter was told the sound ended.
    private var flushed = false
    /// The time of the next sample given: from the first decoded frame's
    /// stamp after an open or a seek, then counted in samples.
    private var nextTime: Duration?
    /// Samples before this time are left out (a seek's target; the start).
    private var trimBefore: Duration = .zero
    /// The video stream's first time: chunk times count from it, as frame times do.
    private let origin: Duration

    /// Opens the sound of the video at `path` (or in `range` of it: a
    /// Motion Photo's MP4) for chunks in `format`. Throws
    /// ``VideoError/noAudioStream`` when the file is silent.
    public init(fileAt path: String, range: Range<Int>? = nil, format: AudioFormat, limits: VideoLimits = .default) throws(VideoError) {
        guard format.isAccepted else {
            throw .invalidArgument("the sound format \(format) is outside \(AudioFormat.acceptedRates) Hz and \(AudioFormat.acceptedChannels) channels")
        }
        let input = try VideoInput(path: path, range: range, limits: limits)
        guard let audio = try input.info().audio, let index = input.audioStreamIndex() else { throw .noAudioStream }
        let decoder = try VideoDecoder(input, stream: index, threads: 1, codecs: VideoDecoder.audioCodecs)
        let videoStream = (try? input.videoStreamIndex()).flatMap { input.stream($0) }
        origin = videoStream.flatMap { StreamTime.preciseDuration(ticks: $0.pointee.start_time, base: $0.pointee.time_base) } ?? .zero
        info = audio
        self.format = format
        self.decoder = decoder
        av = input.av
        loop = try StreamDecodeLoop(input, decoder: decoder, limits: limits)
        converted = try PacketAndFrame(input.av)
    }

    deinit {
        pd_audio_converter_free(&converter)
    }

    /// The next run of sound (one decoded frame's worth, some 20 ms), or
    /// `nil` after the last.
    public func nextChunk() throws(VideoError) -> AudioChunk? {
        try nextChunk(cancellation: .never)
    }

    /// Positions the reader so that ``nextChunk()`` starts at `time` (the
    /// samples before it in the first chunk are left out).
    public func seek(to time: Duration) throws(VideoError) {
        guard time >= .zero else { throw .invalidArgument("the time \(time) is before the start") }
        let absolute = time + origin
        guard let ticks = StreamTime.ticks(absolute, base: decoder.timeBase) else {
            throw .invalidArgument("the time \(time) is out of range for this video")
        }
        loop.reposition(to: ticks, isStart: time == .zero)
        pd_audio_converter_free(&converter)
        converterShape = nil
        flushed = false
        nextTime = nil
        trimBefore = time
    }

    func nextChunk(cancellation: VideoCancellation) throws(VideoError) -> AudioChunk? {
        loop.beginStep()
        while true {
            if let converter {
                let pulled = pd_audio_converter_pull(converter, converted.frame)
                if pulled >= 0 {
                    defer { av.av_frame_unref(converted.frame) }
                    if let chunk = chunk(of: converted.frame) { return chunk }
                    continue
                }
                if pulled == PD_AVERROR_EOF { return nil }
                guard pulled == PD_AVERROR_EAGAIN else { throw .corrupt(message: VideoInput.text(pulled)) }
                if flushed { return nil }
            }
            try cancellation.check()
            guard try loop.next(cancellation: cancellation) else {
                // The end: what the converter holds comes out, then its end.
                guard let converter, !flushed else { return nil }
                flushed = true
                let result = pd_audio_converter_push(converter, nil)
                guard result >= 0 else { throw .corrupt(message: VideoInput.text(result)) }
                continue
            }
            let frame = loop.work.frame
            defer { av.av_frame_unref(frame) }
            try prepareConverter(for: frame)
            if nextTime == nil {
                let stamp = frame.pointee.best_effort_timestamp == PD_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
                nextTime = time(ofStamp: stamp) ?? trimBefore
            }
            guard let converter else { throw .corrupt(message: "no sound converter") }
            let result = pd_audio_converter_push(converter, frame)
            guard result >= 0 else { throw .corrupt(message: VideoInput.text(result)) }
        }
    }

    /// `stamp` (ticks of the sound stream) on the video's clock; `nil` when
    /// it is not a time. Before the video's start it is negative.
    private func time(ofStamp stamp: Int64) -> Duration? {
        guard stamp != PD_AV_NOPTS_VALUE else { return nil }
        let base = decoder.timeBase
        let magnitude = StreamTime.preciseDuration(ticks: stamp == Int64.min ? Int64.max : abs(stamp), base: base)
        return magnitude.map { (stamp < 0 ? .zero - $0 : $0) - origin }
    }

    /// Makes (or remakes, when the stream changes shape midway) the converter for `frame`.
    private func prepareConverter(for frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
        let shape = (frame.pointee.sample_rate, frame.pointee.format, frame.pointee.ch_layout.nb_channels)
        guard (1...768_000).contains(Int(shape.0)), (1...64).contains(Int(shape.2)) else {
            throw .corrupt(message: "a sound frame claims \(shape.0) Hz and \(shape.2) channels")
        }
        if let current = converterShape, current == shape, converter != nil { return }
        // A stream that changes shape midway (rare) loses the few samples the old converter held;
        // the running time counts on.
        pd_audio_converter_free(&converter)
        let result = pd_audio_converter_open(frame, decoder.timeBase, Int32(format.sampleRate), Int32(format.channels), &converter)
        guard result >= 0, converter != nil else { throw .corrupt(message: "the sound cannot be converted: \(VideoInput.text(result))") }
        converterShape = shape
    }

    /// The converted `frame` as a chunk at the running time, its samples
    /// before ``trimBefore`` left out; `nil` when none are left.
    private func chunk(of frame: UnsafeMutablePointer<AVFrame>) -> AudioChunk? {
        let frames = Int(frame.pointee.nb_samples)
        let channels = format.channels
        guard frames > 0, Int(frame.pointee.ch_layout.nb_channels) == channels, let data = frame.pointee.data.0 else { return nil }
        let start = nextTime ?? trimBefore
        nextTime = start + format.duration(ofFrames: frames)
        let skipped = min(frames, format.frames(in: trimBefore - start))
        guard skipped < frames else { return nil }
        let samples = data.withMemoryRebound(to: Int16.self, capacity: frames * channels) { pointer in
            Array(UnsafeBufferPointer(start: pointer + skipped * channels, count: (frames - skipped) * channels))
        }
        return AudioChunk(samples: samples, time: start + format.duration(ofFrames: skipped), format: format)
    }
}
