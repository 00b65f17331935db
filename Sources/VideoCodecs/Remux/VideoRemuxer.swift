import CFFmpeg
import CVideoShim
public import ImageCore
import SystemSupport

/// Copies a video's streams into a new MP4 or QuickTime file without
/// decoding them (a remux): the coded pictures and the sound are the same
/// bytes, and the metadata is only what a ``ImageCore/MetadataPolicy``
/// keeps. Location (`©xyz`, `com.apple.quicktime.location.ISO6709`),
/// identifying tags and timed-metadata tracks go by default; the display
/// matrix, HDR side data and language stay, so the copy plays as the
/// original did.
///
/// A place can hide in two more places, which are checked too. Inside an
/// H.264 or HEVC stream, as SEI `user_data_unregistered` messages: AVCHD
/// camcorders (Sony, Panasonic) write their position, time and camera
/// there (MDPM). Under a policy that keeps no location those go, and under
/// one that keeps nothing it does not know (the default) every such
/// message goes (an encoder's settings among them); the rest of each SEI
/// unit, and every picture, is left as it was. A packet whose SEI cannot be
/// read is ``VideoError/cannotRemux(_:)``: encode it again instead
/// (``VideoTranscoder`` writes no such messages). And in the values of
/// tags kept by their names (a track's `handler_name`, the camera's
/// `make`): one that holds a position (``ImageCore/GeoLocation/appears(in:)``)
/// goes when the policy keeps no location.
///
/// ```swift
/// let report = try await VideoRemuxer.remux(fileAt: "IMG_0001.MOV", to: "/tmp/share.mp4")
/// print(report.removedTags, report.removedStreams)   // ["com.apple.quicktime.location.ISO6709", ...]
/// ```
///
/// The output is written under a temporary name beside `output`, flushed,
/// and renamed over it: a crash leaves the old file or the new one.
public enum VideoRemuxer {
    /// The container a remux writes.
    public enum Container: String, Sendable, Hashable {
        /// MP4 (ISO base media): what every service accepts.
        case mp4
        /// QuickTime (`.mov`): what a Live Photo's motion is.
        case quickTime = "mov"

        /// The file extension a file of this container has, without the dot: `mp4`, `mov`.
        public var fileExtension: String { rawValue }
    }

    /// Remuxes the video at `path` (or `range` of it: a Motion Photo's
    /// video) into `output`. Blocks while FFmpeg reads and writes: call it
    /// on a worker thread, or ``remux(fileAt:range:to:container:keeping:limits:progress:)`` from async code.
    ///
    /// - Throws: the probe's errors for the input (limits, damage),
    ///   ``VideoError/cannotRemux(_:)`` when a stream's codec cannot go into
    ///   `container`, ``VideoError/writeFailed(path:reason:)``.
    ///
    /// `isCancelled` is asked between packets; a `true` stops the remux with
    /// ``VideoError/cancelled``, `output` left as it was.
    @discardableResult
    public static func remux(
        fileAt path: String, range: Range<Int>? = nil, to output: String, container: Container = .mp4, keeping policy: MetadataPolicy = .default,
        limits: VideoLimits = .default, progress: (@Sendable (Double) -> Void)? = nil, isCancelled: (@Sendable () -> Bool)? = nil
    ) throws(VideoError) -> VideoRemuxReport {
        try remux(
            fileAt: path, range: range, to: output, container: container, keeping: policy, limits: limits, progress: progress,
            cancellation: VideoCancellation(polling: isCancelled))
    }

    /// ``remux(fileAt:range:to:container:keeping:limits:progress:)`` on
    /// PhotoDeck's video worker threads; cancelling the task stops it
    /// between packets, and the output is left as it was.
    @discardableResult
    public static func remux(
        fileAt path: String, range: Range<Int>? = nil, to output: String, container: Container = .mp4, keeping policy: MetadataPolicy = .default,
        limits: VideoLimits = .default, progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(VideoError) -> VideoRemuxReport {
        try await VideoWorkers.run { cancellation throws(VideoError) -> VideoRemuxReport in
            try remux(
                fileAt: path, range: range, to: output, container: container, keeping: policy, limits: limits, progress: progress,
                cancellation: cancellation)
        }
    }

    static func remux(
        fileAt path: String, range: Range<Int>?, to output: String, container: Container, keeping policy: MetadataPolicy, limits: VideoLimits,
        progress: (@Sendable (Double) -> Void)?, cancellation: VideoCancellation
    ) throws(VideoError) -> VideoRemuxReport {
        let input = try VideoInput(path: path, range: range, limits: limits)
        // The probe's checks (size, duration, streams) before a byte is written.
        _ = try input.info()
        let length = range?.count ?? input.fileSize
        // Every packet once, and the demuxer's seeks back (an interleaving it reads twice) within as much again.
        input.allowReading(length.multipliedReportingOverflow(by: 2).overflow ? Int.max : length * 2)
        let temporary: String
        do {
            temporary = try DurableFile.reserveTemporary(for: output)
        } catch {
            throw .writeFailed(path: output, reason: error.reason)
        }
        let writer = RemuxWriter(av: input.av, path: temporary, container: container)
        var committed = false
        defer {
            writer.close()
            if !committed { DurableFile.discardTemporary(temporary) }
        }
        var report = try writer.prepare(from: input, keeping: policy)
        try writer.copyPackets(from: input, report: &report, total: length, progress: progress, cancellation: cancellation)
        writer.close()
        do {
            try DurableFile.commitTemporary(temporary, to: output)
        } catch {
            throw .writeFailed(path: output, reason: error.reason)
        }
        committed = true
        report.outputBytes = (try? ReadOnlyFile(path: output).size) ?? 0
        return report
    }
}
