#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    // Linux only (rtnetlink, sysfs, /proc). Elsewhere NetworkMonitors.system
    // assumes the network is there; `make check-portable` builds without this file.

    import Foundation
    import SystemSupport

    extension LinuxNetworkMonitor {
        /// Whether `host` can be reached now: for an IP address, whether the
        /// kernel has a route to it (a loopback service stays reachable
        /// without a default route; in a network namespace whose loopback is
        /// down it does not); for a name, the machine's path
        /// (``currentPath()``), since reaching it needs the default route.
        ///
        /// ```swift
        /// if await monitor.canReach(api.base.host ?? "") == false { showCache() }
        /// ```
        public func canReach(_ host: String) async -> Bool {
            let address = host.trimmingCharacters(in: ["[", "]"])
            if IPAddress.isLiteral(address) { return IPAddress.sourceAddress(toward: address) != nil }
            return await currentPath() != .unreachable
        }
    }
#endif
