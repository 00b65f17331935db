import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import TestSupport
import Testing

/// Videos and stills that move, played by the viewer: frames at their
/// times as redraw requests, paused, stepped, dropped when the screen is
/// slow, stopped by a turn.
@Suite("Viewer video playback", .dedicatedThreads)
struct VideoPlaybackTests {
    static let viewport = CGSize(width: 160, height: 120)

    static func seconds(_ time: Duration) -> Double {
        Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }

    static func pages(video path: String? = nil) throws -> [BrowserPhoto] {
        let video = try BrowserPhoto(fileAt: try path ?? TestVideos.h264())
        let still = BrowserPhoto(
            id: "/photos/still.jpg", source: .encoded(try noiseJPEG(width: 40, height: 30, seed: 3)), displaySize: PixelSize(width: 40, height: 30))
        return [video, still]
    }

    /// Draws a frame per redraw request until `done` says so (or the stream ends).
    static func drawUntil(
        _ controller: ViewerController, _ redraws: AsyncStream<Void>, delay: Duration = .zero, _ done: (ViewerFrame) -> Bool
    ) async throws -> [ViewerFrame] {
        var frames: [ViewerFrame] = []
        for await _ in redraws {
            // A slow screen: the frame is made this long after it was asked for.
            if delay > .zero { try await Task.sleep(for: delay) }
            let frame = await controller.frame()
            frames.append(frame)
            if done(frame) { break }
        }
        return frames
    }

    @Test("k plays from the poster: frames at the video's times; k pauses, . and , step a frame, k resumes to the end, where the last frame stays")
    func playPauseStep() async throws {
        // 30 s, so that a loaded machine (a whole suite on two cores) cannot reach the end before
        // the test presses k: playback runs on the wall clock while the test waits for its turn.
        let long = try TestVideos.pattern(
            "h264-30s.mp4", size: PixelSize(width: 160, height: 120), seconds: 30,
            codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "veryfast"],
            extra: ["-movflags", "+faststart"])
        let controller = try await ViewerController(collection: try Self.pages(video: long), viewportSize: Self.viewport)
        let redraws = await controller.redrawRequests()
        let poster = await controller.frame()
        #expect(poster.statusLine.contains("video 0:30") && poster.playback == nil)
        guard case .page(let posterPage) = poster.content else { throw Failure("no poster page") }

