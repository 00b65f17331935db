import Foundation
import ImageCodecs
import SystemSupport

/// The bytes of one URL, and where they came from.
struct LoadedBytes: Sendable {
    let bytes: [UInt8]
    let origin: ImageOrigin
}

/// Progress callbacks of everyone waiting for one download, and the
/// watch on its header.
final class ProgressFanout: Sendable {
    /// Reads the image's header as the first bytes arrive.
    let header: HeaderWatch
    private let listeners = Lock<[UInt64: @Sendable (Int64, Int64) -> Void]>([:])
    private let previewListeners = Lock<[UInt64: @Sendable (PreviewBytes) -> Void]>([:])

    /// Who waits for the header alone. They are resumed on the fetch's
    /// thread the moment the header is read, never behind a hop through
    /// Swift's shared pool (which CPU-bound work elsewhere in the process
    /// can hold for minutes, while the download sits idle until it times out).
    private struct HeaderWaiting {
        var waiters: [UInt64: CheckedContinuation<ImageInfo?, any Error>] = [:]
        /// How many were told the header before the fetch ended.
        var told = 0
        /// The fetch ended: a late waiter is turned away (and asks again).
        var closed = false
    }

    private let headerWaiting: Lock<HeaderWaiting>
    private let earlyHeaders: Lock<Int>

    /// A fanout whose header answers are counted in `earlyHeaders`.
    init(earlyHeaders: Lock<Int> = Lock(0)) {
        let waiting = Lock(HeaderWaiting())
        headerWaiting = waiting
        self.earlyHeaders = earlyHeaders
        header = HeaderWatch { info in
            let told = waiting.withLock { state in
                defer { state.waiters.removeAll() }
                state.told += state.waiters.count
                return Array(state.waiters.values)
            }
            earlyHeaders.withLock { $0 += told.count }
            for continuation in told { continuation.resume(returning: info) }
        }
    }

    /// Files `continuation` for the header: resumed at once when the header
    /// is read already, with `nil` when the fetch has ended (ask again),
    /// else from the fetch's thread when it is read.
    func waitForHeader(_ id: UInt64, _ continuation: CheckedContinuation<ImageInfo?, any Error>) {
        enum Now {
            case told(ImageInfo)
            case ended
            case later
        }
        let now = headerWaiting.withLock { state -> Now in
            if state.closed { return .ended }
            // Read before the lock was taken: the found callback, which comes after, finds no one to tell.
            if let info = header.info {
                state.told += 1
                return .told(info)
            }
            state.waiters[id] = continuation
            return .later
        }
        switch now {
        case .told(let info):
            earlyHeaders.withLock { $0 += 1 }
            continuation.resume(returning: info)
        case .ended: continuation.resume(returning: nil)
        case .later: break
        }
    }

    /// Takes back the header waiter `id`, if it is still waiting.
    func takeHeaderWaiter(_ id: UInt64) -> CheckedContinuation<ImageInfo?, any Error>? {
        headerWaiting.withLock { $0.waiters.removeValue(forKey: id) }
    }

    /// The fetch ended: the header waiters left, who are answered from the whole body.
    func closeHeaderWaiting() -> [CheckedContinuation<ImageInfo?, any Error>] {
        headerWaiting.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
    }

    /// Whether someone waits for the header, or was told it: the fetch then goes on.
    var isHeaderWanted: Bool { headerWaiting.withLock { !$0.waiters.isEmpty || $0.told > 0 } }

    /// The bytes of the latest preview, for a listener who joins later.
    private let latestPreview = Lock<PreviewBytes?>(nil)

    /// Adds a listener for the bytes of a progressive JPEG at the end of a
    /// scan; one who joins after a scan ended hears the latest at once.
    func addPreview(_ id: UInt64, _ listener: (@Sendable (PreviewBytes) -> Void)?) {
        guard let listener else { return }
        previewListeners.withLock { $0[id] = listener }
        if let latest = latestPreview.withLock({ $0 }) { listener(latest) }
    }

    /// Whether anyone listens for previews (the bytes are followed only then).
    var wantsPreviews: Bool { previewListeners.withLock { !$0.isEmpty } }

