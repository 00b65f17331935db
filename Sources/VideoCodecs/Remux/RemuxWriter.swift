import CFFmpeg
import CVideoShim
import ImageCore

/// FFmpeg's muxer writing one remux's output file, and the map from the
/// source's streams to its own. Used by one thread; freed by ``close()``.
final class RemuxWriter {
    let av: pd_ffmpeg
    let path: String
    let container: VideoRemuxer.Container
    private var output: UnsafeMutablePointer<AVFormatContext>?
    /// For each source stream, its index in the output, or -1 when it is left out.
    private var map: [Int32] = []
    /// For each source stream, what its packets lose of their SEI user data, when anything.
    private var userData: [StreamUserData?] = []
    private var headerWritten = false

    init(av: pd_ffmpeg, path: String, container: VideoRemuxer.Container) {
        self.av = av
        self.path = path
        self.container = container
    }

    /// Makes the output's streams (video and audio, their parameters,
    /// side data, disposition and the tags `policy` keeps), opens the file
    /// and writes the header.
    func prepare(from input: VideoInput, keeping policy: MetadataPolicy) throws(VideoError) -> VideoRemuxReport {
        var report = VideoRemuxReport()
        let status = av.avformat_alloc_output_context2(&output, nil, container.rawValue, path)
        guard status >= 0, let output else { throw .writeFailed(path: path, reason: VideoInput.text(status)) }
        // No "encoder: Lavf…" tag: nothing is written that the source and the policy do not say.
        output.pointee.flags |= AVFMT_FLAG_BITEXACT
        let source = input.format
        let sourceName = source.pointee.iformat?.pointee.name.flatMap { VideoInput.string($0, limit: 256) } ?? ""
        let sameFamily = sourceName.contains("mov") || sourceName.contains("mp4")
        for index in 0..<Int32(source.pointee.nb_streams) {
            guard let stream = source.pointee.streams[Int(index)], let parameters = stream.pointee.codecpar else {
                map.append(-1)
                userData.append(nil)
                continue
            }
            let type = parameters.pointee.codec_type
            let described = VideoRemuxReport.Stream(index: Int(index), type: Self.typeName(type), codec: input.codecName(parameters.pointee.codec_id))
            // Sound and pictures go; timed metadata (a location track), timecode, subtitles and attachments do not.
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO,
                stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            else {
                map.append(-1)
                userData.append(nil)
                report.removedStreams.append(described)
                continue
            }
            guard av.avformat_query_codec(output.pointee.oformat, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL) == 1 else {
                throw .cannotRemux("stream \(index) is \(described.codec), which the \(container.rawValue) container cannot carry")
            }
            guard let copy = av.avformat_new_stream(output, nil) else { throw .writeFailed(path: path, reason: "out of memory") }
            let copied = av.avcodec_parameters_copy(copy.pointee.codecpar, parameters)
            guard copied >= 0 else { throw .writeFailed(path: path, reason: VideoInput.text(copied)) }
            // A tag the source container gave (hvc1, say) is kept where the families match; else the muxer picks.
            if !sameFamily { copy.pointee.codecpar.pointee.codec_tag = 0 }
            copy.pointee.time_base = stream.pointee.time_base
            copy.pointee.avg_frame_rate = stream.pointee.avg_frame_rate
            copy.pointee.disposition = stream.pointee.disposition
            try copySideData(from: stream, to: copy)
            Self.copyTags(stream.pointee.metadata, into: &copy.pointee.metadata, keeping: policy, report: &report, av: av)
            map.append(Int32(copy.pointee.index))
            userData.append(StreamUserData(parameters.pointee, keeping: policy))
            report.keptStreams.append(described)
        }
        guard report.keptStreams.contains(where: { $0.type == "video" }) else { throw .noVideoStream }
        Self.copyTags(source.pointee.metadata, into: &output.pointee.metadata, keeping: policy, report: &report, av: av)

        var options: OpaquePointer?
        defer { av.av_dict_free(&options) }
        guard av.av_dict_set(&options, "protocol_whitelist", "file", 0) >= 0 else { throw .writeFailed(path: path, reason: "out of memory") }
        let opened = av.avio_open2(&output.pointee.pb, path, AVIO_FLAG_WRITE, nil, &options)
        guard opened >= 0 else { throw .writeFailed(path: path, reason: VideoInput.text(opened)) }
        var muxerOptions: OpaquePointer?
        defer { av.av_dict_free(&muxerOptions) }
        // The index first, so a player (or a service's transcoder) starts before the whole file is in;
        // Apple's keys written as Apple writes them when the policy keeps any.
        let flags = policy.keepsIdentifying || policy.keepsEverythingElse || policy.keepsCamera ? "+faststart+use_metadata_tags" : "+faststart"
        guard av.av_dict_set(&muxerOptions, "movflags", flags, 0) >= 0 else { throw .writeFailed(path: path, reason: "out of memory") }
        let header = av.avformat_write_header(output, &muxerOptions)
        guard header >= 0 else { throw .writeFailed(path: path, reason: VideoInput.text(header)) }
        headerWritten = true
        return report
    }

