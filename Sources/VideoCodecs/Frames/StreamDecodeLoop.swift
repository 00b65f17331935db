import CFFmpeg
import CVideoShim

/// One stream's packets read from its container and decoded, a frame at a
/// time, inside one step's bounds (the bytes read, the packets sent and the
/// damaged frames skipped): what the picture and sound readers share.
/// Used by one thread at a time, like its input.
final class StreamDecodeLoop {
    let input: VideoInput
    let decoder: VideoDecoder
    let limits: VideoLimits
    let av: pd_ffmpeg
    /// The packet read into, and the frame ``next(cancellation:)`` decodes into.
    let work: PacketAndFrame
    /// Whether nothing has been decoded since the container was opened (or sought to its start).
    private(set) var atStart = true
    /// The decoder was told the stream ended (flushed with no packet).
    private var draining = false
    /// Every frame has been given.
    private var finished = false
    /// Packets sent and damaged frames skipped in this step.
    private var sent = 0, damaged = 0

    init(_ input: VideoInput, decoder: VideoDecoder, limits: VideoLimits) throws(VideoError) {
        self.input = input
        self.decoder = decoder
        self.limits = limits
        av = input.av
        work = try PacketAndFrame(input.av)
    }

    /// Starts one step's bounds: its bytes, packets and damaged frames.
    func beginStep() {
        input.allowReading(limits.maxFrameReadBytes)
        sent = 0
        damaged = 0
    }

    /// Seeks the demuxer to the keyframe at or before `target` (ticks of
    /// the stream's time base) and forgets what the decoder holds;
    /// `isStart`: the target is the stream's first tick.
    func reposition(to target: Int64, isStart: Bool) {
        // A failed seek decodes from where the reader is: slower, never wrong.
        _ = av.av_seek_frame(input.format, decoder.streamIndex, target, AVSEEK_FLAG_BACKWARD)
        decoder.flush()
        draining = false
        finished = false
        atStart = isStart
    }

    /// Decodes the next frame into `work.frame`; `false` at the end. A
    /// frame or packet too damaged to decode is skipped, as players skip
    /// it; a file cut short ends where its data does.
    func next(cancellation: VideoCancellation) throws(VideoError) -> Bool {
        guard !finished else { return false }
        let packetLimit = min(max(limits.maxFramesDecoded, 0), Int.max / 8) * 4 + 64
        while true {
            let received = av.avcodec_receive_frame(decoder.context, work.frame)
            if received >= 0 {
                atStart = false
                return true
            }
            // Drained (EOF), or nothing more will come after the flush.
            if received == PD_AVERROR_EOF || (received == PD_AVERROR_EAGAIN && draining) {
                finished = true
                return false
            }
            if received == PD_AVERROR_INVALIDDATA {
                // A frame too damaged to decode is skipped, as players do; bounded like packets.
                damaged += 1
                guard damaged <= packetLimit else { throw .limitExceeded(what: "damaged frames in a row", value: damaged, limit: packetLimit) }
                continue
            }
            guard received == PD_AVERROR_EAGAIN else { throw .corrupt(message: VideoInput.text(received)) }
            try cancellation.check()
            let read = av.av_read_frame(input.format, work.packet)
            if read < 0 {
                if read != PD_AVERROR_EOF, input.isOverBudget {
                    throw .limitExceeded(what: "bytes read for one frame", value: input.bytesRead, limit: limits.maxFrameReadBytes)
                }
                // The end, or a cut file ending early: what the decoder holds is the rest, as players show it.
                draining = true
                _ = av.avcodec_send_packet(decoder.context, nil)
                continue
            }
            defer { av.av_packet_unref(work.packet) }
            guard work.packet.pointee.stream_index == decoder.streamIndex else { continue }
            // Packets that never make a frame (empty ones, parameter sets alone) are bounded too.
            sent += 1
            guard sent <= packetLimit else { throw .limitExceeded(what: "packets read to reach one frame", value: sent, limit: packetLimit) }
            let result = av.avcodec_send_packet(decoder.context, work.packet)
            // A damaged packet is skipped, as players do; the frames around it still decode.
            if result < 0, result != PD_AVERROR_EAGAIN, result != PD_AVERROR_INVALIDDATA { throw .corrupt(message: VideoInput.text(result)) }
        }
    }
}
