import ImageCodecs
import PhotoBrowser
import VideoCodecs

/// The video (or a still's motion) started on the shown page.
struct PlayingVideo {
    /// The page's photo.
    let photoID: String
    /// The file the frames come from, and the byte range (a Motion Photo's MP4).
    let path: String
    let range: Range<Int>?
    /// Whether the still comes back at the end (a Live Photo's motion), or the last frame stays.
    let returnsToStill: Bool
    /// The loop, while playing; `nil` when paused or ended.
    var task: Task<Void, Never>?
    /// The shown frame's time, and the frame fitted to the page.
    var position: Duration = .zero
    var frame: Bitmap?
    /// The frame's number (``PhotoBrowser/BrowserPage/motionFrame``).
    var frameNumber = 0
    var duration: Duration?
    /// How long one frame shows (from the container's rate; 1/30 s when it does not say).
    var frameInterval: Duration = .milliseconds(33)
    /// Whether the last frame was shown (the next play starts over).
    var ended = false
    var dropped = 0
}

extension ViewerController {
    /// Whether a video (or a still's motion) is playing on the shown page.
    public var isPlayingVideo: Bool { video?.task != nil }

    /// Stops the shown page's video and forgets where it was (the page
    /// turned, the grid opened, the viewer closes).
    public func stopVideo() {
        guard let playing = video else { return }
        playing.task?.cancel()
        video = nil
        releaseFrameWaiters()
    }

    /// The longest a playing video goes without a new frame on screen while
    /// frames are dropped for being late.
    static let longestFreeze: Duration = .milliseconds(250)

    /// Puts `frame` on screen and waits until it was drawn.
    private func show(_ frame: VideoFrame) async {
        motionFrames += 1
        video?.frame = frame.bitmap
        video?.frameNumber = motionFrames
        video?.position = frame.time
        let drawn = framesMade
        requestRedraw()
        _ = await nextFrame(after: drawn)
    }

    /// Pauses the shown page's video where it is (nobody sees it: the window was hidden).
    func pauseVideo() {
        guard let task = video?.task else { return }
        task.cancel()
        video?.task = nil
        releaseFrameWaiters()
    }

    /// The playback state a frame of `photo` shows.
    func playback(of photo: BrowserPhoto) -> ViewerPlayback? {
        guard let video, video.photoID == photo.id else { return nil }
        return ViewerPlayback(position: video.position, duration: video.duration, isPlaying: video.task != nil, droppedFrames: video.dropped)
    }

    /// `page` showing its video's latest frame, once one was decoded.
    func moving(_ page: BrowserPage) -> BrowserPage {
        videoTarget = page.rendition.size
        guard let video, let frame = video.frame, video.photoID == page.photo.id else { return page }
        return page.showing(frame.size == page.rendition.size ? frame : frame.resized(to: page.rendition.size), motionFrame: video.frameNumber)
    }

    /// Plays or pauses the shown video.
    func togglePlayback() async -> Response {
        let photo = await session.currentPhoto
        guard case .video(let duration) = photo.motion, case .file(let path) = photo.source else { return .unchanged }
        if var playing = video, playing.photoID == photo.id {
            if playing.task != nil {
                pauseVideo()
                return .redraw
            }
            let resumes = !playing.ended && playing.frame != nil
            let time = playing.ended ? .zero : playing.position
            start(&playing, from: time, skippingShown: resumes)
            video = playing
            return .redraw
        }
        var playing = PlayingVideo(photoID: photo.id, path: path, range: nil, returnsToStill: false)
        playing.duration = duration
        start(&playing, from: .zero, skippingShown: false)
        video = playing
        return .redraw
    }

    /// Plays the shown Live Photo's or Motion Photo's motion from its start.
    func playMotion() async -> Response {
        let photo = await session.currentPhoto
        let playing: PlayingVideo
        switch (photo.motion, photo.source) {
        case (.livePhoto(let motionPath)?, _):
            playing = PlayingVideo(photoID: photo.id, path: motionPath, range: nil, returnsToStill: true)
        case (.motionPhoto(let range)?, .file(let path)):
            playing = PlayingVideo(photoID: photo.id, path: path, range: range, returnsToStill: true)
        default:
            return .unchanged
        }
        stopVideo()
        var started = playing
        start(&started, from: .zero, skippingShown: false)
        video = started
        return .redraw
    }

