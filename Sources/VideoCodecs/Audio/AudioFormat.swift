/// The shape sound is decoded to for an output: interleaved signed 16-bit
/// samples at a rate, with a number of channels (what SDL's `AUDIO_S16SYS`
/// takes).
///
/// ```swift
/// let format = AudioFormat(sampleRate: 48_000, channels: 2)
/// ```
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    /// Samples per second per channel (8,000...192,000 once checked by a reader).
    public var sampleRate: Int
    /// Channels, interleaved (1...8 once checked by a reader; 2 is left, right).
    public var channels: Int

    /// Creates a format; ``VideoAudioReader`` refuses one out of range.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// 48 kHz stereo, what most outputs run at.
    public static let stereo48k = AudioFormat(sampleRate: 48_000, channels: 2)

    /// The rates and channel counts a reader converts to.
    static let acceptedRates = 8_000...192_000
    static let acceptedChannels = 1...8

    /// Whether a reader converts to this format.
    var isAccepted: Bool { Self.acceptedRates.contains(sampleRate) && Self.acceptedChannels.contains(channels) }

    /// How long `frames` sample frames (one sample per channel) last, to the microsecond.
    public func duration(ofFrames frames: Int) -> Duration {
        guard sampleRate > 0, frames > 0 else { return .zero }
        let seconds = frames / sampleRate
        let rest = frames % sampleRate
        return .seconds(seconds) + .microseconds(rest * 1_000_000 / sampleRate)
    }

    /// How many sample frames play in `time` (rounded down; none for a negative time).
    public func frames(in time: Duration) -> Int {
        guard time > .zero else { return 0 }
        let (seconds, attoseconds) = time.components
        guard seconds < Int64(Int.max / max(1, sampleRate)) else { return Int.max }
        return Int(seconds) * sampleRate + Int(Double(attoseconds) / 1e18 * Double(sampleRate))
    }

    public var description: String { "\(sampleRate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
}
