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

    init(headerFound: @escaping @Sendable (ImageInfo) -> Void = { _ in }) {
        header = HeaderWatch(found: headerFound)
    }

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
        /// Who waits for the header alone.
        var headerWaiters: [UInt64: CheckedContinuation<ImageInfo?, any Error>] = [:]
        /// Whether someone was told the header: the fetch then goes on when everyone has left.
        var isKept = false

        var isWanted: Bool { !waiters.isEmpty || !headerWaiters.isEmpty || isKept }
    }

    private let fetch: Fetch
    private var flights: [URL: Flight] = [:]
    private var nextID: UInt64 = 0
    /// Requests that joined a fetch already under way.
    private(set) var joins = 0
    /// Header requests answered before their download ended.
    private(set) var earlyHeaders = 0

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
            if let info = flight.progress.header.info {
                // Read already (by the fetch's thread, before headerFound comes round): told now.
                earlyHeaders += 1
                if flights[url]?.id == flight.id { flights[url]?.isKept = true }
                return info
            }
            // A header read since is told by headerFound, which comes after the waiter is filed.
            let info = try await wait(waiter, in: url, flight: flight.id) { flights[url]?.headerWaiters[waiter] = $0 }
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
        let fanout = ProgressFanout { [weak self] info in
            Task { await self?.headerFound(url, flight: id, info) }
        }
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

    private func headerFound(_ url: URL, flight: UInt64, _ info: ImageInfo) {
        guard var running = flights[url], running.id == flight else { return }
        earlyHeaders += running.headerWaiters.count
        for continuation in running.headerWaiters.values { continuation.resume(returning: info) }
        running.isKept = running.isKept || !running.headerWaiters.isEmpty
        running.headerWaiters.removeAll()
        flights[url] = running
    }

    private func withdraw(_ waiter: UInt64, from url: URL, flight: UInt64) {
        guard var running = flights[url], running.id == flight else { return }
        if let continuation = running.waiters.removeValue(forKey: waiter) {
            running.progress.remove(waiter)
            continuation.resume(throwing: ImageLoadingError.cancelled)
        } else if let continuation = running.headerWaiters.removeValue(forKey: waiter) {
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
        guard !running.headerWaiters.isEmpty else { return }
        // Read from the whole body: the fetch has checked that it is an image, so the probe is a walk of its header.
        let header = result.flatMap { loaded -> Result<ImageInfo, ImageLoadingError> in
            Result { () throws(ImageCodecError) -> ImageInfo in try ImageInfo(probing: loaded.bytes) }
                .mapError { ImageLoadingError.decode($0, url: ImageLoadingError.shown(url)) }
        }
        for continuation in running.headerWaiters.values { continuation.resume(with: header.map { $0 }.mapError { $0 as any Error }) }
    }
}
