import Foundation
import SystemSupport

/// The bytes of one URL, and where they came from.
struct LoadedBytes: Sendable {
    let bytes: [UInt8]
    let origin: ImageOrigin
}

/// Progress callbacks of everyone waiting for one download.
final class ProgressFanout: Sendable {
    private let listeners = Lock<[UInt64: @Sendable (Int64, Int64) -> Void]>([:])
    private let previewListeners = Lock<[UInt64: @Sendable (PreviewBytes) -> Void]>([:])

    /// Adds a listener for the bytes of a progressive JPEG at the end of a scan.
    func addPreview(_ id: UInt64, _ listener: (@Sendable (PreviewBytes) -> Void)?) {
        guard let listener else { return }
        previewListeners.withLock { $0[id] = listener }
    }

    /// Whether anyone listens for previews (the bytes are followed only then).
    var wantsPreviews: Bool { previewListeners.withLock { !$0.isEmpty } }

    func reportPreview(_ preview: PreviewBytes) {
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
/// last one leaves (its socket closed).
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
        var waiters: [UInt64: CheckedContinuation<LoadedBytes, any Error>] = [:]
    }

    private let fetch: Fetch
    private var flights: [URL: Flight] = [:]
    private var nextID: UInt64 = 0
    /// Requests that joined a fetch already under way.
    private(set) var joins = 0

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
    }

    /// The bytes of `url`: from the fetch under way, or a new one.
    func load(
        _ url: URL, priority: ImagePriority, progress: (@Sendable (Int64, Int64) -> Void)?, preview: (@Sendable (PreviewBytes) -> Void)? = nil
    ) async throws(ImageLoadingError) -> LoadedBytes {
        nextID += 1
        let waiter = nextID
        if let flight = flights[url] {
            joins += 1
            flight.progress.add(waiter, progress)
            flight.progress.addPreview(waiter, preview)
            flight.priority.raise(to: priority)
        } else {
            nextID += 1
            let id = nextID
            let fanout = ProgressFanout()
            fanout.add(waiter, progress)
            fanout.addPreview(waiter, preview)
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
            flights[url] = Flight(id: id, task: task, progress: fanout, priority: shared)
        }
        let flightID = flights[url]!.id
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LoadedBytes, any Error>) in
                    flights[url]?.waiters[waiter] = continuation
                }
            } onCancel: {
                Task { await self.withdraw(waiter, from: url, flight: flightID) }
            }
        } catch let error as ImageLoadingError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Whether a fetch of `url` is under way.
    func isLoading(_ url: URL) -> Bool { flights[url] != nil }

    private func withdraw(_ waiter: UInt64, from url: URL, flight: UInt64) {
        guard var running = flights[url], running.id == flight, let continuation = running.waiters.removeValue(forKey: waiter) else { return }
        running.progress.remove(waiter)
        continuation.resume(throwing: ImageLoadingError.cancelled)
        if running.waiters.isEmpty {
            running.task.cancel()
            flights[url] = nil
        } else {
            flights[url] = running
        }
    }

    private func finish(_ url: URL, id: UInt64, with result: Result<LoadedBytes, ImageLoadingError>) {
        guard let running = flights[url], running.id == id else { return }
        flights[url] = nil
        for continuation in running.waiters.values { continuation.resume(with: result.mapError { $0 as any Error }) }
    }
}
