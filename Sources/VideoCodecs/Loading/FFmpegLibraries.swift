import CVideoShim

/// FFmpeg's libraries, loaded by the first video opened rather than when
/// the process starts (see `pd_ffmpeg.h`): a program linking VideoCodecs
/// that never opens a video maps none of them, and one on a machine
/// without them starts, its videos failing with
/// ``VideoError/librariesUnavailable(_:)``.
enum FFmpegLibraries {
    /// FFmpeg's functions, loading the libraries the first time (a blocking
    /// call: the first caller is on an execution-floor thread or is itself
    /// synchronous); later calls return the same table at once.
    static func load() throws(VideoError) -> pd_ffmpeg {
        var message = [CChar](repeating: 0, count: 512)
        guard let table = pd_ffmpeg_load(&message, message.count) else {
            throw .librariesUnavailable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return table.pointee
    }
}