        let started = ContinuousClock.now
        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw)
        #expect(await controller.isPlayingVideo)
        let played = try await Self.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= .milliseconds(500) }
        let elapsed = ContinuousClock.now - started
        let positions = played.compactMap { $0.playback?.position }
        #expect(positions == positions.sorted() && Set(positions).count == positions.count, "\(positions)")
        // Never faster than the video's own clock.
        #expect(elapsed >= (positions.last ?? .zero) - (positions.first ?? .zero))
        guard case .page(let playingPage) = played.last?.content else { throw Failure("no page while playing") }
        #expect(playingPage.rendition != posterPage.rendition, "a later frame is shown")
        #expect(played.last?.statusLine.contains("playing 0:0") == true)

        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw)
        let paused = await controller.frame()
        #expect(paused.playback?.isPlaying == false && paused.statusLine.contains("paused"))
        let at = try #require(paused.playback?.position)
        // Three frames on, then back one by one: each step is exactly one frame, whatever the rounding of their times.
        var steps = [at]
        var lines: [String] = []
        for _ in 0..<3 {
            #expect(await controller.press(.character("."), pointer: .zero) == .redraw)
            let stepped = await controller.frame()
            steps.append(try #require(stepped.playback?.position))
            lines.append(stepped.statusLine)
        }
        for (before, after) in zip(steps, steps.dropFirst()) {
            #expect(abs(Self.seconds(after - before) - 1.0 / 30) < 0.002, "\(steps) \(lines)")
        }
        for expected in steps.reversed().dropFirst() {
            #expect(await controller.press(.character(","), pointer: .zero) == .redraw)
            #expect(await controller.frame().playback?.position == expected)
        }

        // Paused, near the end (1.5 s before it), so that resuming plays a short rest.
        #expect(await controller.perform(.seek(by: .milliseconds(28_500) - at)) == .redraw)
        #expect(await controller.frame().playback?.isPlaying == false)
        #expect(await controller.press(.space, pointer: .zero) == .redraw, "Space plays on a video's page")
        let rest = try await Self.drawUntil(controller, redraws) { $0.playback?.isPlaying == false }
        let end = try #require(rest.last?.playback)
        #expect(!end.isPlaying && end.position >= .milliseconds(29_500), "\(end)")
        #expect(await !controller.isPlayingVideo)

        // A turn stops and forgets it; Space on the still turns the page as ever.
        #expect(await controller.perform(.next) == .redraw)
        #expect(await controller.frame().playback == nil)
        #expect(await controller.press(.space, pointer: .zero) == .unchanged, "the last page: nothing after it")
        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw, "k is 'previous' on a still's page")
        #expect(await controller.frame().index == 0)
    }

    @Test("a slow screen: frames due before it could show them are dropped and counted; the video keeps its clock")
    func droppingFrames() async throws {
        let controller = try await ViewerController(collection: try Self.pages(), viewportSize: Self.viewport)
        let redraws = await controller.redrawRequests()
        _ = await controller.frame()
        _ = await controller.perform(.togglePlayback)
        let frames = try await Self.drawUntil(controller, redraws, delay: .milliseconds(100)) { $0.playback?.isPlaying == false }
        let end = try #require(frames.last?.playback)
        let shown = Set(frames.compactMap { $0.playback?.position }).count
        #expect(end.droppedFrames > 0, "\(end)")
        // Every frame of the 60 was shown or dropped (the first shown after the poster).
        #expect(shown + end.droppedFrames >= 55 && shown + end.droppedFrames <= 60, "\(shown) shown, \(end.droppedFrames) dropped")
        #expect(shown < 40)
    }

    @Test("l plays a Live Photo's motion once, then shows the still again; on a still l turns the page")
    func livePhotoMotion() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let stillPath = "\(scratch)/IMG_0001.JPG"
        try Data(try TestLivePhotos.still(identifier: "4F1B2C3D-0000-4A5B-8C9D-112233445566")).write(to: URL(fileURLWithPath: stillPath))
        let motion = try TestLivePhotos.motion("viewer-live.mov", identifier: "4F1B2C3D-0000-4A5B-8C9D-112233445566")
        let live = BrowserPhoto(
            id: stillPath, source: .file(stillPath), displaySize: PixelSize(width: 240, height: 160), motion: .livePhoto(motionPath: motion))
        let controller = try await ViewerController(collection: [live] + (try Self.pages()), viewportSize: Self.viewport)
        let redraws = await controller.redrawRequests()
        let still = await controller.frame()
        #expect(still.statusLine.contains("live"))
        guard case .page(let stillPage) = still.content else { throw Failure("no still page") }
        #expect(await controller.press(.character("l"), pointer: .zero) == .redraw)
        var sawMotion = false
        let frames = try await Self.drawUntil(controller, redraws) { frame in
            if frame.playback != nil { sawMotion = true }
            return sawMotion && frame.playback == nil
        }
        #expect(sawMotion && frames.count >= 2)
        guard case .page(let after) = frames.last?.content else { throw Failure("no page after the motion") }
        #expect(after.rendition == stillPage.rendition, "the still again")
        // On the video's page l is not 'motion' (it has none to play apart): the next page, as on any page.
        _ = await controller.perform(.next)
        #expect(await controller.press(.character("l"), pointer: .zero) == .redraw)
        #expect(await controller.frame().index == 2)
    }
}

