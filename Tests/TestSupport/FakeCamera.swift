import ImageCodecs
public import PhotoAlbum

/// A camera backend for tests: a scripted list of devices, and a capture
/// that returns a fixed image or fails with a fixed error.
public struct FakeCamera: CaptureDeviceProvider {
    /// The devices the backend reports.
    public let list: [CaptureDeviceInfo]
    /// What capturing gives.
    public let capture: Result<[UInt8], CameraError>

    /// A backend with `devices` whose captures give `capture`.
    public init(devices: [CaptureDeviceInfo], capture: Result<[UInt8], CameraError>) {
        list = devices
        self.capture = capture
    }

    /// One rear camera, "Test camera" (`cam0`), that captures `jpeg`.
    public init(capturing jpeg: [UInt8]) {
        self.init(devices: [CaptureDeviceInfo(id: "cam0", name: "Test camera", position: .rear)], capture: .success(jpeg))
    }

    /// `devices`, none of which can capture a still.
    public init(devices: [CaptureDeviceInfo]) {
        self.init(devices: devices, capture: .failure(.captureFailed(device: devices.first?.id ?? "none", reason: "fake")))
    }

    public func devices() -> [CaptureDeviceInfo] { list }

    public func captureStill(from id: String, near width: Int, _ height: Int) async throws(CameraError) -> [UInt8] {
        try capture.get()
    }
}
