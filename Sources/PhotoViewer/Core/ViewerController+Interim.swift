import PhotoBrowser

extension ViewerController {
    /// The shown page's load, followed while the page is drawn from what
    /// has arrived of it: its placeholder, then previews
    /// (``PhotoBrowser/PhotoBrowserSession/pageUpdates()``). Each update
    /// after the first asks for a redraw; the final page is handed to the
    /// next frame once.
    struct InterimLoad {
        /// The page (photo and rendition size) being loaded.
        let key: String
        /// Follows the session's updates of the page.
        let task: Task<Void, Never>
        /// The latest interim page.
        var latest: BrowserPage?
        /// The page with its pixels, or why there are none, until a frame takes it.
        var outcome: Result<BrowserPage, any Error>?
        /// Whether the load has ended (the outcome may already be taken).
        var ended = false
        /// Frames waiting for the first update.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// What a frame draws of a page being loaded.
    enum InterimContent {
        /// What has arrived of it so far.
        case interim(BrowserPage)
        /// The page with its pixels, just arrived.
        case final(BrowserPage)
    }

    /// The shown page as far as it has arrived: waits for the first update
    /// of a page not seen before (its placeholder at once, else its first
    /// preview or its pixels, whichever comes first); `nil` once the load
    /// has ended and its outcome was drawn (the session then has the
    /// pixels at hand). Throws the load's error once.
    func interimPage(photo: BrowserPhoto, pager: BrowserPager) async throws -> InterimContent? {
        let key = "\(photo.id)@\(pager.renditionSize.width)x\(pager.renditionSize.height)"
        if interimLoad?.key != key {
            // Another page, or another size: the old load's follower stops (the session keeps the load while it is wanted).
            interimLoad?.task.cancel()
            for waiter in interimLoad?.waiters ?? [] { waiter.resume() }
            let updates = await session.pageUpdates()
            let task = Task { [weak self] in
                do {
                    for try await page in updates { await self?.interimArrived(page, key: key) }
                    await self?.interimEnded(key: key, failure: nil)
                } catch {
                    await self?.interimEnded(key: key, failure: error)
                }
            }
            interimLoad = InterimLoad(key: key, task: task)
        }
        if let load = interimLoad, load.key == key, load.latest == nil, load.outcome == nil, !load.ended {
            await withCheckedContinuation { interimLoad?.waiters.append($0) }
        }
        guard var load = interimLoad, load.key == key else { return nil }
        if let outcome = load.outcome {
            load.outcome = nil
            interimLoad = load
            return .final(try outcome.get())
        }
        if load.ended { return nil }
        return load.latest.map { .interim($0) }
    }

    private func interimArrived(_ page: BrowserPage, key: String) {
        guard var load = interimLoad, load.key == key, !load.ended else { return }
        if page.origin.isInterim {
            load.latest = page
        } else {
            load.outcome = .success(page)
            load.ended = true
        }
        let waiting = load.waiters
        load.waiters.removeAll()
        interimLoad = load
        // A frame waiting for the first update draws it; a later one needs a frame of its own.
        if waiting.isEmpty { requestRedraw() }
        for waiter in waiting { waiter.resume() }
    }

    private func interimEnded(key: String, failure: (any Error)?) {
        guard var load = interimLoad, load.key == key, !load.ended else { return }
        load.ended = true
        // Cancelled (the page changed): nothing to draw, the next frame asks again.
        if let failure, !(failure is CancellationError) { load.outcome = .failure(failure) }
        let waiting = load.waiters
        load.waiters.removeAll()
        interimLoad = load
        if waiting.isEmpty { requestRedraw() }
        for waiter in waiting { waiter.resume() }
    }
}
