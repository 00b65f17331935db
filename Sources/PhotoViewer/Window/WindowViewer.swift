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
    ///
    /// Two threads, one mailbox each way, and no thread waits for the
    /// other's answer: the window's own thread (SDL's calls stay on it)
    /// turns events into inputs and draws the frames it is handed; a task
    /// hands each batch of inputs to the controller in order and, when they
    /// asked for one, hands back one frame for the whole batch (keys that
    /// come faster than photos decode turn pages without decoding each).
    public func run() async throws(WindowError) -> ViewerExit {
        let controller = controller
        let options = options
        let started = ContinuousClock.now
        // The first page decodes while SDL opens the window (100 ms or so):
        // most windows open at the size asked, one pixel per point, and
        // then the first frame joins this decode.
        await controller.configure(viewportSize: options.size, scale: 1)
        let firstPage = Task { await controller.prepareCurrentPage() }
        let inputs = WindowInputs()
        let outputs = WindowOutputs()
        let driver = Task { await WindowDriver(controller: controller, inputs: inputs, outputs: outputs, once: options.once, started: started).run() }
        // Frames no input asked for (the slideshow, a finished sort) are inputs too.
        let redraws = await controller.redrawRequests()
        let forwarder = Task {
            for await _ in redraws { inputs.post(.redraw) }
        }
        let result: Result<ViewerExit, WindowError> = await ViewerThread.run(named: "photodeck.window") {
            do throws(WindowError) {
                let loop = try WindowLoop(inputs: inputs, outputs: outputs, options: options)
                outputs.open()
                defer { outputs.close() }
                return .success(loop.run())
            } catch {
                return .failure(error)
            }
        }
        inputs.finish()
        await driver.value
        firstPage.cancel()
        forwarder.cancel()
        await controller.stopAnimation()
        return try result.get()
    }
}

/// What the window's thread tells the controller's side, in order.
enum WindowInput: Sendable {
    /// A key, with where the pointer was.
    case key(ViewerKey, pointer: CGPoint, at: ContinuousClock.Instant)
    /// A gesture or command.
    case command(ViewerCommand, at: ContinuousClock.Instant)
    /// The window's size in points and its pixel scale.
    case configure(points: CGSize, scale: Double)
    /// A frame is owed to nobody's input (an exposure, a resize, a redraw request).
    case redraw
    /// The window was hidden (animations stop) or shown again.
    case hidden(Bool)
    /// The sound device opened, and how the viewer now shows (or `nil`: the device is closing).
    case sound(WindowSound?, output: String?)
    /// How the viewer shows its frames.
    case output(String)
    /// A frame was presented: when, after which input, and its upload and present.
    case drawn(after: ContinuousClock.Instant?, at: ContinuousClock.Instant, timing: (upload: Duration, present: Duration))
}

/// What the controller's side tells the window's thread.
enum WindowOutput: Sendable {
    /// Draw this frame, made for the inputs up to `after`.
    case frame(ViewerFrame, after: ContinuousClock.Instant?)
    /// Switch full screen.
    case toggleFullScreen
    /// The viewer is done.
    case quit
}

/// The mailbox from the window's thread to the controller's side: inputs
/// are queued in order and taken a batch at a time; a post never waits.
final class WindowInputs: Sendable {
    private struct State {
        var queued: [WindowInput] = []
        var finished = false
    }

    private let state = Lock(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `input` (dropped once the window is gone).
    func post(_ input: WindowInput) {
        let posted = state.withLock { state in
            guard !state.finished else { return false }
            state.queued.append(input)
            return true
        }
        if posted { wake.yield() }
    }

    /// The window is gone: the batches end.
    func finish() {
        state.withLock { $0.finished = true }
        wake.finish()
    }

    /// Every input queued so far, waiting until there is one; `nil` once finished and empty.
    func nextBatch() async -> [WindowInput]? {
        for await _ in wakes {
            let batch = state.withLock { state in
                defer { state.queued.removeAll() }
                return state.queued
            }
            if !batch.isEmpty { return batch }
        }
        let rest = state.withLock { state in
            defer { state.queued.removeAll() }
            return state.queued
        }
        return rest.isEmpty ? nil : rest
    }
}

/// The mailbox from the controller's side to the window's thread: outputs
/// are queued and the window's event wait is woken (an SDL user event,
/// only while the window is open).
final class WindowOutputs: Sendable {
    private let queued = Lock<[WindowOutput]>([])
    private let wakes = WindowWakes()

    /// The window is open: posts wake it.
    func open() { wakes.open() }

    /// The window is closing.
    func close() { wakes.close() }

    /// Queues `output` and wakes the window.
    func post(_ output: WindowOutput) {
        queued.withLock { $0.append(output) }
        wakes.post()
    }

