/// Where a playing video's sound goes: a device that takes samples from a
/// ``SoundQueue`` on its own thread (the window's SDL audio device). The
/// terminal viewers have none and play silently.
protocol ViewerSoundOutput: Sendable {
    /// The queue the device takes from.
    var queue: SoundQueue { get }
    /// Starts or stops the device taking samples (stopped while nothing plays).
    func setRunning(_ running: Bool)
}
