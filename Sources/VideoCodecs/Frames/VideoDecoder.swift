import CFFmpeg
import CVideoShim

/// FFmpeg's decoder for one stream of a ``VideoInput``; used by the thread
/// that uses the input.
final class VideoDecoder {
    /// The codecs PhotoDeck lets FFmpeg decode: what cameras, phones and
    /// the web write. Everything else is refused before a decoder opens.
    static let videoCodecs = "h264,hevc,vp8,vp9,av1,libdav1d,mpeg4,mjpeg,prores,mpeg2video"
    /// The sound decoders, by the same rule (FFmpeg's decoder names).
    static let audioCodecs =
        "aac,aac_fixed,mp3float,mp3,opus,libopus,vorbis,flac,alac,ac3,eac3,amrnb,amrwb,"
        + "pcm_s16le,pcm_s16be,pcm_s24le,pcm_s24be,pcm_s32le,pcm_f32le,pcm_u8,pcm_mulaw,pcm_alaw,adpcm_ima_qt"

    let av: pd_ffmpeg
    let context: UnsafeMutablePointer<AVCodecContext>
    let streamIndex: Int32
    let timeBase: AVRational

    /// A decoder for stream `index`, limited to `codecs` (``videoCodecs`` or ``audioCodecs``).
    init(_ input: VideoInput, stream index: Int32, threads: Int, forOneFrame: Bool = false, codecs: String = videoCodecs) throws(VideoError) {
        let av = input.av
        guard let stream = input.stream(index), let parameters = stream.pointee.codecpar else { throw .noVideoStream }
        guard let codec = av.avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .unsupportedCodec(input.codecName(parameters.pointee.codec_id))
        }
        guard let context = av.avcodec_alloc_context3(codec) else { throw .corrupt(message: "FFmpeg could not allocate a decoder") }
        var result = av.avcodec_parameters_to_context(context, parameters)
        if result >= 0 {
            context.pointee.thread_count = Int32(clamping: max(1, threads))
            // Frame threads overlap successive frames (playback); for one frame they only add start-up
            // and a pipeline to fill: slice threads only (15 ms less a poster of a 1080p H.264 or HEVC).
            if forOneFrame { context.pointee.thread_type = FF_THREAD_SLICE }
            context.pointee.pkt_timebase = stream.pointee.time_base
            var options: OpaquePointer? = nil
            // Without the whitelist no decoder opens: a failed set (out of memory) is a failed open.
            result = av.av_dict_set(&options, "codec_whitelist", codecs, 0)
            if result >= 0 { result = av.avcodec_open2(context, codec, &options) }
            av.av_dict_free(&options)
        }
        guard result >= 0 else {
            var context: UnsafeMutablePointer<AVCodecContext>? = context
            av.avcodec_free_context(&context)
            throw result == PD_AVERROR_INVALIDDATA || result == PD_AVERROR_EINVAL
                ? .unsupportedCodec(input.codecName(parameters.pointee.codec_id)) : .corrupt(message: VideoInput.text(result))
        }
        self.av = av
        self.context = context
        streamIndex = index
        timeBase = stream.pointee.time_base
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        av.avcodec_free_context(&context)
    }

    /// Forgets buffered frames (after a seek).
    func flush() { av.avcodec_flush_buffers(context) }
}

/// One `AVPacket` and one `AVFrame`, freed together.
final class PacketAndFrame {
    private let av: pd_ffmpeg
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>

    init(_ av: pd_ffmpeg) throws(VideoError) {
        guard let packet = av.av_packet_alloc() else { throw .corrupt(message: "FFmpeg could not allocate a packet") }
        guard let frame = av.av_frame_alloc() else {
            var packet: UnsafeMutablePointer<AVPacket>? = packet
            av.av_packet_free(&packet)
            throw .corrupt(message: "FFmpeg could not allocate a frame")
        }
        self.av = av
        self.packet = packet
        self.frame = frame
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av.av_packet_free(&packet)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av.av_frame_free(&frame)
    }
}
