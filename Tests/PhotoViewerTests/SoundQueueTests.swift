import Foundation
import Testing
import VideoCodecs

@testable import PhotoViewer

/// The queue between a playing video's sound and the device: samples in
/// order across chunks, silence for what is missing or muted, the clock
/// the pictures follow, and generations that keep a stopped video's sound
/// out of the next one's.
@Suite("Sound queue")
struct SoundQueueTests {
    static let format = AudioFormat(sampleRate: 1_000, channels: 2)

    /// A chunk of `frames` sample frames at `time` whose samples count up from `first`.
    static func chunk(at time: Duration, frames: Int, first: Int16) -> AudioChunk {
        AudioChunk(samples: (0..<(frames * 2)).map { first &+ Int16($0) }, time: time, format: format)
    }

    static func pull(_ queue: SoundQueue, frames: Int, at instant: ContinuousClock.Instant) -> [Int16] {
        var buffer = [Int16](repeating: 7, count: frames * 2)
        buffer.withUnsafeMutableBufferPointer { queue.pull(into: $0, at: instant) }
        return buffer
    }

    @Test("samples come out in order across chunks; what is missing is silence; the queued length counts down")
    func order() {
        let queue = SoundQueue(format: Self.format, latency: .zero)
        let generation = queue.clear()
        #expect(queue.enqueue(Self.chunk(at: .zero, frames: 3, first: 1), generation: generation))
        #expect(queue.enqueue(Self.chunk(at: .milliseconds(3), frames: 2, first: 100), generation: generation))
        #expect(queue.queued == .milliseconds(5))
        let now = ContinuousClock.now
        #expect(Self.pull(queue, frames: 4, at: now) == [1, 2, 3, 4, 5, 6, 100, 101])
        #expect(queue.queued == .milliseconds(1))
        #expect(Self.pull(queue, frames: 3, at: now) == [102, 103, 0, 0, 0, 0])
        #expect(queue.queued == .zero)
        // A chunk in another format is left out.
        #expect(queue.enqueue(AudioChunk(samples: [1, 2], time: .zero, format: .stereo48k), generation: generation))
        #expect(queue.queued == .zero)
    }

    @Test(
        "the clock: the time of the sound last handed over, plus the time since (at most its length), less the latency; nil before, after, and when the device stalls"
    )
    func clock() {
        let queue = SoundQueue(format: Self.format, latency: .milliseconds(20))
        let generation = queue.clear()
        let start = ContinuousClock.now
        #expect(queue.position(at: start) == nil)
        queue.enqueue(Self.chunk(at: .milliseconds(500), frames: 100, first: 0), generation: generation)
        _ = Self.pull(queue, frames: 40, at: start)
        #expect(queue.position(at: start) == .milliseconds(480))
        #expect(queue.position(at: start + .milliseconds(30)) == .milliseconds(510))
        // A device slow to take the next buffer holds the clock at the end of what it took; one that
        // stalls gives it up.
        #expect(queue.position(at: start + .milliseconds(200)) == .milliseconds(520))
        #expect(queue.position(at: start + .seconds(10)) == nil)
        _ = Self.pull(queue, frames: 40, at: start + .milliseconds(40))
        #expect(queue.position(at: start + .milliseconds(40)) == .milliseconds(520))
        // The rest, then nothing: the sound ran out, the clock is gone.
        _ = Self.pull(queue, frames: 40, at: start + .milliseconds(80))
        #expect(queue.position(at: start + .milliseconds(80)) == .milliseconds(560))
        #expect(queue.underruns == 0)
        _ = Self.pull(queue, frames: 40, at: start + .milliseconds(120))
        #expect(queue.position(at: start + .milliseconds(120)) == nil && queue.underruns == 1)
        // Never before the start, whatever the latency.
        let early = SoundQueue(format: Self.format, latency: .seconds(1))
        early.enqueue(Self.chunk(at: .zero, frames: 10, first: 0), generation: early.clear())
        _ = Self.pull(early, frames: 10, at: start)
        #expect(early.position(at: start) == .zero)
    }

    @Test("muted sound is taken all the same (the clock runs on) but silent")
    func mute() {
        let queue = SoundQueue(format: Self.format, latency: .zero)
        let generation = queue.clear()
        queue.enqueue(Self.chunk(at: .zero, frames: 10, first: 1), generation: generation)
        queue.isMuted = true
        let now = ContinuousClock.now
        #expect(Self.pull(queue, frames: 4, at: now) == [Int16](repeating: 0, count: 8))
        #expect(queue.position(at: now) == .zero && queue.queued == .milliseconds(6))
        queue.isMuted = false
        #expect(Self.pull(queue, frames: 1, at: now) == [9, 10])
    }

    @Test("a clear starts a generation: a stopped video's late chunk is refused; its end clears only its own")
    func generations() {
        let queue = SoundQueue(format: Self.format, latency: .zero)
        let old = queue.clear()
        queue.enqueue(Self.chunk(at: .zero, frames: 10, first: 1), generation: old)
        let new = queue.clear()
        #expect(queue.queued == .zero)
        #expect(!queue.enqueue(Self.chunk(at: .zero, frames: 10, first: 1), generation: old))
        #expect(queue.enqueue(Self.chunk(at: .zero, frames: 10, first: 1), generation: new))
        #expect(!queue.end(old), "the old loop's end leaves the new sound")
        #expect(queue.queued == .milliseconds(10))
        #expect(queue.end(new) && queue.queued == .zero)
    }

    @Test("the device's thread and the player's at once: every sample taken once, in order")
    func concurrent() async {
        let queue = SoundQueue(format: Self.format, latency: .zero)
        let generation = queue.clear()
        let total = 20_000
        async let produced: Void = {
            for index in 0..<(total / 10) {
                queue.enqueue(Self.chunk(at: .milliseconds(index * 10), frames: 10, first: Int16(truncatingIfNeeded: index * 20)), generation: generation)
                await Task.yield()
            }
        }()
        async let consumed: [Int16] = {
            var taken: [Int16] = []
            while taken.count < total * 2 {
                let frames = min(7, queue.format.frames(in: queue.queued))
                guard frames > 0 else {
                    await Task.yield()
                    continue
                }
                taken += Self.pull(queue, frames: frames, at: .now)
            }
            return taken
        }()
        _ = await produced
        let samples = await consumed
        #expect(samples.count == total * 2)
        #expect(samples.enumerated().allSatisfy { $0.element == Int16(truncatingIfNeeded: $0.offset) })
    }
}
