import CSDL2
import SystemSupport

/// Wakes a window's event wait from another thread with an SDL user
/// event, only while the window is open (`SDL_PushEvent` is thread-safe;
/// the lock keeps a post from racing the video subsystem's shutdown).
final class WindowWakes: Sendable {
    private let isOpen = Lock(false)

    /// The window is open: posts reach it.
    func open() { isOpen.withLock { $0 = true } }

    /// The window is closing: posts are dropped.
    func close() { isOpen.withLock { $0 = false } }

    /// Posts one wake-up if the window is open.
    func post() {
        isOpen.withLock { open in
            guard open else { return }
            var event = SDL_Event()
            event.type = SDL_USEREVENT.rawValue
            _ = SDL_PushEvent(&event)
        }
    }
}
