import CFFmpeg
import CVideoShim
import Foundation
import ImageCore

/// One frame of a video, decoded: the picture upright in sRGB at the size
/// asked for, and when it is shown.
public struct VideoFrame: Sendable, Hashable {
    /// The picture, upright, 8-bit RGB.
    public let bitmap: Bitmap
    /// When it is shown, from the start of the video.
    public let time: Duration
}

/// A video's frames in the order they are shown, each fitted into a box,
/// upright and in sRGB (HDR tone-mapped), as ``VideoPosterFrame`` makes one;
/// for playback and for stepping frame by frame.
///
/// Every call blocks while FFmpeg reads and decodes: use one reader from
/// one thread at a time, off Swift's cooperative pool, or iterate
/// ``VideoFrames`` from async code. The ``VideoLimits`` bound each step:
/// the bytes read and packets sent for one frame, the frames decoded to
/// reach a seek's target.
///
/// ```swift
/// let reader = try VideoFrameReader(fileAt: "/videos/beach.mp4", fitting: PixelSize(width: 640, height: 640))
/// try reader.seek(to: .seconds(3))
/// while let frame = try reader.nextFrame() {
///     show(frame.bitmap, at: frame.time)
/// }
/// ```
public final class VideoFrameReader {
    /// What the container says about the video.
    public let info: VideoInfo
    /// The size frames come out at: the display size fitted into the box.
    public let size: PixelSize

    private let loop: StreamDecodeLoop
    private let decoder: VideoDecoder
    private let limits: VideoLimits
    private let av: pd_ffmpeg
    private let toneMap: HDRToneMap?
    private var scaler: FrameScaler?
    /// The frame the loop decodes into.
    private var work: PacketAndFrame { loop.work }
    /// The frame `nextFrame` gives next, found by a seek.
    private let held: PacketAndFrame
    private var isHeld = false
    /// The latest frame before a seek's target, in case none comes after it.
    private let before: PacketAndFrame
    /// The stream's first tick (times are counted from it).
    private let start: Int64

    /// Opens the video at `path` (or `range` of it: a Motion Photo's MP4)
    /// for frames fitted into `box` (never enlarged; the display size when
    /// `nil`), decoded with frame threads (one per core).
    public convenience init(
        fileAt path: String, range: Range<Int>? = nil, fitting box: PixelSize? = nil, limits: VideoLimits = .default
    ) throws(VideoError) {
        try self.init(fileAt: path, range: range, fitting: box, limits: limits, forOneFrame: false)
    }

    /// `forOneFrame`: slice threads only (a poster: frame threads only add a pipeline to fill).
    init(fileAt path: String, range: Range<Int>?, fitting box: PixelSize?, limits: VideoLimits, forOneFrame: Bool) throws(VideoError) {
        if let box, box.width <= 0 || box.height <= 0 { throw .invalidArgument("the box \(box) is empty") }
        let input = try VideoInput(path: path, range: range, limits: limits)
        let info = try input.info()
        let decoder = try VideoDecoder(
            input, stream: try input.videoStreamIndex(), threads: ProcessInfo.processInfo.activeProcessorCount, forOneFrame: forOneFrame)
        guard let stream = input.stream(decoder.streamIndex) else { throw .noVideoStream }
        let base = decoder.timeBase
        guard base.num > 0, base.den > 0 else { throw .corrupt(message: "the video stream has no time base") }
        let start = stream.pointee.start_time == PD_AV_NOPTS_VALUE ? 0 : stream.pointee.start_time
        guard abs(start) < StreamTime.maxTicks else { throw .corrupt(message: "the video stream starts at \(start), not a time") }
        self.info = info
        size = box.map { info.video.displaySize.fitting(in: $0) } ?? info.video.displaySize
        self.decoder = decoder
        self.limits = limits
        av = input.av
        toneMap = input.toneMap(for: decoder.streamIndex)
        loop = try StreamDecodeLoop(input, decoder: decoder, limits: limits)
        held = try PacketAndFrame(input.av)
        before = try PacketAndFrame(input.av)
        self.start = start
    }

