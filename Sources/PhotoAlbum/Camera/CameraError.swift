/// Everything that can go wrong with a camera.
public enum CameraError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No usable camera is there.
    case unavailable(reason: String)
    /// The device exists but capturing failed; `reason` is the system's word.
    case captureFailed(device: String, reason: String)
    /// A frame arrived but could not be turned into an image.
    case badFrame(device: String, reason: String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "no camera is available: \(reason)"
        case .captureFailed(let device, let reason): "capturing from \(device) failed: \(reason)"
        case .badFrame(let device, let reason): "\(device) sent a frame that is not a usable image: \(reason)"
        }
    }
}
