import Foundation
import ImageCodecs
import ServiceKit
import SystemSupport

extension ImageLoader {
    /// One URL's fetch, run once however many wait for it: the disk cache
    /// when fresh; else a download (conditional when the stored copy can
    /// be revalidated) under a host slot; the stored copy, marked offline,
    /// when the server cannot be reached.
    static func fetch(
        _ url: URL, id: UInt64, priority: SharedPriority, progress: ProgressFanout, configuration: Configuration, client: ServiceClient, slots: HostSlots,
        counters: Counters
    ) async throws(ImageLoadingError) -> LoadedBytes {
        let shown = ImageLoadingError.shown(url)
        let disk = configuration.diskCache
        // A cache that cannot be read is a miss: the network still answers.
        let stored = try? await disk?.entry(for: url)
        let now = configuration.clock.now
        if let stored, stored.policy.isFresh(at: now) {
            counters.update { $0.diskHits += 1 }
            return LoadedBytes(bytes: stored.bytes, origin: .disk)
        }
        let request = HTTPRequest(
            url: url, headers: stored?.policy.conditionalHeaders ?? [:], timeout: configuration.timeout, isIdempotent: true,
            deadline: configuration.deadline, maxResponseBytes: configuration.maxImageBytes, redirects: .anyOriginWithoutCredentials)
        let host = hostKey(url)
        do {
            try await slots.acquire(host, id: id, label: url.absoluteString, priority: priority)
        } catch {
            throw .cancelled
        }
        let reporter = TransferProgress.Reporter { _, received, expected in progress.report(received: received, expected: expected) }
        counters.update { $0.downloads += 1 }
        // A cut answer is resumed from where it stopped (Range + If-Range), not downloaded again: within
        // this load's attempts, and from the bytes an earlier load kept in the disk cache (only for a URL
        // with no stored copy: a kept partial belongs to a download that never completed).
        let kept = stored == nil ? try? await disk?.partial(for: url) : nil
        // The header is read from the first bytes (for whoever waits for it
        // alone), and a progressive JPEG's scans are followed when someone
        // wants previews, or may soon (a page that asked for its header
        // first), and handed to those listening as they end.
        let scans = Lock<ProgressiveScans?>(nil)
        let observer = ResponseStream.Observer { event in
            switch event {
            case .began(let status, let headers):
                let declared = status == 200 ? headers["content-length"].flatMap { Int($0) } ?? 0 : 0
                progress.header.began(status: status, declaredLength: declared)
                let follows = progress.wantsPreviews || progress.expectsPreviews
                scans.withLock { $0 = follows ? ProgressiveScans(expected: declared) : nil }
            case .bytes(let chunk):
                progress.header.received(chunk)
                let due = scans.withLock { state -> PreviewBytes? in
                    // Appended in place (optional chaining), so the kept bytes are never copied whole.
                    guard let end = state?.append(chunk), let scans = state else { return nil }
                    return PreviewBytes(prefix: Array(scans.bytes.prefix(end)), expected: scans.expected)
                }
                if let due { progress.reportPreview(due) }
            }
        }
        let outcome = await ResponseStream.$observer.withValue(observer) {
            await TransferProgress.$receiving.withValue(reporter) { await client.download(request, resumingFrom: kept) }
        }
        let result: Result<HTTPResponse, TransportError>
        switch outcome {
        case .complete(let response):
            result = .success(response)
            if kept != nil { try? await disk?.removePartial(for: url) }
        case .failed(let error, let partial):
            result = .failure(error)
            if let partial, let disk {
                if (try? await disk.storePartial(partial, for: url)) == nil { counters.update { $0.cacheWriteFailures += 1 } }
            }
        }
        await slots.release(host)
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error):
            if error == .cancelled || Task.isCancelled { throw .cancelled }
            guard let stored else { throw .network(error, url: shown) }
            guard !stored.policy.forbidsStale else { throw .offline(url: shown) }
            counters.update { $0.offlineHits += 1 }
            return LoadedBytes(bytes: stored.bytes, origin: .offline(age: stored.policy.age(at: configuration.clock.now)))
        }
        let received = configuration.clock.now
        if response.status == 304, let stored {
            counters.update { $0.notModified += 1 }
            try? await disk?.update(stored.policy.refreshed(by: response, at: received), for: url)
            return LoadedBytes(bytes: stored.bytes, origin: .revalidated)
        }
        guard (200..<300).contains(response.status) else { throw .http(status: response.status, url: shown) }
        // The bytes say what they are; Content-Type is a claim.
        do {
            _ = try ImageInfo(probing: response.body)
        } catch {
            throw .decode(error, url: shown)
        }
        if let disk, HTTPCachePolicy.isStorable(response) {
            do {
                try await disk.store(response.body, policy: HTTPCachePolicy(response, receivedAt: received), for: url)
            } catch {
                counters.update { $0.cacheWriteFailures += 1 }
            }
        } else if let disk, stored != nil {
            // A copy the server now says not to keep is dropped.
            try? await disk.remove(url)
        }
        return LoadedBytes(bytes: response.body, origin: .network)
    }
}
