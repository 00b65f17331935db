import ImageCodecs
import SQLiteSupport
import SystemSupport

/// What moves in a stored asset, as an index row keeps it (the album
/// store's `assets`, the folder library's `files`), and the rules its
/// numbers are read back by: a row is a claim like any file.
struct StoredMedia: Hashable {
    /// Photo, video, Live Photo or Motion Photo.
    var kind: AssetMediaKind = .photo
    /// The Live Photo identifier a still's maker note or a video's metadata carries.
    var live: LivePhotoIdentifier?
    /// A video's (or a Live Photo's motion's) length, in milliseconds.
    var durationMilliseconds: Int?
    /// Where a Motion Photo's video lies in its file.
    var motionRange: Range<Int>?
    /// When a Motion Photo's still was taken, into its video, in microseconds.
    var stillMicroseconds: Int?

    /// A still photo with nothing that moves.
    static let photo = StoredMedia()

    /// What a probe found: a video, a Motion Photo, or a still (which
    /// keeps its Live Photo identifier, so a store can pair it later).
    init(_ probed: ProbedFile) {
        switch probed {
        case .notMedia: break
        case .video(_, let duration, let live):
            kind = .video
            self.live = live
            durationMilliseconds = duration.map { Self.whole($0, perSecond: 1_000) }
        case .photo(_, let live, let motion):
            self.live = live
            if let motion {
                kind = .motionPhoto
                motionRange = motion.videoRange
                stillMicroseconds = motion.stillTime.map { Self.whole($0, perSecond: 1_000_000) }
            }
        }
    }

    init() {}

    /// The length, when it is one a probe could have made.
    var duration: Duration? { durationMilliseconds.flatMap(Self.duration(milliseconds:)) }

    /// `milliseconds` as a duration when it is a plausible video length (0 to a day).
    static func duration(milliseconds: Int) -> Duration? {
        (0...86_400_000).contains(milliseconds) ? .milliseconds(milliseconds) : nil
    }

    /// `microseconds` as a duration when it is a plausible still time (0 to 10 minutes).
    static func stillTime(microseconds: Int) -> Duration? {
        (0...600_000_000).contains(microseconds) ? .microseconds(microseconds) : nil
    }

    /// A Motion Photo's video range when it lies inside a file of `fileSize` bytes.
    static func motionRange(start: Int?, length: Int?, fileSize: Int) -> Range<Int>? {
        guard let start, let length, start >= 0, length > 0, start <= fileSize - length else { return nil }
        return start..<start + length
    }

    /// `duration` in whole units of 1/`perSecond` s, rounded; a time the
    /// probes made (under a day for a video, ten minutes for a still's time).
    static func whole(_ duration: Duration, perSecond: Int) -> Int {
        let seconds = duration.inSeconds
        return Int((min(max(seconds, 0), 1e9) * Double(perSecond)).rounded())
    }
}
