import CSDL2
import Foundation
import SystemSupport
import VideoCodecs

/// SDL's audio device for the window's videos: 48 kHz stereo 16-bit (SDL
/// converts to what the hardware takes), 1,024-sample buffers, filled on
/// SDL's audio thread from a ``SoundQueue``. Opened on the window's thread;
/// closed there before the queue is released (closing waits for a callback
/// under way). The controller may still hold it for a moment after the
/// window closed it (it hears of the close through the window's mailbox):
/// every call after ``close()`` does nothing.
final class WindowSound: ViewerSoundOutput {
    /// The format asked for (and, with no changes allowed, the one SDL takes from us).
    static let format = AudioFormat.stereo48k
    static let bufferFrames = 1_024

    let queue: SoundQueue
    let device: SDL_AudioDeviceID
    /// Whether ``close()`` ran; held while a call reaches the device.
    private let closed = Lock(false)
    /// What the device is (the driver's name), for the statistics.
    let description: String

    /// Why no device opened: SDL's reason.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens the default output device, or says why there is none.
    static func open() -> Result<WindowSound, Unavailable> {
        // The audio subsystem is this object's: initialised here (counted by SDL) and quit when the device
        // closes, or at once when none opens; left running, its device-detection thread would still be
        // at work while the process exits.
        guard SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0 else {
            return .failure(Unavailable(description: String(cString: SDL_GetError())))
        }
        // Two buffers are with the device before a sample is heard (ffplay's estimate).
        let latency = Self.format.duration(ofFrames: 2 * Self.bufferFrames)
        let queue = SoundQueue(format: Self.format, latency: latency)
        var desired = SDL_AudioSpec()
        desired.freq = Int32(Self.format.sampleRate)
        desired.format = SDL_AudioFormat(AUDIO_S16SYS)
        desired.channels = UInt8(Self.format.channels)
        desired.samples = UInt16(Self.bufferFrames)
        desired.callback = { userdata, stream, length in
            guard let userdata, let stream, length > 0 else { return }
            // The queue outlives the device: WindowSound closes the device (which waits for this
            // callback) before it releases the queue it holds.
            let queue = Unmanaged<SoundQueue>.fromOpaque(userdata).takeUnretainedValue()
            let count = Int(length) / MemoryLayout<Int16>.size
            let samples = UnsafeMutableRawPointer(stream).bindMemory(to: Int16.self, capacity: count)
            queue.pull(into: UnsafeMutableBufferPointer(start: samples, count: count), at: .now)
        }
        desired.userdata = Unmanaged.passUnretained(queue).toOpaque()
        var obtained = SDL_AudioSpec()
        let device = SDL_OpenAudioDevice(nil, 0, &desired, &obtained, 0)
        guard device != 0 else {
            let reason = String(cString: SDL_GetError())
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            return .failure(Unavailable(description: reason))
        }
        let driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
        return .success(WindowSound(queue: queue, device: device, description: "sound \(driver) \(Self.format)"))
    }

    private init(queue: SoundQueue, device: SDL_AudioDeviceID, description: String) {
        self.queue = queue
        self.device = device
        self.description = description
    }

    func setRunning(_ running: Bool) {
        closed.withLock { closed in
            guard !closed else { return }
            SDL_PauseAudioDevice(device, running ? 0 : 1)
        }
    }

    /// Closes the device (waits for a callback under way) and quits the
    /// audio subsystem it opened, once; on the window's thread.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            SDL_CloseAudioDevice(device)
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
        }
    }
}
