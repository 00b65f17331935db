#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    // Linux only (rtnetlink, sysfs, /proc). Elsewhere NetworkMonitors.system
    // assumes the network is there; `make check-portable` builds without this file.

    import Foundation

    /// Reads which interface carries the default route (`/proc/net/route`,
    /// `/proc/net/ipv6_route`) and what kind of link it is (`/sys/class/net`).
    /// The folders are parameters so tests can give fake trees.
    struct NetworkInterfaces: Sendable {
        let sysfsRoot: String
        let routeTable: String
        let ipv6RouteTable: String

        /// The path the default route takes now: the default route with the
        /// lowest metric whose interface is up, classified; `.unreachable`
        /// without one.
        func currentPath() -> NetworkPath {
            for interface in defaultRouteInterfaces() where isUp(interface) {
                return kind(of: interface)
            }
            return .unreachable
        }

        /// Interfaces with a default route (IPv4, then IPv6), lowest metric first.
        func defaultRouteInterfaces() -> [String] {
            var routes: [(interface: String, metric: Int)] = []
            // /proc/net/route: Iface Destination Gateway Flags RefCnt Use Metric Mask ...
            // (hex, host byte order); a default route has destination and mask 0.
            if let table = FileText.read(routeTable) {
                for line in table.split(separator: "\n").dropFirst() {
                    let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
                    guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                        let flags = Int(fields[3], radix: 16), flags & 0x1 != 0, let metric = Int(fields[6])
                    else { continue }
                    routes.append((String(fields[0]), metric))
                }
            }
            // /proc/net/ipv6_route: destination prefix-length source source-length
            // next-hop metric refcount use flags interface; a default route is ::/0.
            if let table = FileText.read(ipv6RouteTable) {
                for line in table.split(separator: "\n") {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard fields.count >= 10, fields[0] == String(repeating: "0", count: 32), fields[1] == "00",
                        let metric = Int(fields[5], radix: 16), let flags = Int(fields[8], radix: 16), flags & 0x1 != 0,
                        fields[9] != "lo"
                    else { continue }
                    // The kernel lists unreachable default routes too (RTF_REJECT).
                    guard flags & 0x0200 == 0 else { continue }
                    routes.append((String(fields[9]), metric))
                }
            }
            var seen: Set<String> = []
            return routes.sorted { $0.metric < $1.metric }.map(\.interface).filter { seen.insert($0).inserted }
        }

        /// Whether the interface is administratively up and its link is not down.
        func isUp(_ interface: String) -> Bool {
            let folder = "\(sysfsRoot)/\(interface)"
            let state = read("\(folder)/operstate")
            // Point-to-point links (ppp, tun, many modems) report "unknown".
            guard state == "up" || state == "unknown" else { return false }
            guard let flags = read("\(folder)/flags").flatMap({ Int($0.dropFirst(2), radix: 16) }) else { return state == "up" }
            return flags & 0x1 != 0  // IFF_UP
        }

        /// Wi-Fi when the kernel says the device is wireless, cellular for
        /// modems (`DEVTYPE=wwan`, or the names modem drivers use), else wired.
        func kind(of interface: String) -> NetworkPath {
            let folder = "\(sysfsRoot)/\(interface)"
            if FileManager.default.fileExists(atPath: "\(folder)/wireless") || FileManager.default.fileExists(atPath: "\(folder)/phy80211") {
                return .wifi
            }
            let uevent = read("\(folder)/uevent") ?? ""
            if uevent.split(separator: "\n").contains(where: { $0 == "DEVTYPE=wlan" }) { return .wifi }
            if uevent.split(separator: "\n").contains(where: { $0 == "DEVTYPE=wwan" }) { return .cellular }
            if ["wwan", "rmnet", "ppp", "ccmni", "usb-modem", "qmimux"].contains(where: interface.hasPrefix) { return .cellular }
            return .wired
        }

        private func read(_ path: String) -> String? {
            FileText.read(path)?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
#endif
