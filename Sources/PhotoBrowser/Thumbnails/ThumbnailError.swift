public import ImageCodecs
public import VideoCodecs

/// Why there is no thumbnail for a file.
public enum ThumbnailError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be read (missing, not a regular file, no permission).
    case unreadable(path: String, reason: String)
    /// The file's image cannot be decoded; the failure is recorded in the
    /// cache's `fail/` folder, so it is not tried again until the file changes.
    case undecodable(path: String, reason: ImageCodecError)
    /// An earlier attempt on this version of the file failed (a record in `fail/`).
    case failedBefore(path: String)
    /// The file is a video whose frame cannot be decoded; recorded in
    /// `fail/` like ``undecodable(path:reason:)``, unless the reason is
    /// FFmpeg's libraries missing (a fault of the machine, not the file).
    case videoUndecodable(path: String, reason: VideoError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)"
        case .undecodable(let path, let reason): "\(path) has no thumbnail: \(reason)"
        case .failedBefore(let path): "\(path) has no thumbnail (it failed before and has not changed since)"
        case .videoUndecodable(let path, let reason): "\(path) has no thumbnail: \(reason)"
        }
    }
}
