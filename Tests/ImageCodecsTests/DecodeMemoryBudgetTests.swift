import Foundation
import ImageCodecs
import Synchronization
import TestSupport
import Testing

/// Decodes in flight share a byte budget: N pictures decoding at once
/// cannot multiply what one takes; a decode larger than the budget runs
/// alone; waiters go in order and can leave.
@Suite("Decode memory budget")
struct DecodeMemoryBudgetTests {
    /// How many bodies run at once, and the most.
    final class Gauge: Sendable {
        let state = Mutex((now: 0, peak: 0, order: [Int]()))
        func enter(_ id: Int) {
            state.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
                $0.order.append(id)
            }
        }
        func leave() { state.withLock { $0.now -= 1 } }
    }

    @Test("eight 40 MB decodes in a 100 MB budget run two at a time, in order; the reserved bytes never pass the budget")
    func admission() async throws {
        let budget = DecodeMemoryBudget(capacityBytes: 100 << 20)
        let gauge = Gauge()
        let release = Latch()
        let tasks = (0..<8).map { id in
            Task {
                try await budget.withReservation(of: 40 << 20) {
                    gauge.enter(id)
                    await release.wait()
                    gauge.leave()
                }
            }
        }
        try await waitUntil("two decodes start") { gauge.state.withLock { $0.now } == 2 }
        #expect(await budget.reservedBytes == 80 << 20)
        release.open()
        for task in tasks { try await task.value }
        #expect(gauge.state.withLock { $0.peak } == 2)
        #expect(await budget.peakReservedBytes == 80 << 20)
        #expect(await budget.reservedBytes == 0)
    }

    @Test("a decode larger than the budget runs alone; a cancelled waiter leaves and lets smaller ones in")
    func largeAndCancelled() async throws {
        let budget = DecodeMemoryBudget(capacityBytes: 10)
        let first = Latch()
        let holder = Task { try await budget.withReservation(of: 5) { await first.wait() } }
        try await waitUntil("the first holds its bytes") { await budget.reservedBytes == 5 }
        let huge = Task { try await budget.withReservation(of: 1_000) { 1 } }
        // The small one starts once the huge one waits: started together, it could take its 2 bytes
        // (5 + 2 fit in 10) before the huge one queued, and never wait at all.
        try await waitUntil("the huge one waits") { await budget.waitingCount == 1 }
        let small = Task { try await budget.withReservation(of: 2) { 2 } }
        // Both wait: the huge one for the budget to be empty, the small one behind it (in order).
        try await waitUntil("both wait") { await budget.waitingCount == 2 }
        huge.cancel()
        await #expect(throws: CancellationError.self) { _ = try await huge.value }
        #expect(try await small.value == 2)
        first.open()
        try await holder.value
        // Alone, the huge one runs.
        #expect(try await budget.withReservation(of: 1_000) { 7 } == 7)
        #expect(await budget.peakReservedBytes == 1_000)
    }

    @Test("the estimate covers the ring, the rows and the output for streamed images, the whole decode for the rest")
    func estimates() throws {
        let box = PixelSize(width: 64, height: 64)
        let wide = ImageInfo(format: .png, size: PixelSize(width: 65_535, height: 1_525), hasAlpha: true, bitDepth: 8)
        // Streamed: at most the 16 MiB ring, 16 rows of 262 KB and the 64x1 output; never the 400 MB image.
        #expect(wide.renditionPeakBytes(in: box) < 24 << 20)
        let webp = ImageInfo(format: .webp, size: PixelSize(width: 8_000, height: 6_000), hasAlpha: true, bitDepth: 8)
        // WebP decodes straight to twice the box (128x96), premultiplied beside it.
        #expect(webp.renditionPeakBytes(in: box) < 1 << 20)
        let gif = ImageInfo(format: .gif, size: PixelSize(width: 8_000, height: 6_000), hasAlpha: true, bitDepth: 8)
        #expect(gif.renditionPeakBytes(in: box) >= 8_000 * 6_000 * 8)
        let absurd = ImageInfo(format: .gif, size: PixelSize(width: .max, height: .max), hasAlpha: true, bitDepth: 8)
        #expect(absurd.renditionPeakBytes(in: box) == .max)
    }
}
