import Synchronization
import VideoCodecs

/// The sound a playing video has queued for an output device, and the
/// clock it gives: the time, on the video's clock, of what is heard now.
/// The player queues decoded chunks a fraction of a second ahead; the
/// device's thread takes samples as it needs them (``pull(into:at:)``),
/// silence when none are queued or while muted (muted sound is taken all
/// the same, so the clock runs on).
///
/// The clock is ffplay's audio clock: the time of the samples last handed
/// to the device, plus the time since, less what the device still holds
/// before they are heard (``latency``).
final class SoundQueue: Sendable {
    private struct State {
        var chunks: [AudioChunk] = []
        /// Sample frames of the first chunk already taken.
        var taken = 0
        var queuedFrames = 0
        /// The latest pull that handed sound: the time of its first sample, how long it was, when.
        var lastPull: (time: Duration, length: Duration, at: ContinuousClock.Instant)?
        var muted = false
        /// Pulls that found nothing queued while sound was expected.
        var underruns = 0
        /// Whose sound is queued: chunks of another generation are refused.
        var generation = 0

        @discardableResult
        mutating func reset() -> Int {
            generation &+= 1
            chunks.removeAll()
            taken = 0
            queuedFrames = 0
            lastPull = nil
            return generation
        }
    }

    /// The format the device takes.
    let format: AudioFormat
    /// How long sound handed to the device takes to be heard (its buffers).
    let latency: Duration
    private let state = Mutex(State())

    init(format: AudioFormat, latency: Duration, stall: Duration = SoundQueue.defaultStall) {
        self.format = format
        self.latency = latency
        self.stall = stall
    }

    /// Queues `chunk` after what is queued, if `generation` is still the
    /// queue's (a video stopped while its chunk was decoding cannot slip it
    /// into the next video's sound); `false` when it is not. A chunk in
    /// another format is left out.
    @discardableResult
    func enqueue(_ chunk: AudioChunk, generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            guard chunk.format == format, chunk.frameCount > 0 else { return true }
            state.chunks.append(chunk)
            state.queuedFrames += chunk.frameCount
            return true
        }
    }

    /// How long the queued sound plays.
    var queued: Duration { format.duration(ofFrames: state.withLock { $0.queuedFrames }) }

    /// Forgets what is queued and the clock (a pause, a seek, a stop) and
    /// starts a generation: only its chunks are queued from now on.
    /// Returns the new generation.
    @discardableResult
    func clear() -> Int {
        state.withLock { $0.reset() }
    }

    /// Clears the queue if `generation` is still its own (a video's loop
    /// ending); `false` when another has started since.
    func end(_ generation: Int) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            state.reset()
            return true
        }
    }

    /// Whether what is taken is heard.
    var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set { state.withLock { $0.muted = newValue } }
    }

    /// Pulls that found the queue empty (the decoder fell behind, or the sound ended).
    var underruns: Int { state.withLock { $0.underruns } }

    /// How long the device may go without taking sound before the clock
    /// is given up, by default (a stalled or suspended output: the pictures
    /// then go on by the wall clock rather than freeze with it).
    static let defaultStall: Duration = .milliseconds(250)
    /// This queue's stall bound (``defaultStall`` unless a test's device sets its own).
    let stall: Duration

    /// The time of what is heard at `now`, or `nil` when nothing queued is
    /// playing (before the first pull, after a clear, once the sound ran
    /// out, while the device has stalled for ``stall``).
    func position(at now: ContinuousClock.Instant) -> Duration? {
        guard let pull = state.withLock({ $0.lastPull }), now - pull.at <= max(stall, pull.length * 2) else { return nil }
        let since = max(.zero, min(now - pull.at, pull.length))
        return max(.zero, pull.time + since - latency)
    }

    /// The device's request: fills `buffer` (interleaved samples in
    /// ``format``) with queued sound, silence for what is missing or muted.
    /// Called on the device's thread at `now`.
    func pull(into buffer: UnsafeMutableBufferPointer<Int16>, at now: ContinuousClock.Instant) {
        let channels = format.channels
        let wanted = buffer.count / channels
        state.withLock { state in
            var filled = 0
            let start = state.chunks.first.map { $0.time + format.duration(ofFrames: state.taken) }
            while filled < wanted, let first = state.chunks.first {
                let count = min(wanted - filled, first.frameCount - state.taken)
                if state.muted {
                    UnsafeMutableBufferPointer(rebasing: buffer[(filled * channels)..<((filled + count) * channels)]).update(repeating: 0)
                } else {
                    first.samples.withUnsafeBufferPointer { samples in
                        let from = samples[(state.taken * channels)..<((state.taken + count) * channels)]
                        _ = UnsafeMutableBufferPointer(rebasing: buffer[(filled * channels)..<((filled + count) * channels)]).initialize(from: from)
                    }
                }
                filled += count
                state.taken += count
                state.queuedFrames -= count
                if state.taken == first.frameCount {
                    state.chunks.removeFirst()
                    state.taken = 0
                }
            }
            if filled < wanted {
                UnsafeMutableBufferPointer(rebasing: buffer[(filled * channels)...]).update(repeating: 0)
            }
            if let start, filled > 0 {
                state.lastPull = (start, format.duration(ofFrames: filled), now)
            } else {
                if state.lastPull != nil { state.underruns += 1 }
                state.lastPull = nil
            }
        }
    }
}