    /// Copies every packet of the kept streams, in the source's order,
    /// their times moved to the output's time bases, then writes the trailer.
    func copyPackets(
        from input: VideoInput, report: inout VideoRemuxReport, total: Int, progress: (@Sendable (Double) -> Void)?, cancellation: VideoCancellation
    ) throws(VideoError) {
        guard let output, let packet = av.av_packet_alloc() else { throw .writeFailed(path: path, reason: "out of memory") }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av.av_packet_free(&packetPointer) }
        let source = input.format
        var lastReported = -1
        while true {
            try cancellation.check()
            let read = av.av_read_frame(source, packet)
            if read == PD_AVERROR_EOF { break }
            guard read >= 0 else {
                if input.isOverBudget { throw .limitExceeded(what: "bytes read", value: input.bytesRead, limit: total * 2) }
                throw .corrupt(message: VideoInput.text(read))
            }
            let index = Int(packet.pointee.stream_index)
            guard index >= 0, index < map.count, map[index] >= 0, let from = source.pointee.streams[index],
                let to = output.pointee.streams[Int(map[index])]
            else {
                av.av_packet_unref(packet)
                continue
            }
            if let filter = userData[index] { try strip(filter, from: packet, stream: index, report: &report) }
            av.av_packet_rescale_ts(packet, from.pointee.time_base, to.pointee.time_base)
            packet.pointee.stream_index = map[index]
            packet.pointee.pos = -1
            let written = av.av_interleaved_write_frame(output, packet)
            guard written >= 0 else { throw .corrupt(message: "a packet of stream \(index) could not be written: \(VideoInput.text(written))") }
            report.packets += 1
            if let progress, total > 0 {
                let percent = min(100, Int(Double(input.bytesRead) / Double(total) * 100))
                if percent > lastReported {
                    lastReported = percent
                    progress(Double(percent) / 100)
                }
            }
        }
        let trailer = av.av_write_trailer(output)
        guard trailer >= 0 else { throw .writeFailed(path: path, reason: VideoInput.text(trailer)) }
        headerWritten = false
        progress?(1)
    }

    /// Removes what `filter` names from the packet's SEI, in place.
    private func strip(_ filter: StreamUserData, from packet: UnsafeMutablePointer<AVPacket>, stream: Int, report: inout VideoRemuxReport)
        throws(VideoError)
    {
        guard packet.pointee.size > 0, packet.pointee.data != nil, av.av_packet_make_writable(packet) >= 0, let data = packet.pointee.data else {
            return
        }
        var removed: Int32 = 0
        var camcorder: Int32 = 0
        let size = pd_sei_strip(data, Int(packet.pointee.size), filter.codec, filter.lengthSize, filter.removal, &removed, &camcorder)
        guard size >= 0 else {
            // Unreadable, so unchecked: the caller encodes the pictures again instead (ContentAdapter does).
            throw .cannotRemux("a packet of stream \(stream) cannot be read to remove the data hidden in its video stream (SEI user data)")
        }
        guard removed > 0 else { return }
        if size < Int(packet.pointee.size) { av.av_shrink_packet(packet, Int32(size)) }
        report.removedStreamUserData += Int(removed)
        if camcorder > 0 { report.noteRemoved("MDPM (a camcorder's position, time and camera in the video stream)", kind: .location) }
        if removed > camcorder { report.noteRemoved("SEI user data (vendor data in the video stream)", kind: .other) }
    }

    /// Closes the file and frees the muxer. Safe to call twice.
    func close() {
        guard let output else { return }
        if output.pointee.pb != nil { _ = av.avio_closep(&output.pointee.pb) }
        av.avformat_free_context(output)
        self.output = nil
    }

    deinit { close() }

    /// Copies a stream's side data: the display matrix (rotation), HDR
    /// mastering and light levels, and the rest as the source has them.
    private func copySideData(from stream: UnsafeMutablePointer<AVStream>, to copy: UnsafeMutablePointer<AVStream>) throws(VideoError) {
        guard let entries = stream.pointee.side_data else { return }
        for index in 0..<Int(max(0, stream.pointee.nb_side_data)) {
            let entry = entries[index]
            guard entry.size > 0, entry.size <= 1 << 20, let data = entry.data else { continue }
            guard let target = av.av_stream_new_side_data(copy, entry.type, entry.size) else { throw .writeFailed(path: path, reason: "out of memory") }
            target.update(from: data, count: entry.size)
        }
    }

    /// Copies the tags of `dictionary` that `policy` keeps (and those
    /// playback needs) into `target`, noting the rest in `report`: the one
    /// filter of a remux's and a transcode's tags. Under a policy that drops
    /// location, a kept tag whose value holds a position
    /// (``ImageCore/GeoLocation/appears(in:)``) goes too.
    static func copyTags(
        _ dictionary: OpaquePointer?, into target: inout OpaquePointer?, keeping policy: MetadataPolicy, report: inout VideoRemuxReport, av: pd_ffmpeg
    ) {
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        var seen = 0
        while seen < 1_024, let next = av.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            seen += 1
            guard let keyPointer = next.pointee.key, let valuePointer = next.pointee.value,
                let key = VideoInput.string(keyPointer, limit: 256)
            else { continue }
            let lowered = key.lowercased()
            if VideoMetadataTag.containerOwn.contains(lowered) { continue }
            if VideoMetadataTag.structural.contains(lowered) || policy.keeps(VideoMetadataTag.kind(of: key)) {
                // Kept by its name, yet its value is a claim too: one that may hold a place goes (a value too long to read whole may).
                if !policy.keepsLocation, VideoInput.string(valuePointer, limit: GeoLocation.maxScannedLength).map(GeoLocation.appears(in:)) ?? true {
                    report.noteRemoved(key, kind: .location)
                    continue
                }
                _ = av.av_dict_set(&target, keyPointer, valuePointer, 0)
            } else {
                report.noteRemoved(key)
            }
        }
    }

    static func typeName(_ type: AVMediaType) -> String {
        switch type {
        case AVMEDIA_TYPE_VIDEO: "video"
        case AVMEDIA_TYPE_AUDIO: "audio"
        case AVMEDIA_TYPE_SUBTITLE: "subtitle"
        case AVMEDIA_TYPE_ATTACHMENT: "attachment"
        default: "data"
        }
    }
}

