/// Which way a camera faces.
public enum CameraPosition: String, Hashable, Sendable {
    /// Towards the user.
    case front
    /// Away from the user.
    case rear
    /// A separate camera (a USB webcam).
    case external
}

/// A camera the system reports.
public struct CaptureDeviceInfo: Hashable, Sendable, Identifiable {
    /// A stable identifier (on Linux, the device node path).
    public let id: String
    /// The name the driver gives.
    public let name: String
    /// Which way it faces, as far as its name tells.
    public let position: CameraPosition
    /// Why it cannot capture stills, or `nil` when it can.
    public let problem: String?

    /// Creates a description.
    public init(id: String, name: String, position: CameraPosition, problem: String? = nil) {
        self.id = id
        self.name = name
        self.position = position
        self.problem = problem
    }

    /// Whether the device can capture stills.
    public var canCapture: Bool { problem == nil }
}

/// The cameras a platform offers. Conform to plug in another backend (or a
/// fake in tests); ``V4L2Camera`` is the Linux one.
public protocol CaptureDeviceProvider: Sendable {
    /// Every camera the system reports, usable or not.
    func devices() -> [CaptureDeviceInfo]
    /// Captures one still from the device with `id`, as an encoded image
    /// (JPEG), at about `size`.
    func captureStill(from id: String, near width: Int, _ height: Int) async throws(CameraError) -> [UInt8]
}

extension CaptureDeviceProvider {
    /// The first usable camera facing `position`, or the first usable one.
    public func preferredDevice(facing position: CameraPosition? = nil) -> CaptureDeviceInfo? {
        let usable = devices().filter(\.canCapture)
        return usable.first { $0.position == position } ?? usable.first
    }
}

/// The camera as a ``PhotoSource``: available when a usable device exists.
public struct CameraSource: PhotoSource {
    /// The backend that lists and drives the cameras.
    public let provider: any CaptureDeviceProvider

    /// Wraps a backend (by default ``systemProvider``).
    public init(provider: any CaptureDeviceProvider = CameraSource.systemProvider) {
        self.provider = provider
    }

    /// This system's cameras: ``V4L2Camera`` on Linux; elsewhere
    /// ``NoCaptureDevices`` (PhotoDeck has no camera backend there yet).
    public static var systemProvider: any CaptureDeviceProvider {
        #if os(Linux) && !PHOTODECK_NO_LINUX_APIS
            V4L2Camera()
        #else
            NoCaptureDevices()
        #endif
    }

    public var kind: PhotoSourceKind { .camera }

    public func availability() async -> SourceAvailability {
        let devices = provider.devices()
        if devices.contains(where: \.canCapture) { return .available }
        if let problem = devices.compactMap(\.problem).first {
            return .unavailable(reason: "no camera can capture (\(problem))")
        }
        return .unavailable(reason: "no camera is connected")
    }
}
