import CSDL2
public import Foundation
import SystemSupport

/// The viewer in a window (SDL2): the page fitted and centred on black at
/// the window's pixel size (HiDPI aware), the title `NAME — N/COUNT`, and
/// the browser's gestures from keys and mouse: Left/Right, Space/BackSpace,
/// Home/End; a drag is a swipe (35% of the width or 500 pt/s turns the
/// page) or, zoomed in, a pan; the wheel and `+`/`-` zoom at the pointer;
/// a double click toggles fit and zoom there; a pinch where SDL reports one;
/// `0` fits, `f` toggles full screen, a click or `i` shows the status
/// overlay, `q` or Escape quits. A resize keeps the visible centre. A long
/// press (the button held half a second without moving) plays a Live
/// Photo's or Motion Photo's motion, as `l` does.
///
/// Videos play with their sound, through SDL's audio on the default output
/// (`SDL_AUDIODRIVER` picks another driver), and their frames are timed by
/// what is heard (``ViewerPlayback/soundOffset`` says how closely); `m`
/// mutes. Without an output device they play silently, on the wall clock.
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
    /// Throws ``WindowError`` when no window can be opened (no display).
    public func run() async throws(WindowError) -> ViewerExit {
        let controller = controller
        let options = options
        let started = ContinuousClock.now
        // The first page decodes while SDL opens the window (100 ms or so):
        // most windows open at the size asked, one pixel per point, and
        // then the first frame joins this decode.
        await controller.configure(viewportSize: options.size, scale: 1)
        let firstPage = Task { await controller.prepareCurrentPage() }
        // Frames no input asked for (the slideshow, a finished sort) wake
        // the window's event wait as SDL user events.
        let wakes = WindowWakes()
        let redraws = await controller.redrawRequests()
        let forwarder = Task {
            for await _ in redraws { wakes.post() }
        }
        let result: Result<ViewerExit, WindowError> = await ViewerThread.run(named: "photodeck.window") {
            do throws(WindowError) {
                let loop = try WindowLoop(controller: controller, options: options, started: started)
                wakes.open()
                defer { wakes.close() }
                return .success(loop.run())
            } catch {
                return .failure(error)
            }
        }
        firstPage.cancel()
        forwarder.cancel()
        await controller.stopAnimation()
        return try result.get()
    }
}

/// One run of the window, on its own thread (SDL's calls stay on it).
private final class WindowLoop {
    let controller: ViewerController
    let options: WindowViewer.Options
    let renderer: WindowRenderer
    let started: ContinuousClock.Instant
    var drag: (tracker: DragTracker, pans: Bool)?
    var pendingClick: (deadline: ContinuousClock.Instant, point: CGPoint)?
    /// When a press still held becomes a long press.
    var longPressDeadline: ContinuousClock.Instant?
    /// The held press was a long press: its release is no click.
    var longPressed = false
    /// How long a press is held, without moving, to be a long press.
    static let longPress: Duration = .milliseconds(500)
    var viewport = CGSize(width: 1, height: 1)
    /// A frame is owed to the inputs handled since the last one.
    var drawPending = false
    /// The earliest of those inputs (nil: none, or only redraws nobody asked for).
    var pendingInput: ContinuousClock.Instant?
    /// The sound device, once open.
    var sound: WindowSound?

    init(controller: ViewerController, options: WindowViewer.Options, started: ContinuousClock.Instant) throws(WindowError) {
        self.controller = controller
        self.options = options
        self.started = started
        let size = (max(64, Int(options.size.width)), max(64, Int(options.size.height)))
        renderer = try WindowRenderer(title: "PhotoDeck", size: size, rendering: options.rendering)
    }

    var seconds: Double { (ContinuousClock.now - started).inMilliseconds / 1000 }