extension VideoPlaybackTests {
    @Test("a folder's Motion Photo is a page that moves: l plays the MP4 inside its JPEG, then the still returns")
    func motionPhoto() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("motion-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mp4 = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85)
        let file = TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: TestLivePhotos.xmp(.containerDirectory(padding: 0), videoLength: mp4.count), video: mp4)
        try Data(file).write(to: URL(fileURLWithPath: "\(folder)/PXL_0001.MP.jpg"))
        let photos = try FolderPhotos(paths: [folder])
        let page = try await photos.photo(at: 0)
        #expect(page.motion == .motionPhoto(range: file.count - mp4.count..<file.count))
        let controller = try await ViewerController(collection: photos, viewportSize: Self.viewport)
        let redraws = await controller.redrawRequests()
        let still = await controller.frame()
        #expect(still.statusLine.contains("motion"))
        guard case .page(let stillPage) = still.content else { throw Failure("no still page") }
        #expect(await controller.press(.character("l"), pointer: .zero) == .redraw)
        var positions: [Duration] = []
        let frames = try await Self.drawUntil(controller, redraws) { frame in
            if let position = frame.playback?.position { positions.append(position) }
            return !positions.isEmpty && frame.playback == nil
        }
        // How many of its frames show depends on the machine's pace (late ones are dropped); at least one does, in order.
        #expect(!positions.isEmpty && positions == positions.sorted(), "\(positions)")
        guard case .page(let after) = frames.last?.content else { throw Failure("no page after the motion") }
        #expect(after.rendition == stillPage.rendition)
    }
}

extension VideoPlaybackTests {
    @Test("the viewer pairs a folder's Live Photos in the background: the shown photo stays, renumbered; the still's page plays its motion with l")
    func pairsLivePhotos() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let identifier = "4F1B2C3D-0000-4A5B-8C9D-0000000000C1"
        try Data(try TestLivePhotos.still(identifier: identifier)).write(to: URL(fileURLWithPath: "\(folder)/IMG_0001.HEIC.jpg"))
        try TestLivePhotos.writePair(in: folder, stem: "IMG_0001", identifier: identifier)
        try Data(try noiseJPEG(width: 40, height: 30, seed: 5)).write(to: URL(fileURLWithPath: "\(folder)/IMG_0002.jpg"))
        let photos = try FolderPhotos(paths: [folder])
        let controller = try await ViewerController(collection: photos, viewportSize: Self.viewport)
        _ = await controller.perform(.last)
        #expect(await controller.frame().count == 4)
        await controller.pairLivePhotos(in: photos)
        await controller.waitForSort()
        let after = await controller.frame()
        #expect(after.count == 3 && after.index == 2 && after.name == "IMG_0002.jpg", "\(after.statusLine)")
        _ = await controller.perform(.first)
        let first = await controller.frame()
        // Two stills carry the identifier: the one named as the video pairs, though the other comes first; it stays a still.
        #expect(first.name == "IMG_0001.HEIC.jpg" && !first.statusLine.contains("live"))
        _ = await controller.perform(.next)
        #expect(await controller.frame().statusLine.contains("live"))
        #expect(await controller.press(.character("l"), pointer: .zero) == .redraw)
        await controller.stopVideo()

        // The still on screen while it is paired: its page plays its motion from then on.
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-live-alone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: alone) }
        try FileManager.default.copyItem(atPath: "\(folder)/IMG_0001.JPG", toPath: "\(alone)/IMG_0001.JPG")
        try FileManager.default.copyItem(atPath: "\(folder)/IMG_0001.MOV", toPath: "\(alone)/IMG_0001.MOV")
        let pair = try FolderPhotos(paths: [alone])
        let shown = try await ViewerController(collection: pair, viewportSize: Self.viewport)
        #expect(await !shown.frame().statusLine.contains("live"))
        await shown.pairLivePhotos(in: pair)
        await shown.waitForSort()
        let paired = await shown.frame()
        #expect(paired.count == 1 && paired.statusLine.contains("live"), "\(paired.statusLine)")
        #expect(await shown.perform(.playMotion) == .redraw)
        await shown.stopVideo()
    }
}

private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
