import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// LinuxNetworkMonitor against a real kernel: `netwatch` runs in a private
/// network namespace (`unshare -rnm`, with its own sysfs), where a shell
/// adds a veth link and a default route, takes them down and up, and the
/// monitor must report each change.
@Suite("LinuxNetworkMonitor in a private network namespace", .serialized)
struct NetworkNamespaceTests {
    /// A shell in a new user, network and mount namespace, fed commands one
    /// at a time; everything it and its children print is collected.
    final class NamespaceShell: Sendable {
        private let process = Process()
        private let input = Pipe()
        private final class Lines: Sendable { let value = Mutex<[String]>([]) }
        private let lines = Lines()

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["-rnm", "sh", "-s"]
            process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            signal(SIGPIPE, SIG_IGN)
            try process.run()
            let lines = self.lines
            let reader = Thread {
                var pending = ""
                while true {
                    let chunk = (try? bytes(availableFrom: output.fileHandleForReading)) ?? []
                    if chunk.isEmpty { return }
                    pending += String(decoding: chunk, as: UTF8.self)
                    while let newline = pending.firstIndex(of: "\n") {
                        let line = String(pending[..<newline])
                        pending = String(pending[pending.index(after: newline)...])
                        lines.value.withLock { $0.append(line) }
                    }
                }
            }
            reader.start()
        }

        var output: [String] { lines.value.withLock { $0 } }

        /// The lines `netwatch` printed.
        var paths: [String] { output.filter { ["unreachable", "wired", "wifi", "cellular"].contains($0) } }

        func run(_ command: String) throws { try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8)) }

        /// Runs `command`, then waits until the shell has printed `marker`.
        func run(_ command: String, until marker: String) async throws {
            try run("\(command) && echo \(marker) || echo FAILED: \(marker)")
            try await waitUntil("\(marker) (output so far: \(output))") { output.contains(marker) || output.contains("FAILED: \(marker)") }
            #expect(!output.contains("FAILED: \(marker)"), "\(output)")
        }

        func finish() async throws {
            try? run("kill $NW 2>/dev/null; wait; exit")
            try? input.fileHandleForWriting.close()
            let process = self.process
            try await offPool { process.waitUntilExit() }
        }
    }

    @Test("a link and a default route coming and going are reported as they happen", arguments: ["netlink", "polling"])
    func linkAndRouteChanges(_ mode: String) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "util-linux's unshare is needed")
        try #require(["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].contains { FileManager.default.isExecutableFile(atPath: $0) }, "iproute2 is needed")
        let shell = try NamespaceShell()
        try await shell.run("mount -t sysfs sysfs /sys", until: "sysfs-mounted")
        try shell.run("'\(ExampleProcess.executable("netwatch").path)' \(mode == "polling" ? "--poll" : "") & NW=$!")
        try await waitUntil("the first path") { shell.paths == ["unreachable"] }
        try await shell.run(
            "ip link add v0 type veth peer name v1 && ip link set v1 up && ip link set v0 up && ip addr add 10.9.0.2/24 dev v0"
                + " && ip route add default via 10.9.0.1 dev v0", until: "route-up")
        try await waitUntil("wired after the default route") { shell.paths == ["unreachable", "wired"] }
        try await shell.run("ip link set v0 down", until: "link-down")
        try await waitUntil("unreachable with the link down") { shell.paths == ["unreachable", "wired", "unreachable"] }
        try await shell.run("ip link set v0 up && ip route replace default via 10.9.0.1 dev v0", until: "link-up")
        try await waitUntil("wired again") { shell.paths == ["unreachable", "wired", "unreachable", "wired"] }
        try await shell.run("ip route del default", until: "route-deleted")
        try await waitUntil("unreachable without a default route") { shell.paths == ["unreachable", "wired", "unreachable", "wired", "unreachable"] }
        try await shell.finish()
        #expect(shell.paths == ["unreachable", "wired", "unreachable", "wired", "unreachable"], "\(shell.output)")
    }
}
