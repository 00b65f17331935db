import CFFmpeg
import CVideoShim
import Foundation
import ImageCore

/// One frame of a video as a picture: decoded at the size asked for,
/// turned upright as the display matrix says (once, on the small frame),
/// converted to sRGB with the stream's own matrix and range; HDR video
/// (PQ, HLG; BT.2020 or Display P3) tone-mapped as HEIC and AVIF pictures
/// are (BT.2408 reference white, the BT.2390 curve above it, the
/// content's light level when the stream states one).
///
/// ```swift
/// let poster = try await VideoPosterFrame.make(ofFileAt: "/videos/beach.mp4", at: .seconds(2), fitting: PixelSize(width: 512, height: 512))
/// print(poster.bitmap.size, poster.time)   // 512x288 2.0 seconds
/// ```
public struct VideoPosterFrame: Sendable {
    /// The frame, upright, 8-bit RGB.
    public let bitmap: Bitmap
    /// When the frame is shown, from the start of the video: the first
    /// frame at or after the time asked for (the last one when the time is
    /// past the end).
    public let time: Duration
    /// What the container says about the video.
    public let info: VideoInfo

    /// Decodes the frame at `time` of the video at `path` (or in `range`
    /// of it), fitted into `box` (never enlarged; the whole frame at its
    /// display size when `box` is `nil`). Blocks the calling thread while
    /// FFmpeg reads and decodes: call it on a worker thread, or call
    /// ``make(ofFileAt:range:at:fitting:limits:)`` from async code.
    public init(
        ofFileAt path: String, range: Range<Int>? = nil, at time: Duration = .zero, fitting box: PixelSize? = nil, limits: VideoLimits = .default
    ) throws(VideoError) {
        try self.init(ofFileAt: path, range: range, at: time, fitting: box, limits: limits, cancellation: .never)
    }

    init(
        ofFileAt path: String, range: Range<Int>?, at time: Duration, fitting box: PixelSize?, limits: VideoLimits, cancellation: VideoCancellation
    ) throws(VideoError) {
        guard time >= .zero else { throw .invalidArgument("the time \(time) is before the start") }
        if let box, box.width <= 0 || box.height <= 0 { throw .invalidArgument("the box \(box) is empty") }
        let input = try VideoInput(path: path, range: range, limits: limits)
        let info = try input.info()
        let index = try input.videoStreamIndex()
        let decoder = try VideoDecoder(input, stream: index, threads: ProcessInfo.processInfo.activeProcessorCount, forOneFrame: true)
        let size = box.map { info.video.displaySize.fitting(in: $0) } ?? info.video.displaySize
        let (frame, shown) = try Self.decodeFrame(at: time, input: input, decoder: decoder, limits: limits, cancellation: cancellation)
        let scaler = try FrameScaler(
            input.av, for: frame.frame, timeBase: decoder.timeBase, size: size, rotation: info.video.rotation, mirrored: info.video.isMirrored,
            toneMap: input.toneMap(for: decoder.streamIndex))
        bitmap = try scaler.convert(frame.frame)
        self.time = shown
        self.info = info
    }

    /// ``init(ofFileAt:range:at:fitting:limits:)`` on PhotoDeck's video
    /// worker threads, for async callers; cancelling the task stops the
    /// decode between packets.
    public static func make(
        ofFileAt path: String, range: Range<Int>? = nil, at time: Duration = .zero, fitting box: PixelSize? = nil, limits: VideoLimits = .default
    ) async throws(VideoError) -> VideoPosterFrame {
        try await VideoWorkers.run { cancellation throws(VideoError) -> VideoPosterFrame in
            try VideoPosterFrame(ofFileAt: path, range: range, at: time, fitting: box, limits: limits, cancellation: cancellation)
        }
    }

