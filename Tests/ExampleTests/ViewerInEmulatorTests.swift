import Foundation
import ImageCodecs
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// photo-browser straight in a real terminal emulator under Xvfb, choosing
/// its graphics by asking the terminal rather than by its name.
@Suite(
    "photo-browser in real terminals (Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xwd") && ViewerHarness.has("kitty")))
struct ViewerInEmulatorTests {
    @Test("kitty whose TERM says xterm-256color and without KITTY_WINDOW_ID (as over ssh): kitty graphics found by asking, the photo in pixels")
    func kittyFoundByAsking() async throws {
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        defer { server.stop() }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("asking-\(UUID().uuidString).sh").path
        defer { try? FileManager.default.removeItem(atPath: script) }
        let exports = ExampleProcess.sanitizerEnvironment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
        // Nothing in the environment names kitty, and no display: only the terminal's answer can pick its graphics.
        try """
        unset KITTY_WINDOW_ID KITTY_PID KITTY_INSTALLATION_DIR TERMINFO
        export TERM=xterm-256color DISPLAY=
        \(exports)'\(ExampleProcess.executable("photo-browser").path)' --display auto '\(ViewerInTmuxEmulatorTests.photo)'
        exec sleep 600
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let terminal = try ViewerHarness.spawn(
            "kitty", Array(ViewerInTmuxEmulatorTests.kitty.dropFirst()) + ["/bin/sh", script],
            environment: [
                "DISPLAY": server.display, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSHomeDirectory(),
                "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            ])
        defer {
            kill(terminal, SIGKILL)
            var status: Int32 = 0
            while waitpid(terminal, &status, 0) < 0 && errno == EINTR {}
        }
        try await waitUntil("the photo on the screen", timeout: .seconds(300)) {
            ViewerInTmuxEmulatorTests.picture(in: try await TimelineInEmulatorTests.shoot(server.display), rows: 0..<600).coloured > 100_000
        }
        let shot = try await TimelineInEmulatorTests.settledShot(server.display)
        let picture = ViewerInTmuxEmulatorTests.picture(in: shot, rows: 0..<600)
        #expect(picture.coloured > 100_000, "the photo covers the screen: \(picture)")
        #expect(picture.changing > 0.4, "drawn in pixels (kitty graphics), not colour blocks: \(picture)")
    }
}
