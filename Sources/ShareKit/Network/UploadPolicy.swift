/// When large uploads may go: a policy can hold them until Wi-Fi (or wired).
public struct UploadPolicy: Hashable, Sendable {
    /// Uploads of at least this many bytes wait for Wi-Fi or wired.
    public var largeUploadBytes: Int?

    /// Creates a policy; `nil` sends everything on any network.
    public init(holdUploadsLargerThan bytes: Int? = nil) { largeUploadBytes = bytes }

    /// Whether an upload of `bytes` may go on `path`.
    public func allows(bytes: Int, on path: NetworkPath) -> Bool {
        switch path {
        case .unreachable: false
        case .wifi, .wired: true
        case .cellular: largeUploadBytes.map { bytes < $0 } ?? true
        }
    }
}
