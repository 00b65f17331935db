public import Foundation
import ImageCodecs
import SystemSupport

/// The viewer in a window (SDL2): the page fitted and centred on black at
/// the window's pixel size (HiDPI aware), the title `NAME — N/COUNT`, and
/// the browser's gestures from keys and mouse: Left/Right, Space/BackSpace,
/// Home/End; a drag is a swipe (35% of the width or 500 pt/s turns the
/// page) or, zoomed in, a pan; the wheel and `+`/`-` zoom at the pointer;
/// a double click toggles fit and zoom there; a pinch where SDL reports one;
/// `0` fits, `f` toggles full screen, a click or `i` shows the status
/// overlay, `q` or Escape quits. A resize keeps the visible centre.
///
/// Opening the window changes one piece of process state: a process still
/// in the "C" locale gets `LC_CTYPE` "C.UTF-8" (Xlib converts window titles
/// through the C library's locale, and "C" mangles the title's em dash).
/// A locale the program chose is left alone.
///
/// ```swift
/// let viewer = WindowViewer(controller: controller, options: .init(size: CGSize(width: 1280, height: 800)))
/// let exit = try await viewer.run()
/// ```
public struct WindowViewer: Sendable {
    /// How the window opens.
    public struct Options: Sendable {
        /// The window's size in points.
        public var size: CGSize
        /// Draw the first screen and return.
        public var once: Bool
        /// How frames reach the screen (``Rendering/automatic`` unless set).
        public var rendering: Rendering
        /// Called after each frame is presented (for tools and tests that wait for a frame).
        public var onFrame: (@Sendable (ViewerFrame) -> Void)?

        /// Creates options.
        public init(
            size: CGSize = CGSize(width: 1280, height: 800), once: Bool = false, rendering: Rendering = .automatic,
            onFrame: (@Sendable (ViewerFrame) -> Void)? = nil
        ) {
            self.size = size
            self.once = once
            self.rendering = rendering
            self.onFrame = onFrame
        }
    }

    /// The browser state this viewer shows.
    public let controller: ViewerController
    /// How it opens.
    public let options: Options

    /// A window viewer of `controller`.
    public init(controller: ViewerController, options: Options = Options()) {
        self.controller = controller
        self.options = options
    }

    /// Opens the window and runs until the person quits or closes it.
    ///
    /// SDL's calls stay on a thread of the window's own, which turns SDL's
    /// events into an `AsyncStream`; this loop reads it, asks the controller
    /// and posts the frames back without waiting. No semaphore stands between
    /// a key and its frame.
    public func run() async throws(WindowError) -> ViewerExit {
        let controller = controller
        let options = options
        let started = ContinuousClock.now
        // The first page decodes while SDL opens the window (100 ms or so):
        // most windows open at the size asked, one pixel per point, and
        // then the first frame joins this decode.
        await controller.configure(viewportSize: options.size, scale: 1)
        let firstPage = Task { await controller.prepareCurrentPage() }
        defer { firstPage.cancel() }
        let (inputs, continuation) = AsyncStream<WindowInput>.makeStream()
        let mailbox = WindowMailbox()
        let thread = Task {
            await ViewerThread.run(named: "photodeck.window") { WindowThread.run(options: options, mailbox: mailbox, input: continuation) }
        }
        var session = WindowSession(controller: controller, options: options, mailbox: mailbox, input: continuation, started: started)
        let outcome = await session.run(inputs)
        mailbox.stop()
        await thread.value
        return try outcome.get()
    }
}

/// The viewer's side of one window: reads the SDL thread's inputs, keeps
/// the gestures' state (a drag, a click waiting for its second click), asks
/// the controller, and posts frames.
private struct WindowSession {
    let controller: ViewerController
    let options: WindowViewer.Options
    let mailbox: WindowMailbox
    let input: AsyncStream<WindowInput>.Continuation
    let started: ContinuousClock.Instant
    var drag: (tracker: DragTracker, pans: Bool)?
    var pendingClick: Int?
    var clicks = 0
    var viewport = CGSize(width: 1, height: 1)

    init(
        controller: ViewerController, options: WindowViewer.Options, mailbox: WindowMailbox, input: AsyncStream<WindowInput>.Continuation,
        started: ContinuousClock.Instant
    ) {
        self.controller = controller
        self.options = options
        self.mailbox = mailbox
        self.input = input
        self.started = started
    }