    /// Whether previews are likely to be asked for once the download has
    /// begun (someone asked for the header first, to lay out the page the
    /// image will fill): its scans are followed from its first byte.
    var expectsPreviews: Bool { expecting.withLock { $0 } }
    private let expecting = Lock(false)

    /// Follows the scans from the first byte whoever listens (``expectsPreviews``).
    func expectPreviews() { expecting.withLock { $0 = true } }

    func reportPreview(_ preview: PreviewBytes) {
        latestPreview.withLock { $0 = preview }
        for listener in previewListeners.withLock({ Array($0.values) }) { listener(preview) }
    }

    func add(_ id: UInt64, _ listener: (@Sendable (Int64, Int64) -> Void)?) {
        guard let listener else { return }
        listeners.withLock { $0[id] = listener }
    }

    func remove(_ id: UInt64) {
        _ = listeners.withLock { $0.removeValue(forKey: id) }
        _ = previewListeners.withLock { $0.removeValue(forKey: id) }
    }

    func report(received: Int64, expected: Int64) {
        for listener in listeners.withLock({ Array($0.values) }) { listener(received, expected) }
    }
}

/// One fetch per URL however many ask: later requests join the one in
/// progress (and raise its priority when they are more urgent); a request
/// that is cancelled leaves at once, and the fetch is cancelled when the
/// last one leaves (its socket closed), unless someone was told its
/// header: that fetch goes on to the end, for the load that follows.
actor DownloadFlights {
    /// What a fetch does: look at the disk cache, download, store. `id`
    /// names the fetch to the host slots; `priority` is its place in their
    /// queue, raised while it waits when a more urgent request joins.
    typealias Fetch =
        @Sendable (_ url: URL, _ id: UInt64, _ priority: SharedPriority, _ progress: ProgressFanout) async throws(ImageLoadingError) -> LoadedBytes

    private struct Flight {
        let id: UInt64
        let task: Task<Void, Never>
        let progress: ProgressFanout
        let priority: SharedPriority
        var waiters: [UInt64: CheckedContinuation<LoadedBytes?, any Error>] = [:]

        /// Whether anyone waits, or was told the header (the fetch then goes on when everyone has left).
        var isWanted: Bool { !waiters.isEmpty || progress.isHeaderWanted }
    }

    private let fetch: Fetch
    private var flights: [URL: Flight] = [:]
    private var nextID: UInt64 = 0
    /// Requests that joined a fetch already under way.
    private(set) var joins = 0
    /// Header requests answered before their download ended (counted on
    /// the fetches' threads as they are told).
    private let earlyHeaderCount = Lock(0)
    var earlyHeaders: Int { earlyHeaderCount.withLock { $0 } }

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
    }

    /// The bytes of `url`: from the fetch under way, or a new one.
    func load(
        _ url: URL, priority: ImagePriority, progress: (@Sendable (Int64, Int64) -> Void)?, preview: (@Sendable (PreviewBytes) -> Void)? = nil
    ) async throws(ImageLoadingError) -> LoadedBytes {
        while true {
            nextID += 1
            let waiter = nextID
            let flight = join(url, priority: priority) { fanout in
                fanout.add(waiter, progress)
                fanout.addPreview(waiter, preview)
            }
            let loaded = try await wait(waiter, in: url, flight: flight.id) { flights[url]?.waiters[waiter] = $0 }
            if let loaded { return loaded }
            // The fetch ended before this waiter was filed: ask again (the disk cache may have the bytes now).
            flight.progress.remove(waiter)
        }
    }

    /// The header of the image at `url`: as soon as its first bytes hold
    /// it, while the fetch goes on (it then finishes even if nobody else
    /// waits, so that the load which follows joins it); from the whole
    /// body when the header could not be read early (a cached copy, a
    /// header past ``HeaderWatch/limit``, no declared length).
    func header(_ url: URL, priority: ImagePriority) async throws(ImageLoadingError) -> ImageInfo {
        while true {
            nextID += 1
            let waiter = nextID
            // A header asked for first is a page laid out before its pixels: they may be drawn as they arrive.
            let flight = join(url, priority: priority) { $0.expectPreviews() }
            // Told at once when read already, else from the fetch's thread as it is read, or from the whole body.
            let info = try await wait(waiter, in: url, flight: flight.id) { flight.progress.waitForHeader(waiter, $0) }
            if let info { return info }
        }
    }

    /// Waits as `waiter` of `url`'s flight `flight`, whose continuation
    /// `register` files; a cancelled waiter leaves at once
    /// (``withdraw(_:from:flight:)``). `nil` when the flight had ended
    /// before the waiter could be filed: the call that made or joined it
    /// may have been suspended meanwhile (a loaded machine, a task
    /// executor of its own), and the caller asks again.
    private func wait<Value: Sendable>(
        _ waiter: UInt64, in url: URL, flight: UInt64, register: (CheckedContinuation<Value?, any Error>) -> Void
    ) async throws(ImageLoadingError) -> Value? {
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value?, any Error>) in
                    guard flights[url]?.id == flight else { return continuation.resume(returning: nil) }
                    register(continuation)
                }
            } onCancel: {
                Task { await self.withdraw(waiter, from: url, flight: flight) }
            }
        } catch let error as ImageLoadingError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// The fetch of `url` under way (joined, its priority raised), or a
    /// new one; `register` adds the caller's listeners first (before a new
    /// fetch starts, so they hear it from its first byte).
    private func join(_ url: URL, priority: ImagePriority, register: (ProgressFanout) -> Void) -> Flight {
        if let flight = flights[url] {
            joins += 1
            register(flight.progress)
            flight.priority.raise(to: priority)
            return flight
        }
        nextID += 1
        let id = nextID
        let fanout = ProgressFanout(earlyHeaders: earlyHeaderCount)
        register(fanout)
        let (fetch, shared) = (self.fetch, SharedPriority(priority))
        let task = Task(priority: priority.taskPriority) { [weak self] in
            let result: Result<LoadedBytes, ImageLoadingError>
            do throws(ImageLoadingError) {
                result = .success(try await fetch(url, id, shared, fanout))
            } catch {
                result = .failure(error)
            }
            await self?.finish(url, id: id, with: result)
        }
        let flight = Flight(id: id, task: task, progress: fanout, priority: shared)
        flights[url] = flight
        return flight
    }

    /// Whether a fetch of `url` is under way.
    func isLoading(_ url: URL) -> Bool { flights[url] != nil }

    private func withdraw(_ waiter: UInt64, from url: URL, flight: UInt64) {
        guard var running = flights[url], running.id == flight else { return }
        if let continuation = running.waiters.removeValue(forKey: waiter) {
            running.progress.remove(waiter)
            continuation.resume(throwing: ImageLoadingError.cancelled)
        } else if let continuation = running.progress.takeHeaderWaiter(waiter) {
            continuation.resume(throwing: ImageLoadingError.cancelled)
        } else {
            return
        }
        if running.isWanted {
            flights[url] = running
        } else {
            running.task.cancel()
            flights[url] = nil
        }
    }

    private func finish(_ url: URL, id: UInt64, with result: Result<LoadedBytes, ImageLoadingError>) {
        guard let running = flights[url], running.id == id else { return }
        flights[url] = nil
        for continuation in running.waiters.values { continuation.resume(with: result.map { $0 }.mapError { $0 as any Error }) }
        let headerWaiters = running.progress.closeHeaderWaiting()
        guard !headerWaiters.isEmpty else { return }
        // Read from the whole body: the fetch has checked that it is an image, so the probe is a walk of its header.
        let header = result.flatMap { loaded -> Result<ImageInfo, ImageLoadingError> in
            Result { () throws(ImageCodecError) -> ImageInfo in try ImageInfo(probing: loaded.bytes) }
                .mapError { ImageLoadingError.decode($0, url: ImageLoadingError.shown(url)) }
        }
        for continuation in headerWaiters { continuation.resume(with: header.map { $0 }.mapError { $0 as any Error }) }
    }
}