    /// Pauses and shows the frame after (or before) the shown one.
    func stepFrame(forward: Bool) async -> Response {
        let photo = await session.currentPhoto
        guard case .video(let duration) = photo.motion, case .file(let path) = photo.source else { return .unchanged }
        var playing = video.flatMap { $0.photoID == photo.id ? $0 : nil } ?? PlayingVideo(photoID: photo.id, path: path, range: nil, returnsToStill: false)
        playing.duration = duration
        playing.task?.cancel()
        playing.task = nil
        let shown = playing.frame == nil ? nil : playing.position
        // Forward: the first frame after the shown one. Back: the first at or after a frame and a half
        // before it, which is the frame before it (times are rounded to the millisecond, so exactly one
        // frame back could land on the shown frame itself).
        let time: Duration
        if let shown {
            time = forward ? shown + .milliseconds(1) : max(.zero, shown - playing.frameInterval - playing.frameInterval / 2)
        } else {
            time = .zero
        }
        guard forward || shown.map({ $0 > .zero }) ?? false else {
            video = playing
            return .unchanged
        }
        do {
            let frame = try await VideoPosterFrame.make(ofFileAt: path, range: playing.range, at: time, fitting: videoTarget)
            guard video?.photoID == photo.id || video == nil else { return .unchanged }
            if let shown, forward, frame.time <= shown {
                // Past the end: the last frame stays.
                playing.ended = true
            } else {
                motionFrames += 1
                playing.frame = frame.bitmap
                playing.frameNumber = motionFrames
                playing.position = frame.time
                playing.ended = false
            }
        } catch {
            message = "\(error)"
        }
        video = playing
        return .redraw
    }

    /// Starts the loop of `playing` from `time`; `skippingShown` leaves out
    /// the frame on screen (a resume shows the one after it).
    private func start(_ playing: inout PlayingVideo, from time: Duration, skippingShown: Bool) {
        playing.ended = false
        let (id, path, range, target, returns) = (playing.photoID, playing.path, playing.range, videoTarget, playing.returnsToStill)
        let shown = skippingShown ? playing.position : nil
        playing.task = Task { [weak self] in
            await self?.play(id: id, path: path, range: range, from: time, after: shown, target: target, returnsToStill: returns)
        }
    }

    /// The loop: each frame decoded on VideoCodecs' threads when the one
    /// before it is on screen, shown at its time on the clock started by the
    /// first; a frame already late by more than a frame's time is dropped
    /// (counted in ``ViewerPlayback/droppedFrames``), so a slow screen (a
    /// terminal) shows fewer frames rather than falling behind. Dropping
    /// never blanks the video: a late frame is shown anyway when none was for
    /// ``longestFreeze`` (a decoder slower than the video still shows it
    /// moving), and the last frame is shown at the end.
    private func play(
        id: String, path: String, range: Range<Int>?, from start: Duration, after shown: Duration?, target: PixelSize, returnsToStill: Bool
    ) async {
        if let info = try? await VideoInfo.probe(fileAt: path, range: range), var playing = video, playing.photoID == id {
            playing.duration = playing.duration ?? info.duration
            if let rate = info.video.frameRate, rate >= 1, rate <= 1_000 { playing.frameInterval = .milliseconds(Int((1_000 / rate).rounded())) }
            video = playing
        }
        let interval = video?.frameInterval ?? .milliseconds(33)
        let clock = ContinuousClock()
        var origin: (instant: ContinuousClock.Instant, time: Duration)?
        var lastShown = clock.now
        var lastDropped: VideoFrame?
        do {
            for try await frame in VideoFrames(fileAt: path, range: range, from: start, fitting: target) {
                guard !Task.isCancelled, video?.photoID == id else { return }
                if let shown, frame.time <= shown { continue }
                let began = origin ?? (clock.now, frame.time)
                origin = began
                let due = began.instant + (frame.time - began.time)
                if clock.now > due + interval, clock.now - lastShown < Self.longestFreeze {
                    video?.dropped += 1
                    lastDropped = frame
                    continue
                }
                lastDropped = nil
                try await Task.sleep(until: due, clock: clock)
                guard !Task.isCancelled, video?.photoID == id else { return }
                await show(frame)
                lastShown = clock.now
            }
            // The end: its last frame stays on screen, even one that came late.
            if let lastDropped, !Task.isCancelled, video?.photoID == id, !returnsToStill {
                video?.dropped -= 1
                await show(lastDropped)
            }
        } catch {
            guard !Task.isCancelled, video?.photoID == id else { return }
            if case .cancelled? = error as? VideoError { return }
            message = "cannot play: \(error)"
        }
        guard !Task.isCancelled, video?.photoID == id else { return }
        if returnsToStill {
            video = nil
        } else {
            video?.task = nil
            video?.ended = true
        }
        requestRedraw()
    }
}