    func run() -> ViewerExit {
        let controller = controller
        let output = "window, \(renderer.rendererDescription)"
        BlockingBridge.wait { await controller.recordOutput(output) }
        // A black frame while the first page decodes: the window's
        // framebuffer (8 MB of shared memory at 1920x1080) is made and
        // touched now, not on the first photo's frame.
        renderer.presentBlank()
        configure()
        if options.once {
            // A single screen of the grid shows its thumbnails, not their placeholders.
            BlockingBridge.wait { await controller.waitForGridThumbnails() }
            draw(after: nil)
            return .quit
        }
        draw(after: nil)
        openSound()
        defer { closeSound() }
        var event = SDL_Event()
        while true {
            let deadline = [pendingClick?.deadline, longPressDeadline].compactMap { $0 }.min()
            let wait = deadline.map { max(1, Int(($0 - .now).inMilliseconds)) } ?? 500
            guard SDL_WaitEventTimeout(&event, Int32(wait)) != 0 else {
                fireDeadlines()
                drawIfPending()
                continue
            }
            if let exit = handle(event) { return exit }
            // Everything already queued is handled before the frame is made:
            // keys that come faster than big photos decode (a held arrow, 10
            // pages a second) turn pages without decoding each one; the
            // frame shows where they led.
            while SDL_PollEvent(&event) != 0 {
                if let exit = handle(event) { return exit }
            }
            // Events that keep coming (a playing video's redraws) must not hold a deadline off.
            fireDeadlines()
            drawIfPending()
        }
    }

    /// A single click's overlay once no second click came, and a long press once held long enough.
    func fireDeadlines() {
        let now = ContinuousClock.now
        if let click = pendingClick, now >= click.deadline {
            pendingClick = nil
            perform(.click(at: click.point), at: now)
        }
        if let held = longPressDeadline, now >= held {
            longPressDeadline = nil
            if drag?.tracker.isClick == true {
                longPressed = true
                perform(.playMotion, at: now)
            }
        }
    }

    /// Opens the sound device for videos, after the first frame (it takes
    /// a few milliseconds with PulseAudio); without one, videos play silently.
    func openSound() {
        let controller = controller
        switch WindowSound.open() {
        case .success(let opened):
            sound = opened
            let output = "window, \(renderer.rendererDescription), \(opened.description)"
            BlockingBridge.wait {
                await controller.attachSound(opened)
                await controller.recordOutput(output)
            }
        case .failure(let reason):
            let output = "window, \(renderer.rendererDescription), no sound (\(reason))"
            BlockingBridge.wait { await controller.recordOutput(output) }
        }
    }

    /// Detaches and closes the sound device (the controller may outlive the window).
    func closeSound() {
        guard let sound else { return }
        let controller = controller
        BlockingBridge.wait { await controller.attachSound(nil) }
        sound.close()
        self.sound = nil
    }

    /// Asks for a frame once the queued events are handled.
    func requestDraw(after input: ContinuousClock.Instant?) {
        drawPending = true
        if let input { pendingInput = min(pendingInput ?? input, input) }
    }

    /// Makes the frame owed, if any.
    func drawIfPending() {
        guard drawPending else { return }
        let input = pendingInput
        drawPending = false
        pendingInput = nil
        draw(after: input)
    }

