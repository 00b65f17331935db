import CFFmpeg
import CVideoShim
import ImageCore

extension VideoInput {
    /// The index of the stream PhotoDeck shows: FFmpeg's best video stream
    /// (cover art attached as a picture does not count).
    func videoStreamIndex() throws(VideoError) -> Int32 {
        let index = av.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = stream(index), stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else {
            throw .noVideoStream
        }
        return index
    }

    /// The sound stream that goes with the video (FFmpeg's best), if any.
    func audioStreamIndex() -> Int32? {
        let video = (try? videoStreamIndex()) ?? -1
        let index = av.av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, video, nil, 0)
        return index >= 0 && stream(index) != nil ? index : nil
    }

    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, UInt32(index) < format.pointee.nb_streams, let streams = format.pointee.streams else { return nil }
        return streams[Int(index)]
    }

    /// What the header says, every number range-checked against ``limits``.
    func info() throws(VideoError) -> VideoInfo {
        let count = Int(format.pointee.nb_streams)
        guard count <= limits.maxStreams else { throw .limitExceeded(what: "stream count", value: count, limit: limits.maxStreams) }
        let index = try videoStreamIndex()
        guard let stream = stream(index), let parameters = stream.pointee.codecpar else { throw .noVideoStream }
        let video = try videoInfo(stream, parameters.pointee)
        let duration = self.duration(of: stream)
        if let duration, duration > .seconds(limits.maxDurationSeconds) {
            throw .limitExceeded(what: "duration in seconds", value: Int(duration.components.seconds), limit: limits.maxDurationSeconds)
        }
        let audio = audioStreamIndex().flatMap { self.stream($0) }.flatMap { stream -> AudioStreamInfo? in
            guard let parameters = stream.pointee.codecpar?.pointee else { return nil }
            let rate = Int(parameters.sample_rate)
            let channels = Int(parameters.ch_layout.nb_channels)
            guard (1...768_000).contains(rate), (1...64).contains(channels) else { return nil }
            return AudioStreamInfo(codec: codecName(parameters.codec_id), sampleRate: rate, channels: channels)
        }
        let tags = metadata(format.pointee.metadata)
        let streamTags = metadata(stream.pointee.metadata)
        let date =
            (tags["com.apple.quicktime.creationdate"] ?? streamTags["com.apple.quicktime.creationdate"]).flatMap(CaptureDate.init(iso8601:))
            ?? (tags["creation_time"] ?? streamTags["creation_time"]).flatMap(CaptureDate.init(iso8601:))
        let location = (tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"]).flatMap(GeoLocation.init(iso6709:))
        let identifier = tags["com.apple.quicktime.content.identifier"].flatMap(LivePhotoIdentifier.init)
        return VideoInfo(
            container: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown", duration: duration,
            video: video, audio: audio, creationDate: date, location: location, contentIdentifier: identifier, streamCount: count)
    }

    private func videoInfo(_ stream: UnsafeMutablePointer<AVStream>, _ parameters: AVCodecParameters) throws(VideoError) -> VideoStreamInfo {
        let width = Int(parameters.width)
        let height = Int(parameters.height)
        guard width > 0, height > 0 else { throw .corrupt(message: "the video stream declares an empty frame (\(width)x\(height))") }
        guard width <= limits.maxDimension, height <= limits.maxDimension else {
            throw .limitExceeded(what: "frame side in pixels", value: max(width, height), limit: limits.maxDimension)
        }
        guard width * height <= limits.maxPixelCount else {
            throw .limitExceeded(what: "frame size in pixels", value: width * height, limit: limits.maxPixelCount)
        }
        let orientation = self.orientation(of: stream)
        // The sample aspect ratio stretches the width; a ratio past 16:1 either way is a lie, and ignored.
        var shownWidth = width
        let aspect = parameters.sample_aspect_ratio
        if aspect.num > 0, aspect.den > 0, aspect.num != aspect.den, aspect.num <= aspect.den * 16, aspect.den <= aspect.num * 16 {
            shownWidth = max(1, Int((Double(width) * Double(aspect.num) / Double(aspect.den)).rounded()))
        }
        let shown = orientation.rotation % 180 == 0 ? PixelSize(width: shownWidth, height: height) : PixelSize(width: height, height: shownWidth)
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let frameRate = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil
        let transfer: VideoTransfer =
            switch parameters.color_trc {
            case AVCOL_TRC_SMPTE2084: .pq
            case AVCOL_TRC_ARIB_STD_B67: .hlg
            default: .sdr
            }
        let descriptor = av.av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format))
        let depth = descriptor.map { Int($0.pointee.comp.0.depth) } ?? 8
        return VideoStreamInfo(
            codec: codecName(parameters.codec_id), codedSize: PixelSize(width: width, height: height), displaySize: shown,
            rotation: orientation.rotation, isMirrored: orientation.isMirrored,
            frameRate: frameRate.flatMap { $0.isFinite && $0 > 0 && $0 <= 1_000 ? $0 : nil },
            transfer: transfer, bitDepth: (1...16).contains(depth) ? depth : 8, bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil)
    }

    /// The clockwise turn and mirroring the stream's display matrix asks for.
    func orientation(of stream: UnsafeMutablePointer<AVStream>) -> (rotation: Int, isMirrored: Bool) {
        var size: Int = 0
        guard let data = av.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * MemoryLayout<Int32>.size else {
            return (0, false)
        }
        var matrix: [Int32] = data.withMemoryRebound(to: Int32.self, capacity: 9) { pointer in (0..<9).map { pointer[$0] } }
        // A mirrored matrix has a negative determinant; its turn is that of the matrix with the first
        // column negated (a horizontal flip applied first), as ffmpeg's autorotate reads it.
        let mirrored = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3]) < 0
        if mirrored {
            matrix[0] = -matrix[0]
            matrix[3] = -matrix[3]
            matrix[6] = -matrix[6]
        }
        let angle = matrix.withUnsafeMutableBufferPointer { av.av_display_rotation_get($0.baseAddress!) }
        guard angle.isFinite else { return (0, mirrored) }
        // av_display_rotation_get turns counter-clockwise; rounded to the nearest quarter.
        let quarters = Int((-angle / 90).rounded()) % 4
        return ((quarters + 4) % 4 * 90, mirrored)
    }

    /// The tone map for an HDR stream (PQ or HLG with primaries the map
    /// converts), with the content light level (MaxCLL) the stream states;
    /// `nil` for SDR.
    func toneMap(for index: Int32) -> HDRToneMap? {
        guard let stream = stream(index), let parameters = stream.pointee.codecpar?.pointee else { return nil }
        let transfer = Int(parameters.color_trc.rawValue)
        let primaries = Int(parameters.color_primaries.rawValue)
        guard HDRToneMap.supports(transfer: transfer, primaries: primaries) else { return nil }
        var size: Int = 0
        var peak: Double?
        if let data = av.av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size), size >= MemoryLayout<AVContentLightMetadata>.size {
            let level = UnsafeRawPointer(data).loadUnaligned(as: AVContentLightMetadata.self)
            peak = level.MaxCLL > 0 ? Double(level.MaxCLL) : nil
        }
        return HDRToneMap(transfer: transfer, primaries: primaries, bits: 16, peak: peak)
    }

    /// The stream's duration, else the container's, when either is stated and sane.
    func duration(of stream: UnsafeMutablePointer<AVStream>) -> Duration? {
        if stream.pointee.duration > 0, let duration = StreamTime.duration(ticks: stream.pointee.duration, base: stream.pointee.time_base) {
            return duration
        }
        // The container's, in AV_TIME_BASE (microseconds).
        guard format.pointee.duration > 0 else { return nil }
        return StreamTime.duration(ticks: format.pointee.duration, base: AVRational(num: 1, den: 1_000_000))
    }

    /// A metadata dictionary's entries (keys and values each at most 4 KiB; at most 256 entries).
    func metadata(_ dictionary: OpaquePointer?) -> [String: String] {
        var entries: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while entries.count < 256, let next = av.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key.flatMap({ Self.string($0, limit: 4_096) }),
                let value = next.pointee.value.flatMap({ Self.string($0, limit: 4_096) })
            else { continue }
            entries[key] = value
        }
        return entries
    }

    /// The C string at `pointer`, or `nil` when it runs past `limit` bytes.
    static func string(_ pointer: UnsafePointer<CChar>, limit: Int) -> String? {
        var count = 0
        while pointer[count] != 0 {
            count += 1
            if count > limit { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func codecName(_ id: AVCodecID) -> String {
        av.avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
    }
}
