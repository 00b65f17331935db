import Foundation
import ImageCodecs

extension PhotoBrowserSession {
    // MARK: A stack page's frames

    /// The frame a vertical swipe on a stack page moves to; `nil` when it
    /// moves to none (zoomed in, too short, mostly sideways, past the last frame, or a dismissal).
    func frameSwiped(to translation: CGSize, velocity: CGSize, in stacked: (stack: BrowserStack, frame: Int)) -> Int? {
        let (dy, vy) = (Double(translation.height), Double(velocity.height))
        guard !pager.isZoomedIn, abs(dy) > abs(Double(translation.width)) else { return nil }
        let settings = pager.settings
        let long = abs(dy) > Double(settings.viewportSize.height) * settings.dismissFraction
        let fast = abs(vy) > settings.dismissVelocity && vy * dy > 0
        guard long || fast else { return nil }
        let target = stacked.frame + (dy < 0 ? 1 : -1)
        return stacked.stack.frames.indices.contains(target) ? target : nil
    }

    /// Shows frame `frame` (0 ..< ``StackPosition/count``, capture order)
    /// of the shown stack page, at fit zoom; its neighbouring frames are
    /// prefetched once it is shown. On a page that is not a stack, frame 0
    /// is the page itself.
    ///
    /// ```swift
    /// if let position = await session.stackPosition, position.frame + 1 < position.count {
    ///     try await session.showFrame(position.frame + 1)
    /// }
    /// ```
    ///
    /// - Throws: ``BrowserError/frameOutOfRange(_:count:)``.
    public func showFrame(_ frame: Int) async throws {
        guard let stacked else {
            guard frame == 0 else { throw BrowserError.frameOutOfRange(frame, count: 1) }
            return
        }
        let frames = stacked.stack.frames
        guard frames.indices.contains(frame) else { throw BrowserError.frameOutOfRange(frame, count: frames.count) }
        guard frame != stacked.frame else { return }
        self.stacked = (stacked.stack, frame)
        current = frame == stacked.stack.coverIndex ? try await viewed(collection.photo(at: pager.index)) : viewed(frames[frame])
        pager.showPage(pager.index, imageSize: current.displaySize)
        await cancelFramePrefetches(keeping: frame)
        await settleShownLoad()
    }

    /// Prefetches the frames a swipe away from the shown one on a stack page, fitted.
    func startFramePrefetches() async {
        guard let stacked else { return }
        let (cache, limits, interims) = (cache, limits, interims)
        for frame in [stacked.frame + 1, stacked.frame - 1] where stacked.stack.frames.indices.contains(frame) && framePrefetches[frame] == nil {
            let photo = viewed(stacked.stack.frames[frame])
            let geometry = pager.settings.geometry(for: photo.displaySize)
            let key = RenditionCache.Key(photoID: photo.renditionID, size: geometry.renditionSize(for: geometry.initialState))
            let task = await cache.prefetch(key, priority: .utility) { try await Self.make(photo, key: key, limits: limits, interims: interims) }
            framePrefetches[frame] = (key, task ?? Task {})
        }
    }

    /// Stops the frame prefetches but those a swipe away from `frame` (all of them when `nil`).
    func cancelFramePrefetches(keeping frame: Int?) async {
        for (index, entry) in framePrefetches where frame.map({ abs(index - $0) != 1 }) ?? true {
            framePrefetches[index] = nil
            // The frame now shown keeps its decode: its page joins it.
            if index != frame { await cache.cancelPrefetch(entry.key) }
        }
    }
}
