/// A system without cameras PhotoDeck can drive: ``devices()`` is empty, so
/// ``CameraSource`` reports the camera unavailable and a picker offers the
/// library instead. The default off Linux, and a stand-in for tests.
public struct NoCaptureDevices: CaptureDeviceProvider {
    /// A provider with no cameras.
    public init() {}

    public func devices() -> [CaptureDeviceInfo] { [] }

    public func captureStill(from id: String, near width: Int, _ height: Int) async throws(CameraError) -> [UInt8] {
        throw .unavailable(reason: "this system has no camera PhotoDeck can use")
    }
}