    /// Everything queued, in order.
    func take() -> [WindowOutput] {
        queued.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}

/// The controller's side of a window: takes the window's inputs a batch at
/// a time, in order, and posts one frame per batch that asked for one.
private struct WindowDriver {
    let controller: ViewerController
    let inputs: WindowInputs
    let outputs: WindowOutputs
    let once: Bool
    let started: ContinuousClock.Instant

    func run() async {
        var configured = false
        while let batch = await inputs.nextBatch() {
            var owed = false
            var after: ContinuousClock.Instant?
            for input in batch {
                switch input {
                case .key(let key, let pointer, let time):
                    if respond(to: await controller.press(key, pointer: pointer)) { (owed, after) = (true, min(after ?? time, time)) }
                case .command(let command, let time):
                    if respond(to: await controller.perform(command)) { (owed, after) = (true, min(after ?? time, time)) }
                case .configure(let points, let scale):
                    await controller.configure(viewportSize: points, scale: scale)
                    configured = true
                    owed = true
                case .redraw:
                    owed = true
                case .hidden(let hidden):
                    await controller.setPlaybackPaused(hidden)
                    if !hidden { owed = true }
                case .sound(let sound, let output):
                    await controller.attachSound(sound)
                    if let output { await controller.recordOutput(output) }
                case .output(let output):
                    await controller.recordOutput(output)
                case .drawn(let input, let now, let timing):
                    await controller.recordFrame(after: input, start: started, now: now, draw: timing)
                }
            }
            guard owed, configured else { continue }
            // A single screen of the grid shows its thumbnails, not their placeholders.
            if once { await controller.waitForGridThumbnails() }
            outputs.post(.frame(await controller.frame(), after: after))
        }
    }

    /// Acts on the controller's answer; whether it owes a frame.
    private func respond(to response: ViewerController.Response) -> Bool {
        switch response {
        case .quit:
            outputs.post(.quit)
            return false
        case .unchanged: return false
        case .redraw: return true
        case .toggleFullScreen:
            outputs.post(.toggleFullScreen)
            return false
        }
    }
}

/// One run of the window, on its own thread (SDL's calls stay on it): it
/// turns events into ``WindowInput``s and draws the frames it is handed,
/// never waiting for the controller.
private final class WindowLoop {
    let inputs: WindowInputs
    let outputs: WindowOutputs
    let options: WindowViewer.Options
    let renderer: WindowRenderer
    let started = ContinuousClock.now
    var drag: (tracker: DragTracker, pans: Bool)?
    var pendingClick: (deadline: ContinuousClock.Instant, point: CGPoint)?
    /// When a press still held becomes a long press.
    var longPressDeadline: ContinuousClock.Instant?
    /// The held press was a long press: its release is no click.
    var longPressed = false
    /// How long a press is held, without moving, to be a long press.
    static let longPress: Duration = .milliseconds(500)
    var viewport = CGSize(width: 1, height: 1)
    /// The last frame drawn (whether a drag pans comes from it).
    var shown: ViewerFrame?
    /// The sound device, once open.
    var sound: WindowSound?

    init(inputs: WindowInputs, outputs: WindowOutputs, options: WindowViewer.Options) throws(WindowError) {
        self.inputs = inputs
        self.outputs = outputs
        self.options = options
        let size = (max(64, Int(options.size.width)), max(64, Int(options.size.height)))
        renderer = try WindowRenderer(title: "PhotoDeck", size: size, rendering: options.rendering)
    }

    var seconds: Double { (ContinuousClock.now - started).inMilliseconds / 1000 }

    func run() -> ViewerExit {
        inputs.post(.output("window, \(renderer.rendererDescription)"))
        // A black frame while the first page decodes: the window's
        // framebuffer (8 MB of shared memory at 1920x1080) is made and
        // touched now, not on the first photo's frame.
        renderer.presentBlank()
        configure()
        defer { closeSound() }
        var event = SDL_Event()
        while true {
            let deadline = [pendingClick?.deadline, longPressDeadline].compactMap { $0 }.min()
            let wait = deadline.map { max(1, Int(($0 - .now).inMilliseconds)) } ?? 500
            if SDL_WaitEventTimeout(&event, Int32(wait)) != 0 {
                if let exit = handle(event) { return exit }
                while SDL_PollEvent(&event) != 0 {
                    if let exit = handle(event) { return exit }
                }
            }
            // Events that keep coming (a playing video's redraws) must not hold a deadline off.
            fireDeadlines()
            if let exit = drawOutputs() { return exit }
        }
    }

