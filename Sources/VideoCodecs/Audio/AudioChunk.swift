/// A run of a video's sound, decoded: interleaved signed 16-bit samples in
/// a ``AudioFormat``, and when the first of them plays on the video's clock
/// (the time its frames carry, ``VideoFrame/time``).
public struct AudioChunk: Sendable, Hashable {
    /// The samples, interleaved (left, right, left, ... in stereo).
    public let samples: [Int16]
    /// When the first sample plays, from the start of the video.
    public let time: Duration
    /// The samples' shape.
    public let format: AudioFormat

    /// A chunk (``VideoAudioReader`` makes these; tests and doubles too).
    public init(samples: [Int16], time: Duration, format: AudioFormat) {
        self.samples = samples
        self.time = time
        self.format = format
    }

    /// Sample frames: one sample for each channel.
    public var frameCount: Int { format.channels > 0 ? samples.count / format.channels : 0 }

    /// How long the chunk plays.
    public var duration: Duration { format.duration(ofFrames: frameCount) }
}
