import CFFmpeg
import CVideoShim
public import ImageCore
import SystemSupport

/// Encodes a video again as H.264 (libx264) and AAC in MP4, scaled to fit
/// a size and aimed at a bit rate: what a share does when a destination's
/// limits (codecs, size, bytes) cannot be met by a remux. The metadata is
/// filtered by the same ``ImageCore/MetadataPolicy`` as
/// ``VideoRemuxer``'s; the display matrix and HDR description are copied.
///
/// ```swift
/// let settings = VideoTranscoder.Settings(maxDimension: 1280, videoBitRate: 2_000_000)
/// let report = try await VideoTranscoder.transcode(fileAt: "clip.mov", to: "/tmp/share.mp4", settings: settings) { print($0) }
/// ```
public enum VideoTranscoder {
    /// What the output is.
    public struct Settings: Sendable, Hashable {
        /// The longest side of the pictures as stored, at most; `nil` keeps the size.
        public var maxDimension: Int?
        /// The average video bit rate aimed at, in bits a second.
        public var videoBitRate: Int
        /// The sound's bit rate; 0 leaves the sound out.
        public var audioBitRate: Int
        /// x264's speed preset (`ultrafast` ... `veryslow`).
        public var preset: String
        /// The encoder's and decoder's threads; 0 (the default) lets them
        /// choose for the machine, as the `ffmpeg` command line does.
        public var threads: Int

        /// Creates settings.
        public init(maxDimension: Int? = nil, videoBitRate: Int, audioBitRate: Int = 128_000, preset: String = "veryfast", threads: Int = 0) {
            self.maxDimension = maxDimension
            self.videoBitRate = videoBitRate
            self.audioBitRate = audioBitRate
            self.preset = preset
            self.threads = threads
        }
    }

    /// The presets x264 has: a preset is passed to it by name, so only these are.
    static let presets: Set<String> = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    /// Transcodes the video at `path` (or `range` of it) into `output`,
    /// blocking the calling thread (a worker's, never Swift's cooperative
    /// pool): `isCancelled` is asked between packets, and a `true` stops
    /// it with ``VideoError/cancelled``, `output` left as it was.
    @discardableResult
    public static func transcode(
        fileAt path: String, range: Range<Int>? = nil, to output: String, settings: Settings, keeping policy: MetadataPolicy = .default,
        limits: VideoLimits = .default, progress: (@Sendable (Double) -> Void)? = nil, isCancelled: (@Sendable () -> Bool)?
    ) throws(VideoError) -> VideoRemuxReport {
        try transcode(
            fileAt: path, range: range, to: output, settings: settings, keeping: policy, limits: limits, progress: progress,
            cancellation: VideoCancellation(polling: isCancelled))
    }

