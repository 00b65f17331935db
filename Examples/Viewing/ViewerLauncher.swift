package import ExampleSupport
package import Foundation
package import PhotoViewer

/// How an example opens its viewer: where the pictures go and the window's
/// options, from the flags every viewing example shares.
package struct ViewerOptions: Sendable {
    /// Where the pictures go.
    package enum Display: String, Sendable {
        case auto, window, kitty, iterm, sixel, ansi

        /// The terminal graphics this display names (`nil` for auto and window).
        package var terminalGraphics: TerminalGraphics? { TerminalGraphics(rawValue: rawValue) }
    }

    package var display: Display?
    package var window = CGSize(width: 1280, height: 800)
    package var rendering = WindowViewer.Rendering.automatic
    package var once = false

    package init() {}

    /// How many pages either side of the shown one are made ahead: two when a
    /// person turns pages, none for `--once`, whose process ends after the
    /// first screen and would leave those loads unfinished.
    package var prefetchRadius: Int { once ? 0 : 2 }

    /// The flags' usage lines.
    package static let usage = """
        --display auto|window|kitty|iterm|sixel|ansi picks where the pictures go (auto: a window when a
        display answers, else the best the terminal can do); --window WxH sizes the window (default
        1280x800); --renderer automatic|accelerated|software picks how it draws; --once draws the
        first screen and exits.
        """

    /// Reads `flag` (and its value from `reader`) when it is one of the
    /// viewer's; `false` when it is not.
    package mutating func read(_ flag: String, from reader: inout ArgumentReader) throws(CLIError) -> Bool {
        switch flag {
        case "--display":
            let text = try reader.value(for: flag)
            guard let chosen = Display(rawValue: text) else { throw CLIError("--display takes auto, window, kitty, iterm, sixel or ansi, got '\(text)'") }
            display = chosen
        case "--window":
            let size = try SizeArgument(try reader.value(for: flag), what: "a window size in points", range: 1...20_000)
            window = CGSize(width: size.width, height: size.height)
        case "--renderer":
            let text = try reader.value(for: flag)
            guard let chosen = WindowViewer.Rendering(rawValue: text) else {
                throw CLIError("--renderer takes automatic, accelerated or software, got '\(text)'")
            }
            rendering = chosen
        case "--once": once = true
        default: return false
        }
        return true
    }

    /// Whether a window would be opened (`auto` with a display, or `window`).
    package func opensWindow(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch display ?? .auto {
        case .window: true
        case .auto: Self.hasDisplay(environment)
        default: false
        }
    }

    static func hasDisplay(_ environment: [String: String]) -> Bool {
        environment["DISPLAY"].map { !$0.isEmpty } ?? false || environment["WAYLAND_DISPLAY"] != nil
    }
}

/// Opens the viewer the command line asks for: a window, a terminal
/// protocol, or (auto) a window when a display answers, else the best the
/// terminal can show.
package enum ViewerLauncher {
    package static func run(_ controller: ViewerController, options: ViewerOptions, tool: String) async throws -> ViewerExit {
        let environment = ProcessInfo.processInfo.environment
        let display = options.display ?? .auto
        var windowOptions = WindowViewer.Options(size: options.window, once: options.once, rendering: options.rendering)
        // A line per presented frame on standard error, for tests that wait for a frame.
        if environment["PHOTODECK_VIEWER_TRACE"] != nil { windowOptions.onFrame = traceFrame }
        var terminalOptions = TerminalViewer.Options(graphics: display.terminalGraphics, once: options.once)
        if environment["PHOTODECK_VIEWER_TRACE"] != nil { terminalOptions.onFrame = { frame, graphics in traceFrame(frame, graphics: graphics) } }
        switch display {
        case .window:
            return try await WindowViewer(controller: controller, options: windowOptions).run()
        case .kitty, .iterm, .sixel, .ansi:
            return try await TerminalViewer(controller: controller, options: terminalOptions).run()
        case .auto:
            if ViewerOptions.hasDisplay(environment) {
                do throws(WindowError) {
                    return try await WindowViewer(controller: controller, options: windowOptions).run()
                } catch {
                    Console.error("\(tool): \(error); showing the photos in the terminal")
                }
            }
            return try await TerminalViewer(controller: controller, options: terminalOptions).run()
        }
    }

    /// The trace line of a presented frame; terminal frames name their graphics.
    @Sendable static func traceFrame(_ frame: ViewerFrame) { traceFrame(frame, graphics: nil) }

    @Sendable static func traceFrame(_ frame: ViewerFrame, graphics: TerminalGraphics?) {
        var line = "frame \(frame.index + 1)/\(frame.count) \(frame.name.oneLine) zoom \(Int(frame.zoomPercent.rounded()))% chrome \(frame.showsChrome)"
        line += " info \(frame.info?.count ?? 0)"
        if let graphics { line += " graphics \(graphics)" }
        if let playback = frame.playback {
            line += " \(playback.isPlaying ? "playing" : "paused") \(playback.clockText) dropped \(playback.droppedFrames)"
            if let offset = playback.soundOffset { line += " av \(Int(offset.inMilliseconds.rounded()))ms" }
        }
        if case .page(let page) = frame.content {
            let f = page.frame
            line += " centre \(Int(Double(page.state.center.x).rounded())),\(Int(Double(page.state.center.y).rounded()))"
            line +=
                " rect \(Int(Double(f.minX).rounded())),\(Int(Double(f.minY).rounded())),\(Int(Double(f.width).rounded())),\(Int(Double(f.height).rounded()))"
            line += " viewport \(Int(Double(frame.viewportSize.width)))x\(Int(Double(frame.viewportSize.height)))"
            line += " origin \(page.origin.rawValue)"
        }
        if case .grid(let grid) = frame.content { line += " pending \(grid.pending)" }
        Console.error(line)
    }
}
