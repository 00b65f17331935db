import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

/// A fake `/sys/class/net` and route tables, for the classification. Every
/// file is replaced atomically, as the kernel's are generated whole on each
/// read: a poll never sees a half-written table.
struct FakeNetwork {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)").path
    var sysfs: String { "\(root)/sys" }
    var routes: String { "\(root)/route" }
    var routes6: String { "\(root)/ipv6_route" }

    init() throws {
        try FileManager.default.createDirectory(atPath: "\(root)/sys", withIntermediateDirectories: true)
        try setDefaultRoutes([])
        try Data().write(to: URL(fileURLWithPath: routes6), options: .atomic)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    /// An interface with `operstate`, `flags` (IFF_UP when up) and, as asked,
    /// a `wireless` folder or a `uevent` DEVTYPE.
    func interface(_ name: String, up: Bool, wireless: Bool = false, devtype: String? = nil) throws {
        let folder = "\(sysfs)/\(name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("\(up ? "up" : "down")\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/operstate"), options: .atomic)
        try Data("\(up ? "0x1003" : "0x1002")\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/flags"), options: .atomic)
        if wireless { try FileManager.default.createDirectory(atPath: "\(folder)/wireless", withIntermediateDirectories: true) }
        let uevent = "INTERFACE=\(name)\n" + (devtype.map { "DEVTYPE=\($0)\n" } ?? "")
        try Data(uevent.utf8).write(to: URL(fileURLWithPath: "\(folder)/uevent"), options: .atomic)
    }

    /// `/proc/net/route` with a default route through each interface, at
    /// the given metric, plus a local route that is not a default.
    func setDefaultRoutes(_ defaults: [(String, Int)]) throws {
        var table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        for (name, metric) in defaults {
            table += "\(name)\t00000000\t0100A8C0\t0003\t0\t0\t\(metric)\t00000000\t0\t0\t0\n"
            table += "\(name)\t0000A8C0\t00000000\t0001\t0\t0\t\(metric)\t00FFFFFF\t0\t0\t0\n"
        }
        try Data(table.utf8).write(to: URL(fileURLWithPath: routes), options: .atomic)
    }

    /// `/proc/net/ipv6_route` with a default route through `name`.
    func setIPv6Default(_ name: String) throws {
        let zero = String(repeating: "0", count: 32)
        let line = "\(zero) 00 \(zero) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 \(name)\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: routes6), options: .atomic)
    }

    func monitor(_ mode: LinuxNetworkMonitor.Mode = .automatic) -> LinuxNetworkMonitor {
        LinuxNetworkMonitor(mode: mode, sysfsRoot: sysfs, routeTable: routes, ipv6RouteTable: routes6)
    }
}

@Suite("Network paths and their changes")
struct NetworkMonitorTests {
    @Test("the default route's interface decides the path, classified from sysfs")
    func classification() async throws {
        let net = try FakeNetwork()
        defer { net.cleanUp() }
        let monitor = net.monitor()
        try net.interface("lo", up: true)
        try net.interface("eth0", up: true)
        try net.interface("wlan0", up: true, wireless: true)
        try net.interface("wwan0", up: true)
        try net.interface("usb0", up: true, devtype: "wwan")
        try net.interface("rmnet_data0", up: true)
        #expect(await monitor.currentPath() == .unreachable, "interfaces that are up, but no default route")
        try net.setDefaultRoutes([("wlan0", 600)])
        #expect(await monitor.currentPath() == .wifi)
        try net.setDefaultRoutes([("wlan0", 600), ("eth0", 100)])
        #expect(await monitor.currentPath() == .wired, "the lowest metric wins")
        try net.interface("eth0", up: false)
        #expect(await monitor.currentPath() == .wifi, "a default route through a down interface does not count")
        for modem in ["wwan0", "usb0", "rmnet_data0"] {
            try net.setDefaultRoutes([(modem, 0)])
            #expect(await monitor.currentPath() == .cellular, "\(modem)")
        }
        try net.setDefaultRoutes([])
        try net.setIPv6Default("wlan0")
        #expect(await monitor.currentPath() == .wifi, "an IPv6 default route counts")
        #expect(await LinuxNetworkMonitor(sysfsRoot: "/nonexistent", routeTable: "/nonexistent", ipv6RouteTable: "/nonexistent").currentPath() == .unreachable)
    }

    @Test("the polling fallback reports each change once")
    func pollingFallback() async throws {
        let net = try FakeNetwork()
        defer { net.cleanUp() }
        try net.interface("eth0", up: true)
        try net.interface("wlan0", up: true, wireless: true)
        let seen = Mutex<[NetworkPath]>([])
        let watcher = Task {
            for await path in net.monitor(.polling(.milliseconds(20))).pathUpdates() { seen.withLock { $0.append(path) } }
        }
        defer { watcher.cancel() }
        try await waitUntil("the first path, seen \(seen.withLock { $0 })") { seen.withLock { $0 } == [.unreachable] }
        try net.setDefaultRoutes([("wlan0", 600)])
        try await waitUntil("Wi-Fi, seen \(seen.withLock { $0 })") { seen.withLock { $0 } == [.unreachable, .wifi] }
        try net.setDefaultRoutes([("eth0", 100), ("wlan0", 600)])
        try await waitUntil("wired, seen \(seen.withLock { $0 })") { seen.withLock { $0 } == [.unreachable, .wifi, .wired] }
        try net.interface("eth0", up: false)
        try await waitUntil("back to Wi-Fi, seen \(seen.withLock { $0 })") { seen.withLock { $0 } == [.unreachable, .wifi, .wired, .wifi] }
        watcher.cancel()
        await watcher.value
    }

    @Test("the system monitor is the Linux one here; a fixed monitor reports its path, and its updates end with the task")
    func systemAndFixed() async {
        #expect(NetworkMonitors.system is LinuxNetworkMonitor)
        let fixed = FixedNetworkMonitor(path: .wired)
        #expect(await fixed.currentPath() == .wired)
        let first = await Task {
            var paths = fixed.pathUpdates().makeAsyncIterator()
            return await paths.next()
        }.value
        #expect(first == .wired)
        let waiting = Task {
            var count = 0
            for await _ in fixed.pathUpdates() { count += 1 }
            return count
        }
        waiting.cancel()
        #expect(await waiting.value <= 1)
    }
}
