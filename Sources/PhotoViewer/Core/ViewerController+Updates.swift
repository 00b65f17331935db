import Foundation
public import PhotoBrowser
import SystemSupport

extension ViewerController {
    /// Frames no input asked for: the slideshow's next photo, a re-sort
    /// that finished. The backend running the viewer iterates this and
    /// draws ``frame()`` for each element; asking again ends the previous
    /// stream (one backend at a time).
    public func redrawRequests() -> AsyncStream<Void> {
        redrawContinuation?.finish()
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        redrawContinuation = continuation
        return stream
    }

    /// Asks the running backend for a frame.
    func requestRedraw() { redrawContinuation?.yield() }

    // MARK: - Slideshow

    /// Sets how long the slideshow shows each photo (from its next step on).
    public func setSlideshowInterval(_ interval: Duration) {
        slideshowInterval = interval
    }

    /// Whether the slideshow is running.
    public var isSlideshowRunning: Bool { slideshow != nil }

    /// Starts the slideshow (stopping it if it runs): the next photo each
    /// ``slideshowInterval`` after the last one was drawn (a slow decode
    /// never makes it skip a photo), the first after the last, each a
    /// redraw request (``redrawRequests()``).
    public func toggleSlideshow() {
        if let running = slideshow {
            running.cancel()
            slideshow = nil
            message = "slideshow stopped"
            releaseFrameWaiters()
            return
        }
        let interval = slideshowInterval
        message = "slideshow: every \(String(format: "%g", interval.inSeconds)) s"
        let drawn = framesMade
        slideshow = Task { [weak self] in
            var seen = drawn
            while !Task.isCancelled {
                guard let frames = await self?.nextFrame(after: seen) else { return }
                seen = frames
                do { try await Task.sleep(for: interval) } catch { return }
                guard let self, let frames = await self.advanceSlideshow() else { return }
                seen = frames
            }
        }
    }

    /// Waits until a frame after the `count`th has been made; the frame count then.
    /// A cancelled task stops waiting at the next release (``releaseFrameWaiters()``).
    func nextFrame(after count: Int) async -> Int {
        while framesMade <= count && !Task.isCancelled {
            await withCheckedContinuation { frameWaiters.append($0) }
        }
        return framesMade
    }

    /// Wakes every waiter; those whose frame has not come wait again unless cancelled.
    func releaseFrameWaiters() {
        for waiter in frameWaiters { waiter.resume() }
        frameWaiters.removeAll()
    }

    /// One step of the slideshow: the frames made before its redraw
    /// request, or `nil` when it was stopped meanwhile. Stopped while the
    /// page turned (the controller takes other calls while it waits), the
    /// turn stands but the step ends there: no message over "slideshow
    /// stopped", no redraw request.
    private func advanceSlideshow() async -> Int? {
        guard slideshow != nil, !Task.isCancelled else { return nil }
        let pager = await session.pager
        guard !Task.isCancelled else { return nil }
        let next = pager.nextIndex ?? 0
        let failure: String?
        do {
            try await session.showPage(next)
            failure = nil
        } catch {
            failure = "\(error)"
        }
        guard !Task.isCancelled else { return nil }
        message = failure
        let frames = framesMade
        requestRedraw()
        return frames
    }

    // MARK: - Order

    /// Sorts the collection by `order` in the background (a
    /// ``PhotoBrowser/ReorderablePhotoCollection``; others keep theirs).
    /// The shown photo stays on screen; when the order is in place the
    /// status says so and a redraw is requested. A sort still running is
    /// replaced.
    public func sort(by order: PhotoOrder) {
        guard let reorderable = collection as? any ReorderablePhotoCollection else { return }
        reordering?.cancel()
        message = "sorting by \(order)…"
        reordering = Task { [weak self] in
            // The grid's selection follows its photo, as the shown photo does.
            let selected = await self?.gridSelectionID()
            do {
                try await reorderable.reorder(by: order)
            } catch {
                await self?.finishSort(with: "cannot sort by \(order): \(error)", selected: nil, in: reorderable)
                return
            }
            guard !Task.isCancelled else { return }
            await self?.finishSort(with: "sorted by \(order)", selected: selected, in: reorderable)
        }
    }

    /// Waits until the running sort and Live Photo pairing are in place
    /// (for tools and tests).
    public func waitForSort() async {
        await pairing?.value
        await reordering?.value
    }

    /// Makes each Live Photo in `photos` one page, in the background
    /// (``PhotoBrowser/FolderPhotos/pairLivePhotos()``): the shown photo
    /// stays on screen, renumbered, and a redraw is requested. A folder
    /// without Live Photos changes nothing.
    ///
    /// ```swift
    /// let photos = try FolderPhotos(paths: ["/photos"])
    /// let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 1280, height: 800))
    /// await controller.pairLivePhotos(in: photos)
    /// ```
    public func pairLivePhotos(in photos: FolderPhotos) {
        pairing?.cancel()
        pairing = Task { [weak self] in
            let selected = await self?.gridSelectionID()
            guard let pairs = try? await photos.pairLivePhotos(), pairs > 0, !Task.isCancelled else { return }
            await self?.finishPairing(selected: selected, in: photos)
        }
    }

    private func finishPairing(selected: String?, in photos: FolderPhotos) async {
        await followReorder(selected: selected, in: photos)
        pairing = nil
        requestRedraw()
    }

    /// The id of the grid's selected photo, when the grid is shown.
    private func gridSelectionID() async -> String? {
        guard let layout = grid else { return nil }
        return try? await collection.photo(at: layout.selection).id
    }

    private func finishSort(with text: String, selected: String?, in reorderable: any ReorderablePhotoCollection) async {
        await followReorder(selected: selected, in: reorderable)
        message = text
        reordering = nil
        requestRedraw()
    }

    /// The shown photo, and the grid's selection, follow their photos to where they are now.
    private func followReorder(selected: String?, in reorderable: any ReorderablePhotoCollection) async {
        await session.collectionReordered()
        guard grid != nil else { return }
        // The grid may hold fewer pages now (Live Photos paired).
        await relayoutGrid()
        if var layout = grid, let selected, let index = await reorderable.index(ofPhotoWithID: selected) {
            layout.select(index)
            grid = layout
        }
    }
}