    /// Seeks to the keyframe at or before `time` and decodes up to the first
    /// frame shown at or after it; the last frame when `time` is past the end.
    private static func decodeFrame(
        at time: Duration, input: VideoInput, decoder: VideoDecoder, limits: VideoLimits, cancellation: VideoCancellation
    ) throws(VideoError) -> (PacketAndFrame, Duration) {
        guard let stream = input.stream(decoder.streamIndex) else { throw .noVideoStream }
        let base = decoder.timeBase
        guard base.num > 0, base.den > 0 else { throw .corrupt(message: "the video stream has no time base") }
        let start = stream.pointee.start_time == PD_AV_NOPTS_VALUE ? 0 : stream.pointee.start_time
        guard let ticks = StreamTime.ticks(time, base: base), abs(start) < StreamTime.maxTicks else {
            throw .invalidArgument("the time \(time) is out of range for this video")
        }
        let target = start + ticks
        if target > start {
            // A failed seek decodes from where the reader is (the start): slower, never wrong.
            _ = input.av.av_seek_frame(input.format, decoder.streamIndex, target, AVSEEK_FLAG_BACKWARD)
            decoder.flush()
            input.allowReading(limits.maxFrameReadBytes)
            if let found = try decodeFrames(until: target, start: start, input: input, decoder: decoder, limits: limits, cancellation: cancellation) {
                return found
            }
            // Nothing decodes from that keyframe (a cut file ends before it): the last frame there is, from the start.
            _ = input.av.av_seek_frame(input.format, decoder.streamIndex, start, AVSEEK_FLAG_BACKWARD)
            decoder.flush()
        }
        input.allowReading(limits.maxFrameReadBytes)
        guard let found = try decodeFrames(until: target, start: start, input: input, decoder: decoder, limits: limits, cancellation: cancellation) else {
            throw .corrupt(message: "no frame could be decoded")
        }
        return found
    }

    /// Decodes from where the reader is up to the first frame shown at or
    /// after `target` (in stream ticks), or the last one before the stream
    /// ends; `nil` when no frame decodes at all.
    private static func decodeFrames(
        until target: Int64, start: Int64, input: VideoInput, decoder: VideoDecoder, limits: VideoLimits, cancellation: VideoCancellation
    ) throws(VideoError) -> (PacketAndFrame, Duration)? {
        let av = input.av
        let work = try PacketAndFrame(av)
        let kept = try PacketAndFrame(av)
        var hasKept = false
        var decoded = 0
        var sent = 0
        var draining = false
        func shown(_ frame: UnsafeMutablePointer<AVFrame>) -> Duration {
            let stamp = frame.pointee.best_effort_timestamp == PD_AV_NOPTS_VALUE ? frame.pointee.pts : frame.pointee.best_effort_timestamp
            guard stamp != PD_AV_NOPTS_VALUE, stamp >= start else { return .zero }
            return StreamTime.duration(ticks: stamp - start, base: decoder.timeBase) ?? .zero
        }
        while true {
            // Every frame the decoder has ready.
            while true {
                let received = av.avcodec_receive_frame(decoder.context, work.frame)
                // Drained (EOF), or nothing more will come after the flush: what was decoded is the answer.
                if received == PD_AVERROR_EOF || (received == PD_AVERROR_EAGAIN && draining) { return hasKept ? (kept, shown(kept.frame)) : nil }
                if received == PD_AVERROR_EAGAIN { break }
                decoded += 1
                guard decoded <= limits.maxFramesDecoded else {
                    throw .limitExceeded(what: "frames decoded to reach one", value: decoded, limit: limits.maxFramesDecoded)
                }
                // A frame too damaged to decode is skipped, as players do (it counts against the limit).
                if received == PD_AVERROR_INVALIDDATA { continue }
                guard received >= 0 else { throw .corrupt(message: VideoInput.text(received)) }
                let stamp = work.frame.pointee.best_effort_timestamp
                if stamp == PD_AV_NOPTS_VALUE || stamp >= target {
                    return (work, shown(work.frame))
                }
                av.av_frame_unref(kept.frame)
                av.av_frame_move_ref(kept.frame, work.frame)
                hasKept = true
            }
            try cancellation.check()
            let read = av.av_read_frame(input.format, work.packet)
            if read == PD_AVERROR_EOF {
                draining = true
                _ = av.avcodec_send_packet(decoder.context, nil)
                continue
            }
            guard read >= 0 else {
                if input.isOverBudget {
                    throw .limitExceeded(what: "bytes read for one frame", value: input.bytesRead, limit: limits.maxFrameReadBytes)
                }
                // A cut file ends early: what was decoded so far is the answer, as players show it.
                draining = true
                _ = av.avcodec_send_packet(decoder.context, nil)
                continue
            }
            defer { av.av_packet_unref(work.packet) }
            guard work.packet.pointee.stream_index == decoder.streamIndex else { continue }
            // Packets that never make a frame (empty ones, parameter sets alone) are bounded too.
            sent += 1
            let packetLimit = min(max(limits.maxFramesDecoded, 0), Int.max / 8) * 4 + 64
            guard sent <= packetLimit else { throw .limitExceeded(what: "packets read to reach one frame", value: sent, limit: packetLimit) }
            let result = av.avcodec_send_packet(decoder.context, work.packet)
            // A damaged packet is skipped, as players do; the frames around it still decode.
            if result < 0, result != PD_AVERROR_EAGAIN, result != PD_AVERROR_INVALIDDATA { throw .corrupt(message: VideoInput.text(result)) }
        }
    }
}
