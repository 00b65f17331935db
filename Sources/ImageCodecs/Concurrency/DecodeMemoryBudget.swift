/// Bytes that decodes in flight may take together: each decode reserves
/// its estimate (``ImageCore/ImageInfo/renditionPeakBytes(in:mode:options:)``)
/// before it starts and gives it back when it ends, so that N pictures
/// decoding at once (a grid, a timeline's thumbnails) cannot multiply the
/// memory one takes. A decode waits, without holding a thread, until its
/// bytes fit; one larger than the whole budget runs when nothing else does.
/// Waiters start in the order they came.
///
/// ```swift
/// let estimate = info.renditionPeakBytes(in: box)
/// let bitmap = try await DecodeMemoryBudget.shared.withReservation(of: estimate) {
///     try await ImageWorkers.shared.run { try DecodedImage(rendering: bytes, in: box).bitmap }
/// }
/// ```
public actor DecodeMemoryBudget {
    /// The budget the image loader and the thumbnailer share by default:
    /// 256 MiB.
    public static let shared = DecodeMemoryBudget(capacityBytes: 256 << 20)

    /// The most bytes reserved at once (a single larger reservation runs alone).
    public let capacityBytes: Int
    /// The bytes reserved now.
    public private(set) var reservedBytes = 0
    /// The most bytes that were reserved at once.
    public private(set) var peakReservedBytes = 0
    /// Decodes waiting for their bytes now.
    public var waitingCount: Int { waiters.count }
    private var running = 0
    private var waiters: [(id: UInt64, bytes: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// Creates a budget of `capacityBytes`.
    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// Runs `body` holding `bytes` of the budget, waiting first until they
    /// fit. Cancelling the calling task while it waits ends the wait with
    /// `CancellationError`; `body` itself runs to its own end.
    public func withReservation<T: Sendable>(of bytes: Int, _ body: @Sendable () async throws -> T) async throws -> T {
        let bytes = max(0, bytes)
        try await reserve(bytes)
        defer { release(bytes) }
        return try await body()
    }

    private func reserve(_ bytes: Int) async throws {
        try Task.checkCancellation()
        if waiters.isEmpty && fits(bytes) {
            take(bytes)
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiters.append((id, bytes, continuation))
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    private func fits(_ bytes: Int) -> Bool {
        running == 0 || bytes <= capacityBytes - reservedBytes
    }

    private func take(_ bytes: Int) {
        running += 1
        let (sum, overflow) = reservedBytes.addingReportingOverflow(bytes)
        reservedBytes = overflow ? .max : sum
        peakReservedBytes = max(peakReservedBytes, reservedBytes)
    }

    private func release(_ bytes: Int) {
        running -= 1
        reservedBytes = running == 0 ? 0 : max(0, reservedBytes - bytes)
        admitWaiting()
    }

    /// Starts waiters in order: the first goes when it fits, and those behind it wait their turn.
    private func admitWaiting() {
        while let first = waiters.first, fits(first.bytes) {
            waiters.removeFirst()
            take(first.bytes)
            first.continuation.resume()
        }
    }

    private func withdraw(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
        // The one withdrawn may have held back smaller ones behind it.
        admitWaiting()
    }
}
