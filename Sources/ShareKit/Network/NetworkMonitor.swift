import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How the device reaches the network.
public enum NetworkPath: String, Hashable, Sendable {
    /// No usable interface.
    case unreachable
    /// Wi-Fi.
    case wifi
    /// A mobile data connection.
    case cellular
    /// Ethernet or another wired link.
    case wired
}

/// Reports the network path. ``SysfsNetworkMonitor`` reads Linux's
/// `/sys/class/net`; ShareKitTesting's `FakeNetworkMonitor` is scripted.
public protocol NetworkMonitor: Sendable {
    /// The path now.
    func currentPath() async -> NetworkPath
}

/// Linux network paths from `/sys/class/net`: an interface that is up and
/// not loopback counts; Wi-Fi has a `wireless` entry, cellular modems are
/// named `wwan*`, `rmnet*` or `ppp*`; anything else is wired. The best
/// path wins (wired, then Wi-Fi, then cellular).
public struct SysfsNetworkMonitor: NetworkMonitor {
    /// The sysfs folder (replaceable in tests).
    public let root: String

    /// Creates a monitor.
    public init(root: String = "/sys/class/net") { self.root = root }

    public func currentPath() async -> NetworkPath { path() }

    /// The path, read synchronously.
    public func path() -> NetworkPath {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return .unreachable }
        var paths: Set<NetworkPath> = []
        for name in names where name != "lo" {
            let folder = "\(root)/\(name)"
            let state = (try? String(contentsOfFile: "\(folder)/operstate", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            guard state == "up" else { continue }
            if FileManager.default.fileExists(atPath: "\(folder)/wireless") || FileManager.default.fileExists(atPath: "\(folder)/phy80211") {
                paths.insert(.wifi)
            } else if ["wwan", "rmnet", "ppp"].contains(where: name.hasPrefix) {
                paths.insert(.cellular)
            } else {
                paths.insert(.wired)
            }
        }
        return [.wired, .wifi, .cellular].first(where: paths.contains) ?? .unreachable
    }
}

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
