import DesktopNotifications
import FakeWeibo
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Desktop notifications as a person gets them: a private session bus, a
/// real notification daemon from Debian (dunst, under Xvfb), and
/// dbus-monitor reading what weibo-client sent.
@Suite(
    "desktop notifications over D-Bus (dunst under Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("dunst") && ViewerHarness.has("dbus-daemon") && ViewerHarness.has("dbus-monitor")))
struct DesktopNotificationTests {
    /// A started child process, killed at the end.
    final class Child: Sendable {
        let process: Process
        init(_ arguments: [String], environment: [String: String] = [:], output: FileHandle? = nil) throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = output ?? FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        /// SIGKILL, not waited for (Foundation reaps the child): waiting would block a thread of the shared pool.
        func stop() { kill(process.processIdentifier, SIGKILL) }
    }

    /// A session bus of its own; its address.
    static func startBus(in folder: String) async throws -> (Child, String) {
        let addressFile = folder + "/bus-address"
        _ = FileManager.default.createFile(atPath: addressFile, contents: nil)
        let bus = try Child(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path=\(folder)/bus"],
            output: try FileHandle(forWritingTo: URL(fileURLWithPath: addressFile)))
        var address = ""
        try await waitUntil("the session bus to print its address", timeout: .seconds(30)) {
            let text = (try? fileBytes(URL(fileURLWithPath: addressFile), limit: 4_096)).map { String(decoding: $0, as: UTF8.self) }
            address = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return !address.isEmpty
        }
        return (bus, address)
    }

    @Test("weibo-client watch notifies each new mention through dunst once; the post's markup arrives escaped, its controls written out")
    func watchNotifies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let screen = try await ViewerHarness.XServer(size: "640x480x24")
        defer { screen.stop() }
        let (bus, address) = try await Self.startBus(in: folder)
        defer { bus.stop() }
        let dunst = try Child(["dunst"], environment: ["DISPLAY": screen.display, "DBUS_SESSION_BUS_ADDRESS": address, "HOME": folder])
        defer { dunst.stop() }
        let monitorFile = folder + "/monitor.txt"
        _ = FileManager.default.createFile(atPath: monitorFile, contents: nil)
        let monitor = try Child(
            ["dbus-monitor", "--address", address, "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
            output: try FileHandle(forWritingTo: URL(fileURLWithPath: monitorFile)))
        defer { monitor.stop() }
        func monitored() -> String { String(decoding: (try? fileBytes(URL(fileURLWithPath: monitorFile), limit: 1 << 20)) ?? [], as: UTF8.self) }
        // dbus-monitor prints its own connection's NameAcquired once it listens.
        try await waitUntil("dbus-monitor to listen", timeout: .seconds(30)) { monitored().contains("NameAcquired") || monitored().contains("NameLost") }
        try await waitUntil("dunst to own org.freedesktop.Notifications", timeout: .seconds(30)) {
            try await offPool { () throws -> Bool in
                let gdbus = Process()
                gdbus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                gdbus.arguments = [
                    "gdbus", "call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
                    "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications",
                ]
                let output = Pipe()
                gdbus.standardOutput = output
                gdbus.standardError = FileHandle.nullDevice
                try gdbus.run()
                let text = String(decoding: try bytes(readingToEndOf: output.fileHandleForReading, limit: 4_096), as: UTF8.self)
                gdbus.waitUntilExit()
                return text.contains("true")
            }
        }

        let run = try WeiboClientCommandTests.Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        var result = try await run(["watch", "--once"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        let hostile = "@小明 <b>bold</b> <a href=\"https://evil.example\">click</a> & \u{1B}[31mred"
        let mention = run.fake.addPosts(1, by: "1750000002", text: hostile)[0]
        result = try await run(["watch", "--once"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("mention  \(mention)  @Alice:"))
        #expect(!result.standardOutput.contains("\u{1B}"))
        #expect(!result.standardError.contains("notification"), "\(result.standardError)")
        try await waitUntil("the Notify call on the bus", timeout: .seconds(30)) { monitored().contains("@Alice mentioned you") }
        let call = monitored()
        #expect(call.contains("&lt;b&gt;bold&lt;/b&gt;") && call.contains("&lt;a href=&quot;https://evil.example&quot;&gt;") && call.contains("&amp;"))
        #expect(!call.contains("<b>") && !call.contains("<a "))
        #expect(call.contains("\\u{1B}[31mred"), "the escape is written out, not sent")
        // Once: a third run notifies nothing new.
        result = try await run(["watch", "--once"], environment: environment)
        #expect(!result.standardOutput.contains("mention  \(mention)"))
        #expect(monitored().components(separatedBy: "@Alice mentioned you").count == 2)
    }

    @Test("a notification's text is made safe: one-line summary, markup escaped, controls written out, lengths capped")
    func safety() {
        let note = DesktopNotification(summary: "line one\nline two\u{202E}", body: "<i>x</i> & 'y' \"z\"\n\u{07}" + String(repeating: "长", count: 2_000))
        #expect(!note.summary.contains("\n") && !note.summary.unicodeScalars.contains("\u{202E}"))
        #expect(note.body.hasPrefix("&lt;i&gt;x&lt;/i&gt; &amp; &#39;y&#39; &quot;z&quot;\n\\u{07}"))
        #expect(note.body.count <= DesktopNotification.maxBodyLength + 40 && note.body.hasSuffix("…"))
        #expect(DesktopNotification(summary: "s", body: "b", icon: "bad\u{1B}icon").icon.isEmpty)
    }

    @Test("with no session bus, the notifier says it is unavailable instead of hanging or exiting")
    func noBus() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nobus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try WeiboClientCommandTests.Run()
        #expect(try await run(["login", "--code", run.fake.issueCode(for: "1750000001")]).status == 0)
        let result = try await run(["watch", "--once"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder)/none"])
        #expect(result.status == 0 && result.standardError.contains("no desktop notification server"), "\(result.standardError)")
    }
}
