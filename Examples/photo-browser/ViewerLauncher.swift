import ExampleSupport
import Foundation
import PhotoViewer

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the viewer the command line asks for: a window, a terminal
/// protocol, or (auto) a window when a display answers, else the best the
/// terminal can show.
enum ViewerLauncher {
    static func run(_ controller: ViewerController, arguments: Arguments) async throws -> ViewerExit {
        let environment = ProcessInfo.processInfo.environment
        let display = arguments.display ?? .auto
        var windowOptions = WindowViewer.Options(size: arguments.window, once: arguments.once, rendering: arguments.rendering)
        // A line per presented frame on standard error, for tests that wait for a frame.
        if environment["PHOTODECK_VIEWER_TRACE"] != nil { windowOptions.onFrame = traceFrame }
        let terminalOptions = TerminalViewer.Options(graphics: display.terminalGraphics, once: arguments.once)
        switch display {
        case .window:
            return try await WindowViewer(controller: controller, options: windowOptions).run()
        case .kitty, .iterm, .sixel, .ansi:
            return try await TerminalViewer(controller: controller, options: terminalOptions).run()
        case .auto:
            let hasDisplay = environment["DISPLAY"].map { !$0.isEmpty } ?? false || environment["WAYLAND_DISPLAY"] != nil
            if hasDisplay {
                do throws(WindowError) {
                    return try await WindowViewer(controller: controller, options: windowOptions).run()
                } catch {
                    Console.error("photo-browser: \(error); showing the photos in the terminal")
                }
            }
            return try await TerminalViewer(controller: controller, options: terminalOptions).run()
        }
    }

    @Sendable static func traceFrame(_ frame: ViewerFrame) {
        var line = "frame \(frame.index + 1)/\(frame.count) \(frame.name.oneLine) zoom \(Int(frame.zoomPercent.rounded()))% chrome \(frame.showsChrome)"
        if case .page(let page) = frame.content {
            let f = page.frame
            line += " centre \(Int(Double(page.state.center.x).rounded())),\(Int(Double(page.state.center.y).rounded()))"
            line +=
                " rect \(Int(Double(f.minX).rounded())),\(Int(Double(f.minY).rounded())),\(Int(Double(f.width).rounded())),\(Int(Double(f.height).rounded()))"
            line += " viewport \(Int(Double(frame.viewportSize.width)))x\(Int(Double(frame.viewportSize.height)))"
        }
        Console.error(line)
    }
}
