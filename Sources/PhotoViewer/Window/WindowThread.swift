import CSDL2
import Foundation
import ImageCodecs
import Synchronization

/// What the window's SDL thread reports to the viewer's loop: input,
/// already read off SDL's structures (points, clicks, the pointer), and the
/// frames it presented.
enum WindowInput: Sendable {
    /// The window is open: its renderer in words, its size in points and pixels.
    case opened(description: String, points: CGSize, pixels: PixelSize)
    /// The window could not open.
    case failed(WindowError)
    /// A key the viewer knows, with the pointer (the centre when it is outside).
    case key(ViewerKey, pointer: CGPoint, at: ContinuousClock.Instant)
    /// The left button went down (`clicks` 2 for a double click).
    case buttonDown(CGPoint, clicks: Int, at: ContinuousClock.Instant)
    /// The pointer moved.
    case motion(CGPoint, at: ContinuousClock.Instant)
    /// The left button came up.
    case buttonUp(clicks: Int, at: ContinuousClock.Instant)
    /// The wheel turned `steps` (up is positive) at `pointer`.
    case wheel(steps: Int, pointer: CGPoint, at: ContinuousClock.Instant)
    /// A multi-finger gesture.
    case pinch(fingers: Int, distanceChange: Double, x: Double, y: Double, at: ContinuousClock.Instant)
    /// The window's size changed.
    case resized(points: CGSize, pixels: PixelSize)
    /// The window must be drawn again (uncovered).
    case exposed
    /// The person closed the window.
    case quit
    /// A frame was presented: what it showed, the input it answered and how
    /// long its upload and present took.
    case presented(ViewerFrame, after: ContinuousClock.Instant?, at: ContinuousClock.Instant, upload: Duration, present: Duration)
    /// A single click's wait for a second click ran out (``WindowViewer`` numbers them).
    case clickTimeout(Int)
}

/// What the viewer's loop asks of the SDL thread. It is posted without
/// waiting: the thread wakes on an SDL user event, draws the newest frame
/// (older ones still waiting are dropped) and reports ``WindowInput/presented``.
final class WindowMailbox: Sendable {
    private struct State {
        var frame: (ViewerFrame, after: ContinuousClock.Instant?)?
        var fullScreenToggles = 0
        var stop = false
        var wakeEvent: UInt32?
    }
    private let state = Mutex(State())

    /// Asks for `frame` to be drawn; an undrawn older frame is replaced, and
    /// keeps the earlier input time (the latency counts from the first key).
    func draw(_ frame: ViewerFrame, after input: ContinuousClock.Instant?) {
        post { state in
            let earliest = [state.frame?.after, input].compactMap { $0 }.min()
            state.frame = (frame, earliest)
        }
    }

    /// Asks for full screen to be toggled.
    func toggleFullScreen() { post { $0.fullScreenToggles += 1 } }

    /// Asks the thread to close the window and return.
    func stop() { post { $0.stop = true } }

    /// The SDL thread's part: what was asked since the last call.
    func take() -> (frame: (ViewerFrame, after: ContinuousClock.Instant?)?, fullScreenToggles: Int, stop: Bool) {
        state.withLock { state in
            defer {
                state.frame = nil
                state.fullScreenToggles = 0
            }
            return (state.frame, state.fullScreenToggles, state.stop)
        }
    }

    /// Called on the SDL thread once the event type is registered: posts
    /// made before it are delivered by the first wake-up.
    func attach(wakeEvent: UInt32) {
        state.withLock { $0.wakeEvent = wakeEvent }
        wake(wakeEvent)
    }

    private func post(_ change: (inout State) -> Void) {
        let wakeEvent = state.withLock { state in
            change(&state)
            return state.wakeEvent
        }
        if let wakeEvent { wake(wakeEvent) }
    }

    /// `SDL_PushEvent` is thread-safe (SDL's documentation says so): it
    /// wakes the thread's `SDL_WaitEventTimeout`.
    private func wake(_ type: UInt32) {
        var event = SDL_Event()
        event.type = type
        _ = SDL_PushEvent(&event)
    }
}

