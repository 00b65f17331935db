#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    // Linux only (rtnetlink, sysfs, /proc). Elsewhere NetworkMonitors.system
    // assumes the network is there; `make check-portable` builds without this file.

    import CNetlink
    import Execution
    import Foundation
    import SystemSupport

    /// The network path on Linux, and its changes as they happen.
    ///
    /// The path is the interface of the default route (the lowest metric one
    /// that is up), classified from sysfs: Wi-Fi when the device is wireless,
    /// cellular for modems (`DEVTYPE=wwan`, `wwan*`, `rmnet*`, `ppp*`), wired
    /// otherwise; `.unreachable` with no default route. Changes come from an
    /// rtnetlink socket (link, address and route events); where netlink is not
    /// allowed (some sandboxes), or with ``Mode/polling(_:)``, the state is
    /// read again every interval instead.
    ///
    /// ```swift
    /// let monitor = LinuxNetworkMonitor()
    /// for await path in monitor.pathUpdates() { print("now on", path) }
    /// ```
    public struct LinuxNetworkMonitor: NetworkMonitor {
        /// How changes are noticed.
        public enum Mode: Hashable, Sendable {
            /// rtnetlink events, or polling every two seconds where netlink
            /// cannot be opened.
            case automatic
            /// Reading the state every interval.
            case polling(Duration)
        }

        private let interfaces: NetworkInterfaces
        private let mode: Mode

        /// A monitor of this machine. `sysfsRoot` and the route tables can point
        /// at other files (tests, containers).
        public init(
            mode: Mode = .automatic, sysfsRoot: String = "/sys/class/net", routeTable: String = "/proc/net/route",
            ipv6RouteTable: String = "/proc/net/ipv6_route"
        ) {
            interfaces = NetworkInterfaces(sysfsRoot: sysfsRoot, routeTable: routeTable, ipv6RouteTable: ipv6RouteTable)
            self.mode = mode
        }

        public func currentPath() async -> NetworkPath { interfaces.currentPath() }

        /// The path now, then each change, until the iterating task is
        /// cancelled (which stops the watching thread).
        public func pathUpdates() -> AsyncStream<NetworkPath> {
            let (stream, continuation) = AsyncStream<NetworkPath>.makeStream(bufferingPolicy: .bufferingNewest(16))
            guard let (wakeRead, wakeWrite) = try? Descriptor.wakePair() else {
                continuation.yield(interfaces.currentPath())
                continuation.finish()
                return stream
            }
            // Closing the write end wakes the thread (POLLHUP), which then
            // closes the read end and its netlink socket.
            continuation.onTermination = { _ in Descriptor.close(wakeWrite) }
            let (interfaces, mode) = (self.interfaces, self.mode)
            FloorThread.start(named: "PhotoDeck network monitor") {
                Self.watch(interfaces, mode: mode, wake: wakeRead, continuation: continuation)
                Descriptor.close(wakeRead)
            }
            return stream
        }

        /// The watching thread: yields the path whenever it changes.
        private static func watch(_ interfaces: NetworkInterfaces, mode: Mode, wake: Int32, continuation: AsyncStream<NetworkPath>.Continuation) {
            var netlink: Int32 = -1
            if mode == .automatic { netlink = pd_netlink_open() }
            defer { Descriptor.close(netlink) }
            let interval: Duration = if case .polling(let every) = mode { every } else { .seconds(2) }
            let intervalMilliseconds = Int32(clamping: interval.wholeMilliseconds)

            var last = interfaces.currentPath()
            continuation.yield(last)
            while true {
                let waited: Int32
                if netlink >= 0 {
                    waited = pd_netlink_wait(netlink, wake, -1)
                } else {
                    // Polling: wait for the interval, or the wake-up.
                    waited = pd_netlink_wait(wake, -1, max(1, intervalMilliseconds)) == 1 ? 2 : 0
                }
                if waited == 2 || waited < 0 { break }
                if waited == 1 { _ = pd_netlink_drain(netlink) }
                let path = interfaces.currentPath()
                if path != last {
                    last = path
                    continuation.yield(path)
                }
            }
            continuation.finish()
        }
    }
#endif
