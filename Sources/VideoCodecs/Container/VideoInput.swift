import CFFmpeg
import CVideoShim
import SystemSupport

/// One open container: FFmpeg's demuxer reading a byte range of a file
/// through PhotoDeck's bounded reader (`pd_video_source`). Used by one
/// thread at a time (an execution-floor thread: every call blocks), and
/// closed when released.
final class VideoInput {
    /// The containers PhotoDeck opens: what phones and cameras write, and
    /// nothing else (no image demuxers, no playlists, no network).
    static let containers = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts"

    let limits: VideoLimits
    /// FFmpeg's functions; the decoder and scaler made from this input use them too.
    let av: pd_ffmpeg
    private let file: ReadOnlyFile
    /// Allocated here and freed in `deinit`: the C reader keeps a pointer to it.
    let source: UnsafeMutablePointer<pd_video_source>

    /// The demuxer; valid while this object lives.
    var format: UnsafeMutablePointer<AVFormatContext> { source.pointee.format }

    /// Opens `path` (the whole file, or `range` of it: a Motion Photo's
    /// video sits after its JPEG) and reads the container's header, at
    /// most ``VideoLimits/maxProbeBytes``.
    init(path: String, range: Range<Int>? = nil, limits: VideoLimits) throws(VideoError) {
        av = try FFmpegLibraries.load()
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile(path: path)
        } catch {
            throw .fileAccess(path: path, reason: "\(error)")
        }
        let range = range ?? 0..<file.size
        guard range.lowerBound >= 0, range.upperBound <= file.size, !range.isEmpty else {
            throw .invalidArgument("the range \(range) is not inside the file's \(file.size) bytes")
        }
        self.limits = limits
        self.file = file
        source = .allocate(capacity: 1)
        source.initialize(to: pd_video_source())
        source.pointee.descriptor = file.descriptor
        source.pointee.start = Int64(range.lowerBound)
        source.pointee.length = Int64(range.count)
        source.pointee.budget = Int64(max(0, limits.maxProbeBytes))
        let probe = Int64(min(max(limits.maxProbeBytes, 32), 16 << 20))
        // FFmpeg's own bound on streams stays its default (1,000; past it the open fails with ENOMEM);
        // ``VideoLimits/maxStreams`` is checked on the count after the open, so that it is reported as itself.
        let result = pd_video_open(source, Self.containers, probe, 5_000_000, 1_000)
        // Every stored property is set: a throw from here on runs deinit, which closes what is open and
        // frees `source` (pd_video_open has closed everything on its failure already).
        guard result >= 0 else {
            if isOverBudget { throw .limitExceeded(what: "header (bytes read)", value: bytesRead, limit: limits.maxProbeBytes) }
            throw Self.openError(result)
        }
        // Stream parameters some containers leave to the first packets (MPEG-TS, AVI).
        let found = av.avformat_find_stream_info(source.pointee.format, nil)
        if found < 0 {
            if isOverBudget { throw .limitExceeded(what: "header (bytes read)", value: bytesRead, limit: limits.maxProbeBytes) }
            throw .corrupt(message: Self.text(found))
        }
    }

    deinit {
        pd_video_close(source)
        source.deinitialize(count: 1)
        source.deallocate()
    }

    /// Allows `bytes` more to be read (a frame's packets after the header).
    func allowReading(_ bytes: Int) {
        let budget = source.pointee.consumed.addingReportingOverflow(Int64(max(0, bytes)))
        source.pointee.budget = budget.overflow ? .max : budget.partialValue
        source.pointee.over_budget = 0
    }

    /// Whether the last failure came from the read budget.
    var isOverBudget: Bool { source.pointee.over_budget != 0 }

    /// The size of the file opened (the whole file, not only the range).
    var fileSize: Int { file.size }

    /// Bytes read from the file so far.
    var bytesRead: Int { Int(source.pointee.consumed) }

    /// FFmpeg's message for `code`.
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        pd_video_error_text(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func openError(_ code: Int32) -> VideoError {
        // No container on the list recognises the data (INVALIDDATA), or FFmpeg recognised one that is
        // not on it (EINVAL, from format_whitelist).
        code == PD_AVERROR_INVALIDDATA || code == PD_AVERROR_EINVAL ? .unsupportedContainer(message: text(code)) : .corrupt(message: text(code))
    }
}