/// The SDL thread: opens the window, turns SDL's events into
/// ``WindowInput``s and draws what the mailbox asks. Every SDL call stays
/// on this thread; it never waits for the viewer's loop.
enum WindowThread {
    static func run(options: WindowViewer.Options, mailbox: WindowMailbox, input: AsyncStream<WindowInput>.Continuation) {
        defer { input.finish() }
        let renderer: WindowRenderer
        do {
            let size = (max(64, Int(options.size.width)), max(64, Int(options.size.height)))
            renderer = try WindowRenderer(title: "PhotoDeck", size: size, rendering: options.rendering)
        } catch {
            input.yield(.failed(error))
            return
        }
        let wakeEvent = SDL_RegisterEvents(1)
        guard wakeEvent != UInt32.max else {
            input.yield(.failed(.noRenderer("SDL has no user event left to wake the window's thread")))
            return
        }
        let (points, pixels) = renderer.sizes
        input.yield(.opened(description: renderer.rendererDescription, points: points, pixels: pixels))
        // A black frame while the first page decodes: the window's
        // framebuffer (8 MB of shared memory at 1920x1080) is made and
        // touched now, not on the first photo's frame.
        renderer.presentBlank()
        mailbox.attach(wakeEvent: wakeEvent)
        var event = SDL_Event()
        while true {
            guard SDL_WaitEventTimeout(&event, 500) != 0 else { continue }
            if event.type == wakeEvent {
                let asked = mailbox.take()
                for _ in 0..<asked.fullScreenToggles { renderer.toggleFullScreen() }
                if let (frame, after) = asked.frame {
                    let timing = renderer.draw(frame)
                    input.yield(.presented(frame, after: after, at: .now, upload: timing.upload, present: timing.present))
                }
                if asked.stop { return }
                continue
            }
            if let translated = translate(event, renderer: renderer) { input.yield(translated) }
        }
    }

    /// The input `event` stands for, or `nil` for one the viewer ignores.
    static func translate(_ event: SDL_Event, renderer: WindowRenderer) -> WindowInput? {
        let now = ContinuousClock.now
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            let shift = UInt32(event.key.keysym.mod) & UInt32(KMOD_SHIFT.rawValue) != 0
            guard let key = WindowKeys.key(for: event.key.keysym.sym, shift: shift) else { return nil }
            return .key(key, pointer: pointer(in: renderer), at: now)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .buttonDown(CGPoint(x: Int(event.button.x), y: Int(event.button.y)), clicks: Int(event.button.clicks), at: now)
        case SDL_MOUSEMOTION:
            return .motion(CGPoint(x: Int(event.motion.x), y: Int(event.motion.y)), at: now)
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .buttonUp(clicks: Int(event.button.clicks), at: now)
        case SDL_MOUSEWHEEL:
            guard event.wheel.y != 0 else { return nil }
            return .wheel(steps: Int(event.wheel.y), pointer: pointer(in: renderer), at: now)
        case SDL_MULTIGESTURE:
            let gesture = event.mgesture
            return .pinch(fingers: Int(gesture.numFingers), distanceChange: Double(gesture.dDist), x: Double(gesture.x), y: Double(gesture.y), at: now)
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                let (points, pixels) = renderer.sizes
                return .resized(points: points, pixels: pixels)
            case SDL_WINDOWEVENT_EXPOSED: return .exposed
            case SDL_WINDOWEVENT_CLOSE: return .quit
            default: return nil
            }
        default: return nil
        }
    }

    /// The pointer in points, or the centre when it is outside the window.
    static func pointer(in renderer: WindowRenderer) -> CGPoint {
        var x: Int32 = 0
        var y: Int32 = 0
        SDL_GetMouseState(&x, &y)
        guard SDL_GetMouseFocus() == renderer.window else {
            let points = renderer.sizes.points
            return CGPoint(x: points.width / 2, y: points.height / 2)
        }
        return CGPoint(x: Int(x), y: Int(y))
    }
}
