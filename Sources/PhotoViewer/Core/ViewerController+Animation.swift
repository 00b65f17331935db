import ImageCodecs
import PhotoBrowser
import SystemSupport

extension ViewerController {
    /// Whether an animation is playing on the shown page.
    public var isPlayingAnimation: Bool { animation != nil }

    /// Stops playing (the photo is not shown: the window is hidden, the
    /// viewer closes). The next frame starts it again unless
    /// ``setPlaybackPaused(_:)`` keeps it paused.
    public func stopAnimation() {
        guard let playing = animation else { return }
        playing.task.cancel()
        animation = nil
        // A loop waiting for its frame to be drawn sees the cancellation now.
        releaseFrameWaiters()
    }

    /// Pauses playback while `paused` (a minimised window), and resumes an
    /// animation with the next frame when not; a video stays paused where
    /// it was until it is played again.
    public func setPlaybackPaused(_ paused: Bool) {
        playbackPaused = paused
        if paused {
            stopAnimation()
            pauseVideo()
        }
    }

    /// `page` showing the animation's latest frame, starting the animation
    /// when the page is an animated GIF or WebP not yet playing.
    func animated(_ page: BrowserPage) async -> BrowserPage {
        if video?.photoID != page.photo.id { stopVideo() }
        // A page that moves plays when asked (its frames come from VideoCodecs), never as a GIF does.
        if page.photo.motion != nil { return moving(page) }
        let orientation = await session.viewOrientation
        let key = "\(page.photo.id)#\(orientation.rawValue)"
        animationTarget = page.rendition.size
        if animation?.renditionID != key {
            stopAnimation()
            guard !playbackPaused, !stillPhotos.contains(page.photo.id) else { return page }
            // The photo as the collection has it: a turned one's frames are turned here.
            guard let original = try? await collection.photo(at: page.index) else { return page }
            startAnimation(of: original, key: key, orientation: orientation)
            return page
        }
        if let animation, let frame = animation.frame, frame.size == page.rendition.size { return page.showing(frame, motionFrame: animation.frameNumber) }
        return page
    }

    private func startAnimation(of photo: BrowserPhoto, key: String, orientation: ImageOrientation) {
        let task = Task { [weak self] in
            let opened = await ImageWorkers.shared.run { () -> AnimationFrames? in
                // The header says whether there is more than one frame: a still
                // photo is never read whole, let alone decoded, a second time.
                let bytes: [UInt8]?
                switch photo.source {
                case .file(let path):
                    guard let info = try? ImageInfo(probingFileAt: path), AnimationFrames.plays(info) else { return nil }
                    bytes = try? RegularFile.contents(of: path, limit: 256 << 20)
                case .encoded(let encoded): bytes = encoded
                case .rendered: bytes = nil
                }
                return bytes.flatMap { AnimationFrames(bytes: $0) }
            }
            guard let frames = opened else {
                await self?.markStill(photo.id, key: key)
                return
            }
            await self?.play(frames, key: key, orientation: orientation)
        }
        animation = PlayingAnimation(renditionID: key, task: task)
    }

    /// The loop: each frame decoded and fitted on a worker, shown at its
    /// time (the first is on screen already: the page's own rendition).
    /// A frame waits until the one before it was drawn: a slow screen
    /// slows the animation (keeping its pace again once it catches up)
    /// rather than skipping frames nobody saw.
    private func play(_ frames: AnimationFrames, key: String, orientation: ImageOrientation) async {
        let clock = ContinuousClock()
        var deadline = clock.now
        var plays = 0
        var first = true
        while !Task.isCancelled, animation?.renditionID == key {
            let target = animationTarget
            let restarts = frames.loopCount == 0 || plays + 1 < frames.loopCount
            guard
                let next = await ImageWorkers.shared.run({ frames.next(fitting: target, turnedBy: orientation, restartingAfterLast: restarts) }),
                !Task.isCancelled, animation?.renditionID == key
            else { return }
            if next.index == 0 && !first { plays += 1 }
            if !first {
                motionFrames += 1
                animation?.frame = next.bitmap
                animation?.frameNumber = motionFrames
                let drawn = framesMade
                requestRedraw()
                _ = await nextFrame(after: drawn)
                guard !Task.isCancelled, animation?.renditionID == key else { return }
            }
            first = false
            deadline = deadline.advanced(by: next.duration)
            // Behind by more than a second (a stall): keep the pace from now on.
            if clock.now - deadline > .seconds(1) { deadline = clock.now }
            do { try await Task.sleep(until: deadline, clock: clock) } catch { return }
        }
    }

    private func markStill(_ id: String, key: String) {
        stillPhotos.insert(id)
        if animation?.renditionID == key { animation = nil }
    }
}