    /// Draws the newest frame handed over (older ones are already stale)
    /// and carries out the rest; the exit when the viewer is done.
    func drawOutputs() -> ViewerExit? {
        var newest: ViewerFrame?
        // The earliest input any of them answered: this frame answers it now.
        var after: ContinuousClock.Instant?
        for output in outputs.take() {
            switch output {
            case .frame(let frame, let input):
                newest = frame
                if let input { after = min(after ?? input, input) }
            case .toggleFullScreen: renderer.toggleFullScreen()
            case .quit: return .quit
            }
        }
        guard let frame = newest else { return nil }
        let timing = renderer.draw(frame)
        inputs.post(.drawn(after: after, at: .now, timing: timing))
        options.onFrame?(frame)
        let first = shown == nil
        shown = frame
        if options.once { return .quit }
        // The sound device opens after the first frame (a few milliseconds with PulseAudio).
        if first { openSound() }
        return nil
    }

    /// A single click's overlay once no second click came, and a long press once held long enough.
    func fireDeadlines() {
        let now = ContinuousClock.now
        if let click = pendingClick, now >= click.deadline {
            pendingClick = nil
            inputs.post(.command(.click(at: click.point), at: now))
        }
        if let held = longPressDeadline, now >= held {
            longPressDeadline = nil
            if drag?.tracker.isClick == true {
                longPressed = true
                inputs.post(.command(.playMotion, at: now))
            }
        }
    }

    /// Opens the sound device for videos; without one, videos play silently.
    func openSound() {
        switch WindowSound.open() {
        case .success(let opened):
            sound = opened
            inputs.post(.sound(opened, output: "window, \(renderer.rendererDescription), \(opened.description)"))
        case .failure(let reason):
            inputs.post(.output("window, \(renderer.rendererDescription), no sound (\(reason))"))
        }
    }

    /// Closes the sound device. The controller may outlive the window: it
    /// is told first, and the device is closed when the controller let go
    /// of it (its callbacks stop with `SDL_CloseAudioDevice`, which waits
    /// for a callback under way).
    func closeSound() {
        guard let sound else { return }
        inputs.post(.sound(nil, output: nil))
        sound.close()
        self.sound = nil
    }

    func handle(_ event: SDL_Event) -> ViewerExit? {
        let now = ContinuousClock.now
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            let shift = UInt32(event.key.keysym.mod) & UInt32(KMOD_SHIFT.rawValue) != 0
            guard let key = WindowKeys.key(for: event.key.keysym.sym, shift: shift) else { return nil }
            inputs.post(.key(key, pointer: pointer, at: now))
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: Int(event.button.x), y: Int(event.button.y))
            if event.button.clicks >= 2 {
                pendingClick = nil
                drag = nil
                inputs.post(.command(.toggleZoom(at: point), at: now))
            } else {
                // Zoomed in, a drag pans; it swipes otherwise (as the last frame showed).
                drag = (DragTracker(at: point, seconds: seconds), shown?.isZoomedIn ?? false)
                longPressDeadline = now + Self.longPress
                longPressed = false
            }
        case SDL_MOUSEMOTION:
            guard var current = drag else { return nil }
            let delta = current.tracker.move(to: CGPoint(x: Int(event.motion.x), y: Int(event.motion.y)), seconds: seconds)
            drag = current
            if current.pans, delta != .zero { inputs.post(.command(.pan(delta), at: now)) }
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
                inputs.post(
                    .command(.swipe(translation: finished.tracker.translation, velocity: finished.tracker.velocity(at: seconds)), at: now))
            }
        case SDL_MOUSEWHEEL:
            guard event.wheel.y != 0 else { return nil }
            let factor = pow(ViewerKeymap.standard.zoomStep, Double(event.wheel.y))
            inputs.post(.command(.zoom(by: factor, at: pointer), at: now))
        case SDL_MULTIGESTURE:
            let gesture = event.mgesture
            guard
                let pinch = PinchGesture.command(
                    fingers: Int(gesture.numFingers), distanceChange: Double(gesture.dDist), x: Double(gesture.x), y: Double(gesture.y),
                    viewport: viewport)
            else { return nil }
            inputs.post(.command(pinch, at: now))
        case SDL_USEREVENT:
            break  // outputs are drawn after the events
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                configure()
            case SDL_WINDOWEVENT_EXPOSED:
                inputs.post(.redraw)
            case SDL_WINDOWEVENT_HIDDEN, SDL_WINDOWEVENT_MINIMIZED:
                // Nobody sees an animation now: it stops until the window shows again.
                inputs.post(.hidden(true))
            case SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED:
                inputs.post(.hidden(false))
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

    func configure() {
        let (points, pixels) = renderer.sizes
        viewport = points
        let scale = points.width > 0 ? Double(pixels.width) / Double(points.width) : 1
        inputs.post(.configure(points: points, scale: scale))
    }
}