/// What one H.264 or HEVC stream's packets lose of their SEI user data
/// (`pd_sei_strip`): every unregistered message when the policy keeps
/// nothing it does not know, else only AVCHD's MDPM when it keeps no
/// location; nothing otherwise, and nothing for other codecs.
struct StreamUserData {
    let codec: Int32
    /// 0 for Annex B start codes (MPEG-TS), else the NAL length's size from `avcC`/`hvcC`.
    let lengthSize: Int32
    let removal: Int32

    init?(_ parameters: AVCodecParameters, keeping policy: MetadataPolicy) {
        switch parameters.codec_id {
        case AV_CODEC_ID_H264: codec = Int32(PD_SEI_H264.rawValue)
        case AV_CODEC_ID_HEVC: codec = Int32(PD_SEI_HEVC.rawValue)
        default: return nil
        }
        if !policy.keepsEverythingElse {
            removal = Int32(PD_SEI_REMOVE_ALL_UNREGISTERED.rawValue)
        } else if !policy.keepsLocation {
            removal = Int32(PD_SEI_REMOVE_MDPM.rawValue)
        } else {
            return nil
        }
        // avcC and hvcC start with version 1; their lengthSizeMinusOne is in byte 4 and byte 21.
        let extra = Int(parameters.extradata_size)
        let offset = codec == Int32(PD_SEI_H264.rawValue) ? 4 : 21
        if let bytes = parameters.extradata, extra > offset, bytes[0] == 1 {
            lengthSize = Int32(bytes[offset] & 3) + 1
        } else {
            lengthSize = 0
        }
    }
}