    /// Transcodes on PhotoDeck's video worker threads; `progress` is told
    /// how far the output is (0...1); cancelling the task stops it and
    /// leaves `output` as it was.
    @discardableResult
    public static func transcode(
        fileAt path: String, range: Range<Int>? = nil, to output: String, settings: Settings, keeping policy: MetadataPolicy = .default,
        limits: VideoLimits = .default, progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(VideoError) -> VideoRemuxReport {
        try await VideoWorkers.run { cancellation throws(VideoError) -> VideoRemuxReport in
            try transcode(
                fileAt: path, range: range, to: output, settings: settings, keeping: policy, limits: limits, progress: progress,
                cancellation: cancellation)
        }
    }

    /// The output size for a video of `size` (as stored) under `maxDimension`: never enlarged, both sides even.
    static func outputSize(_ size: PixelSize, maxDimension: Int?) -> PixelSize {
        var width = Double(max(2, size.width))
        var height = Double(max(2, size.height))
        if let maxDimension, max(width, height) > Double(maxDimension) {
            let scale = Double(max(2, maxDimension)) / max(width, height)
            width *= scale
            height *= scale
        }
        return PixelSize(width: max(2, Int(width.rounded()) / 2 * 2), height: max(2, Int(height.rounded()) / 2 * 2))
    }

    static func transcode(
        fileAt path: String, range: Range<Int>?, to output: String, settings: Settings, keeping policy: MetadataPolicy, limits: VideoLimits,
        progress: (@Sendable (Double) -> Void)?, cancellation: VideoCancellation
    ) throws(VideoError) -> VideoRemuxReport {
        guard presets.contains(settings.preset) else { throw .invalidArgument("x264 has no preset \"\(settings.preset)\"") }
        guard (10_000...500_000_000).contains(settings.videoBitRate), (0...1_000_000).contains(settings.audioBitRate),
            (0...64).contains(settings.threads), settings.maxDimension.map({ (16...16_384).contains($0) }) ?? true
        else { throw .invalidArgument("bit rates, threads or size out of range: \(settings)") }
        let input = try VideoInput(path: path, range: range, limits: limits)
        let info = try input.info()
        let length = range?.count ?? input.fileSize
        input.allowReading(length.multipliedReportingOverflow(by: 2).overflow ? Int.max : length * 2)
        let size = outputSize(info.video.codedSize, maxDimension: settings.maxDimension)

        var report = VideoRemuxReport()
        var containerTags: OpaquePointer?
        var videoTags: OpaquePointer?
        var audioTags: OpaquePointer?
        let av = input.av
        defer {
            av.av_dict_free(&containerTags)
            av.av_dict_free(&videoTags)
            av.av_dict_free(&audioTags)
        }
        RemuxWriter.copyTags(input.format.pointee.metadata, into: &containerTags, keeping: policy, report: &report, av: av)
        for index in 0..<Int(input.format.pointee.nb_streams) {
            guard let stream = input.format.pointee.streams[index], let parameters = stream.pointee.codecpar else { continue }
            let described = VideoRemuxReport.Stream(
                index: index, type: RemuxWriter.typeName(parameters.pointee.codec_type), codec: input.codecName(parameters.pointee.codec_id))
            if described.type == "video" && report.keptStreams.allSatisfy({ $0.type != "video" }) {
                RemuxWriter.copyTags(stream.pointee.metadata, into: &videoTags, keeping: policy, report: &report, av: av)
                report.keptStreams.append(VideoRemuxReport.Stream(index: index, type: "video", codec: "h264"))
            } else if described.type == "audio" && settings.audioBitRate > 0 && report.keptStreams.allSatisfy({ $0.type != "audio" }) {
                RemuxWriter.copyTags(stream.pointee.metadata, into: &audioTags, keeping: policy, report: &report, av: av)
                report.keptStreams.append(VideoRemuxReport.Stream(index: index, type: "audio", codec: "aac"))
            } else {
                report.removedStreams.append(described)
            }
        }

        let temporary: String
        do {
            temporary = try DurableFile.reserveTemporary(for: output)
        } catch {
            throw .writeFailed(path: output, reason: error.reason)
        }
        var committed = false
        defer { if !committed { DurableFile.discardTemporary(temporary) } }
        let box = ProgressBox(progress: progress, cancellation: cancellation)
        let result = settings.preset.withCString { preset in
            var options = pd_transcode_options(
                width: Int32(size.width), height: Int32(size.height), video_bit_rate: Int64(settings.videoBitRate),
                audio_bit_rate: Int64(settings.audioBitRate), threads: Int32(settings.threads), preset: preset,
                container_metadata: containerTags, video_metadata: videoTags, audio_metadata: audioTags)
            return withExtendedLifetime(box) {
                pd_transcode(
                    input.source, temporary, &options,
                    { context, fraction in
                        guard let context else { return 0 }
                        return Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue().report(fraction)
                    }, Unmanaged.passUnretained(box).toOpaque())
            }
        }
        guard result >= 0 else {
            if box.stopped || cancellation.isCancelled { throw .cancelled }
            if input.isOverBudget { throw .limitExceeded(what: "bytes read", value: input.bytesRead, limit: length * 2) }
            if result == PD_AVERROR_ENCODER_NOT_FOUND { throw .unsupportedCodec("H.264 encoding (libx264 is not in this FFmpeg)") }
            throw .corrupt(message: VideoInput.text(result))
        }
        do {
            try DurableFile.commitTemporary(temporary, to: output)
        } catch {
            throw .writeFailed(path: output, reason: error.reason)
        }
        committed = true
        progress?(1)
        report.outputBytes = (try? ReadOnlyFile(path: output).size) ?? 0
        return report
    }
}

/// The progress closure and the cancellation flag, for the C callback.
private final class ProgressBox {
    let progress: (@Sendable (Double) -> Void)?
    let cancellation: VideoCancellation
    private(set) var stopped = false
    private var lastPercent = -1

    init(progress: (@Sendable (Double) -> Void)?, cancellation: VideoCancellation) {
        self.progress = progress
        self.cancellation = cancellation
    }

    /// Reports whole percents; a nonzero answer stops the transcode.
    func report(_ fraction: Double) -> Int32 {
        if cancellation.isCancelled {
            stopped = true
            return 1
        }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        if percent > lastPercent {
            lastPercent = percent
            progress?(Double(percent) / 100)
        }
        return 0
    }
}