    func handle(_ event: SDL_Event) -> ViewerExit? {
        let now = ContinuousClock.now
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            let shift = UInt32(event.key.keysym.mod) & UInt32(KMOD_SHIFT.rawValue) != 0
            guard let key = WindowKeys.key(for: event.key.keysym.sym, shift: shift) else { return nil }
            return press(key, at: now)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: Int(event.button.x), y: Int(event.button.y))
            if event.button.clicks >= 2 {
                pendingClick = nil
                drag = nil
                perform(.toggleZoom(at: point), at: now)
            } else {
                let controller = controller
                let zoomed = BlockingBridge.wait { await controller.isZoomedIn }
                drag = (DragTracker(at: point, seconds: seconds), zoomed)
                longPressDeadline = now + Self.longPress
                longPressed = false
            }
        case SDL_MOUSEMOTION:
            guard var current = drag else { return nil }
            let delta = current.tracker.move(to: CGPoint(x: Int(event.motion.x), y: Int(event.motion.y)), seconds: seconds)
            drag = current
            if current.pans, delta != .zero { perform(.pan(delta), at: now) }
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            guard let finished = drag else { return nil }
            drag = nil
            longPressDeadline = nil
            if longPressed {
                // The long press played the motion; its release is nothing more.
                longPressed = false
            } else if finished.tracker.isClick {
                // A single click shows the overlay unless a second click makes it a double click.
                if event.button.clicks < 2 {
                    pendingClick = (now + .milliseconds(300), CGPoint(x: Int(event.button.x), y: Int(event.button.y)))
                }
            } else if !finished.pans {
                perform(.swipe(translation: finished.tracker.translation, velocity: finished.tracker.velocity(at: seconds)), at: now)
            }
        case SDL_MOUSEWHEEL:
            guard event.wheel.y != 0 else { return nil }
            let factor = pow(ViewerKeymap.standard.zoomStep, Double(event.wheel.y))
            perform(.zoom(by: factor, at: pointer), at: now)
        case SDL_MULTIGESTURE:
            let gesture = event.mgesture
            guard
                let pinch = PinchGesture.command(
                    fingers: Int(gesture.numFingers), distanceChange: Double(gesture.dDist), x: Double(gesture.x), y: Double(gesture.y),
                    viewport: viewport)
            else { return nil }
            perform(pinch, at: now)
        case SDL_USEREVENT:
            requestDraw(after: nil)
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                configure()
                requestDraw(after: nil)
            case SDL_WINDOWEVENT_EXPOSED:
                requestDraw(after: nil)
            case SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED:
                // Nobody sees an animation now: it stops until the window shows again.
                let controller = controller
                BlockingBridge.wait { await controller.setPlaybackPaused(true) }
            case SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED:
                let controller = controller
                BlockingBridge.wait { await controller.setPlaybackPaused(false) }
                requestDraw(after: nil)
            case SDL_WINDOWEVENT_CLOSE:
                return .quit
            default: break
            }
        default: break
        }
        return nil
    }

    /// The pointer in points, or the centre when it is outside the window.
    var pointer: CGPoint {
        var x: Int32 = 0
        var y: Int32 = 0
        SDL_GetMouseState(&x, &y)
        guard SDL_GetMouseFocus() == renderer.window else { return CGPoint(x: viewport.width / 2, y: viewport.height / 2) }
        return CGPoint(x: Int(x), y: Int(y))
    }

    func press(_ key: ViewerKey, at time: ContinuousClock.Instant) -> ViewerExit? {
        let controller = controller
        let pointer = pointer
        return respond(to: BlockingBridge.wait { await controller.press(key, pointer: pointer) }, at: time)
    }

    @discardableResult
    func perform(_ command: ViewerCommand, at time: ContinuousClock.Instant) -> ViewerExit? {
        let controller = controller
        return respond(to: BlockingBridge.wait { await controller.perform(command) }, at: time)
    }

    private func respond(to response: ViewerController.Response, at time: ContinuousClock.Instant) -> ViewerExit? {
        switch response {
        case .quit: return .quit
        case .unchanged: break
        case .redraw: requestDraw(after: time)
        case .toggleFullScreen: renderer.toggleFullScreen()
        }
        return nil
    }

    func configure() {
        let (points, pixels) = renderer.sizes
        viewport = points
        let scale = points.width > 0 ? Double(pixels.width) / Double(points.width) : 1
        let controller = controller
        BlockingBridge.wait { await controller.configure(viewportSize: points, scale: scale) }
    }

    func draw(after input: ContinuousClock.Instant?) {
        let controller = controller
        let frame = BlockingBridge.wait { await controller.frame() }
        let timing = renderer.draw(frame)
        let now = ContinuousClock.now
        let start = started
        BlockingBridge.wait { await controller.recordFrame(after: input, start: start, now: now, draw: timing) }
        options.onFrame?(frame)
    }
}