    /// The next frame shown, or `nil` after the last. A frame too damaged
    /// to decode is skipped, as players skip it; a file cut short ends
    /// where its data does.
    public func nextFrame() throws(VideoError) -> VideoFrame? {
        try nextFrame(cancellation: .never)
    }

    func nextFrame(cancellation: VideoCancellation) throws(VideoError) -> VideoFrame? {
        loop.beginStep()
        if isHeld {
            isHeld = false
            defer { av.av_frame_unref(held.frame) }
            return try picture(of: held.frame)
        }
        guard try loop.next(cancellation: cancellation) else { return nil }
        defer { av.av_frame_unref(work.frame) }
        return try picture(of: work.frame)
    }

    /// Positions the reader so that ``nextFrame()`` gives the first frame
    /// shown at or after `time`: from the keyframe before it, decoding (not
    /// converting) the frames between. Past the end, the last frame.
    public func seek(to time: Duration) throws(VideoError) {
        try seek(to: time, cancellation: .never)
    }

    func seek(to time: Duration, cancellation: VideoCancellation) throws(VideoError) {
        guard time >= .zero else { throw .invalidArgument("the time \(time) is before the start") }
        guard let ticks = StreamTime.ticks(time, base: decoder.timeBase) else {
            throw .invalidArgument("the time \(time) is out of range for this video")
        }
        let target = start + ticks
        loop.beginStep()
        if target > start {
            reposition(to: target)
            if try decodeUntil(target, cancellation: cancellation) { return }
            // Nothing decodes from that keyframe (a cut file ends before it): from the start, to the last frame there is.
        }
        if !loop.atStart { reposition(to: start) }
        loop.beginStep()
        guard try decodeUntil(target, cancellation: cancellation) else { throw .corrupt(message: "no frame could be decoded") }
    }

    /// Seeks to the keyframe at or before `target` and forgets what the
    /// decoder and the reader hold.
    private func reposition(to target: Int64) {
        loop.reposition(to: target, isStart: target <= start)
        av.av_frame_unref(held.frame)
        isHeld = false
    }

    /// Decodes up to the first frame shown at or after `target` and holds
    /// it (or the last frame before it when the stream ends first);
    /// `false` when no frame decodes at all.
    private func decodeUntil(_ target: Int64, cancellation: VideoCancellation) throws(VideoError) -> Bool {
        av.av_frame_unref(before.frame)
        var hasBefore = false
        var decoded = 0
        while try loop.next(cancellation: cancellation) {
            decoded += 1
            let stamp = work.frame.pointee.best_effort_timestamp
            if stamp == PD_AV_NOPTS_VALUE || stamp >= target {
                av.av_frame_move_ref(held.frame, work.frame)
                isHeld = true
                return true
            }
            guard decoded < limits.maxFramesDecoded else {
                throw .limitExceeded(what: "frames decoded to reach one", value: decoded + 1, limit: limits.maxFramesDecoded)
            }
            av.av_frame_unref(before.frame)
            av.av_frame_move_ref(before.frame, work.frame)
            hasBefore = true
        }
        guard hasBefore else { return false }
        av.av_frame_move_ref(held.frame, before.frame)
        isHeld = true
        return true
    }

    /// `frame` converted, with its time; the converter is rebuilt when the
    /// stream changes shape midway.
    private func picture(of frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> VideoFrame {
        if scaler.map({ !$0.accepts(frame) }) ?? true {
            scaler = try FrameScaler(
                av, for: frame, timeBase: decoder.timeBase, size: size, rotation: info.video.rotation, mirrored: info.video.isMirrored,
                toneMap: toneMap)
        }
        guard let scaler else { throw .corrupt(message: "no frame converter") }
        let stamp = frame.pointee.best_effort_timestamp == PD_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
        let time = stamp != PD_AV_NOPTS_VALUE && stamp >= start ? StreamTime.duration(ticks: stamp - start, base: decoder.timeBase) ?? .zero : .zero
        return VideoFrame(bitmap: try scaler.convert(frame), time: time)
    }
}