    func seconds(at time: ContinuousClock.Instant) -> Double { (time - started).inMilliseconds / 1000 }

    mutating func run(_ inputs: AsyncStream<WindowInput>) async -> Result<ViewerExit, WindowError> {
        for await event in inputs {
            switch event {
            case .failed(let error):
                return .failure(error)
            case .opened(let description, let points, let pixels):
                await controller.recordOutput("window, \(description)")
                await configure(points: points, pixels: pixels)
                await draw(after: nil)
            case .presented(let frame, let after, let now, let upload, let present):
                await controller.recordFrame(after: after, start: started, now: now, draw: (upload, present))
                options.onFrame?(frame)
                if options.once { return .success(.quit) }
            default:
                if let exit = await handle(event) { return .success(exit) }
            }
        }
        return .success(.quit)
    }

    mutating func handle(_ event: WindowInput) async -> ViewerExit? {
        switch event {
        case .quit:
            return .quit
        case .key(let key, let pointer, let time):
            return await respond(to: controller.press(key, pointer: pointer), at: time)
        case .buttonDown(let point, let clickCount, let time):
            if clickCount >= 2 {
                pendingClick = nil
                drag = nil
                return await perform(.toggleZoom(at: point), at: time)
            }
            drag = (DragTracker(at: point, seconds: seconds(at: time)), await controller.isZoomedIn)
        case .motion(let point, let time):
            guard var current = drag else { return nil }
            let delta = current.tracker.move(to: point, seconds: seconds(at: time))
            drag = current
            if current.pans, delta != .zero { return await perform(.pan(delta), at: time) }
        case .buttonUp(let clickCount, let time):
            guard let finished = drag else { return nil }
            drag = nil
            if finished.tracker.isClick {
                // A single click shows the overlay unless a second click makes it a double click.
                if clickCount < 2 { startClickTimer() }
            } else if !finished.pans {
                let swipe = ViewerCommand.swipe(translation: finished.tracker.translation, velocity: finished.tracker.velocity(at: seconds(at: time)))
                return await perform(swipe, at: time)
            }
        case .clickTimeout(let number):
            guard pendingClick == number else { return nil }
            pendingClick = nil
            return await perform(.toggleChrome, at: .now)
        case .wheel(let steps, let pointer, let time):
            let factor = pow(ViewerKeymap.standard.zoomStep, Double(steps))
            return await perform(.zoom(by: factor, at: pointer), at: time)
        case .pinch(let fingers, let distanceChange, let x, let y, let time):
            guard let pinch = PinchGesture.command(fingers: fingers, distanceChange: distanceChange, x: x, y: y, viewport: viewport) else { return nil }
            return await perform(pinch, at: time)
        case .resized(let points, let pixels):
            await configure(points: points, pixels: pixels)
            await draw(after: nil)
        case .exposed:
            await draw(after: nil)
        case .opened, .failed, .presented:
            break
        }
        return nil
    }

    /// Waits 300 ms for a second click, then reports ``WindowInput/clickTimeout(_:)``
    /// (a newer click makes an older timer's report stale).
    mutating func startClickTimer() {
        clicks += 1
        let number = clicks
        pendingClick = number
        let input = input
        Task {
            try? await Task.sleep(for: .milliseconds(300))
            input.yield(.clickTimeout(number))
        }
    }

    func perform(_ command: ViewerCommand, at time: ContinuousClock.Instant) async -> ViewerExit? {
        await respond(to: controller.perform(command), at: time)
    }

    func respond(to response: ViewerController.Response, at time: ContinuousClock.Instant) async -> ViewerExit? {
        switch response {
        case .quit: return .quit
        case .unchanged: break
        case .redraw: await draw(after: time)
        case .toggleFullScreen: mailbox.toggleFullScreen()
        }
        return nil
    }

    mutating func configure(points: CGSize, pixels: PixelSize) async {
        viewport = points
        let scale = points.width > 0 ? Double(pixels.width) / Double(points.width) : 1
        await controller.configure(viewportSize: points, scale: scale)
    }

    func draw(after input: ContinuousClock.Instant?) async {
        mailbox.draw(await controller.frame(), after: input)
    }
}
