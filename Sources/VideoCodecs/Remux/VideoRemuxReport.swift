public import ImageCore

/// What a remux copied and what it left out: for a share's dry run, a
/// log, or a test that no location went out.
public struct VideoRemuxReport: Sendable, Hashable {
    /// One stream of the source.
    public struct Stream: Sendable, Hashable {
        /// Its index in the source.
        public let index: Int
        /// `video`, `audio`, `subtitle`, `data` or `attachment`.
        public let type: String
        /// Its codec's name (`h264`, `aac`, `mebx`...).
        public let codec: String
    }

    /// The streams copied, in the output's order.
    public var keptStreams: [Stream] = []
    /// The streams left out: timed metadata (Apple's `mebx` location
    /// track), timecode, subtitles, attachments.
    public var removedStreams: [Stream] = []
    /// The metadata tags removed (their names as FFmpeg reads them, each at
    /// most 64 characters, at most 100 listed), container and streams together.
    public var removedTags: [String] = []
    /// Each removed tag's kind, counted.
    public var removedKinds: [MetadataKind: Int] = [:]
    /// Vendor-private messages removed from inside the video stream (H.264
    /// and HEVC SEI `user_data_unregistered`): AVCHD camcorders' MDPM, which
    /// carries the position, the time and the camera, and any other when the
    /// policy keeps nothing it does not know. Counted per message.
    public var removedStreamUserData = 0
    /// Packets copied.
    public var packets = 0
    /// The output's size in bytes.
    public var outputBytes = 0

    /// Whether a tag of `kind` was removed.
    public func removed(_ kind: MetadataKind) -> Bool { (removedKinds[kind] ?? 0) > 0 }

    mutating func noteRemoved(_ key: String) { noteRemoved(key, kind: VideoMetadataTag.kind(of: key)) }

    mutating func noteRemoved(_ key: String, kind: MetadataKind) {
        removedKinds[kind, default: 0] += 1
        let name = String(key.prefix(64))
        if removedTags.count < 100, !removedTags.contains(name) { removedTags.append(name) }
    }
}
