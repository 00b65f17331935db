public import Foundation
import ImageCodecs
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The viewer in a terminal: the page drawn with kitty graphics, iTerm2
/// images, sixel or ANSI half blocks over all rows but the last, and a
/// status line (`N/COUNT  NAME  WxH  ZOOM%`) on the last. Keys are read in
/// raw mode (arrows, Space/BackSpace, Home/End, `+`/`-`, `0`, `i`, `q`);
/// the terminal's modes and screen are restored on exit and on SIGINT,
/// SIGTERM and SIGHUP; SIGWINCH redraws at the new size.
///
/// ```swift
/// let viewer = TerminalViewer(controller: controller, options: .init(graphics: .ansi))
/// let exit = try await viewer.run()
/// ```
public struct TerminalViewer: Sendable {
    /// How the viewer runs.
    public struct Options: Sendable {
        /// The graphics to use; `nil` detects them (environment, then a DA1 query).
        public var graphics: TerminalGraphics?
        /// Draw the first screen and return (for scripts): no raw mode, no alternate screen.
        public var once: Bool
        /// How long to wait for the terminal's replies to queries, in milliseconds.
        public var queryTimeout: Int
        /// The environment used for detection and for `COLUMNS`/`LINES` when the size is unknown.
        public var environment: [String: String]

        /// Creates options.
        public init(
            graphics: TerminalGraphics? = nil, once: Bool = false, queryTimeout: Int = 200,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.graphics = graphics
            self.once = once
            self.queryTimeout = queryTimeout
            self.environment = environment
        }
    }

    /// The browser state this viewer shows.
    public let controller: ViewerController
    /// How it runs.
    public let options: Options

    /// A viewer of `controller` on standard input and output.
    public init(controller: ViewerController, options: Options = Options()) {
        self.controller = controller
        self.options = options
    }

    /// Runs until the person quits, input ends or a signal arrives; the
    /// terminal is restored before this returns.
    public func run() async throws(TerminalError) -> ViewerExit {
        let controller = controller
        let options = options
        let result: Result<ViewerExit, TerminalError> = await ViewerThread.run(named: "photodeck.terminal") {
            do throws(TerminalError) {
                let session = try TerminalSession(controller: controller, options: options)
                return .success(session.run())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// One run of a terminal viewer, on its own thread.
private final class TerminalSession {
    let controller: ViewerController
    let options: TerminalViewer.Options
    let device: TerminalDevice
    var decoder = TerminalKeyDecoder()
    var graphics: TerminalGraphics = .ansi
    var size = TerminalDevice.Size(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0)
    let started = ContinuousClock.now
    var watchesSignals = false

    init(controller: ViewerController, options: TerminalViewer.Options) throws(TerminalError) {
        self.controller = controller
        self.options = options
        device = try TerminalDevice()
    }

    func run() -> ViewerExit {
        var typed: [ViewerKey] = []
        let interactive = !options.once
        if interactive, device.isInputTerminal { try? device.enterRawMode() }
        defer { finish(interactive: interactive) }
        size = device.size(environment: options.environment)
        let canAsk = device.isInputTerminal && device.isOutputTerminal && interactive
        if let chosen = options.graphics {
            graphics = chosen
        } else {
            var reply: [UInt8]?
            if canAsk {
                (reply, typed) = device.ask("\u{1B}[c", timeout: options.queryTimeout, decoder: &decoder) { $0.last == UInt8(ascii: "c") }
            }
            graphics = TerminalDetection.graphics(environment: options.environment, deviceAttributes: reply)
        }
        if graphics.drawsPixels, size.pixelWidth == 0, canAsk {
            let (reply, keys) = device.ask("\u{1B}[14t", timeout: options.queryTimeout, decoder: &decoder) { $0.last == UInt8(ascii: "t") }
            typed += keys
            if let reply, let pixels = TerminalDetection.textAreaPixels(reply) {
                size.pixelWidth = pixels.width
                size.pixelHeight = pixels.height
            }
        }
        if interactive {
            installSignalHandlers()
            device.write("\u{1B}[?1049h\u{1B}[?25l")
        }
        let controller = controller
        let output =
            "terminal, \(graphics.rawValue), \(size.columns)x\(size.rows) cells" + (size.pixelWidth > 0 ? ", \(size.pixelWidth)x\(size.pixelHeight) px" : "")
        BlockingBridge.wait { await controller.recordOutput(output) }
        configure()
        draw(after: nil)
        if options.once { return .quit }
        // Keys typed while the terminal was being asked.
        for key in typed { if let exit = handle(key, at: .now) { return exit } }
        while true {
            switch device.read(timeout: decoder.hasPending ? 50 : -1) {
            case .bytes(let bytes):
                let now = ContinuousClock.now
                for key in decoder.feed(bytes) { if let exit = handle(key, at: now) { return exit } }
                _ = decoder.takeReplies()
            case .timeout:
                for key in decoder.flush() { if let exit = handle(key, at: .now) { return exit } }
            case .woken(let received):
                if let exit = handleSignals(received) { return exit }
            case .closed:
                return .endOfInput
            }
        }
    }

    /// The canvas's pixel size and the viewport it stands for.
    var layout: (canvas: PixelSize, cell: PixelSize) {
        let imageRows = max(1, size.rows - 1)
        if graphics == .ansi { return (PixelSize(width: size.columns, height: imageRows * 2), PixelSize(width: 1, height: 2)) }
        let cell = size.cellSize
        return (PixelSize(width: size.columns * cell.width, height: imageRows * cell.height), cell)
    }

    func configure() {
        let canvas = layout.canvas
        let controller = controller
        BlockingBridge.wait { await controller.configure(viewportSize: CGSize(width: canvas.width, height: canvas.height), scale: 1) }
    }

    func handle(_ key: ViewerKey, at time: ContinuousClock.Instant) -> ViewerExit? {
        let controller = controller
        let canvas = layout.canvas
        let pointer = CGPoint(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2)
        let response = BlockingBridge.wait { await controller.press(key, pointer: pointer) }
        switch response {
        case .quit: return .quit
        case .unchanged, .toggleFullScreen: return nil
        case .redraw:
            draw(after: time)
            return nil
        }
    }

    func draw(after input: ContinuousClock.Instant?) {
        let controller = controller
        let frame = BlockingBridge.wait { await controller.frame() }
        let encodingStarted = ContinuousClock.now
        let (canvasSize, cell) = layout
        var out: [UInt8] = Array("\u{1B}[?2026h".utf8)
        // A --once screen is text in the scrollback: the picture moves the cursor past itself.
        let encoder: any TerminalImageEncoder = graphics == .kitty && options.once ? KittyImageEncoder(movesCursor: true) : graphics.encoder
        out += encoder.clearImages
        out += Array((options.once ? "\r" : "\u{1B}[H\u{1B}[2J").utf8)
        var failure: String?
        switch frame.content {
        case .page(let page):
            do {
                let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: canvasSize.width, height: canvasSize.height), scale: 1)
                out += try encoder.encode(canvas, cellSize: cell)
            } catch {
                failure = "\(error)"
            }
        case .failure(let reason): failure = reason
        }
        if let failure {
            let row = max(1, (size.rows - 1) / 2)
            // A decoder's message can quote the file: terminal-safe, on one line.
            let text = String(TerminalText.safeLine(failure).prefix(max(1, size.columns - 2)))
            let column = max(1, (size.columns - text.count) / 2)
            out += Array("\u{1B}[\(row);\(column)H\u{1B}[31m\(text)\u{1B}[0m".utf8)
        }
        let status = String(frame.statusLine.prefix(size.columns))
        if options.once {
            out += Array("\r\n\(status)\r\n".utf8)
        } else {
            out += Array("\u{1B}[\(size.rows);1H\u{1B}[0m\u{1B}[7m\(status)\u{1B}[K\u{1B}[0m".utf8)
        }
        out += Array("\u{1B}[?2026l".utf8)
        let encoded = ContinuousClock.now
        device.write(out)
        let now = ContinuousClock.now
        let start = started
        let timing = (upload: encoded - encodingStarted, present: now - encoded)
        BlockingBridge.wait { await controller.recordFrame(after: input, start: start, now: now, draw: timing) }
    }

    func installSignalHandlers() {
        watchesSignals = (try? device.watchSignals()) != nil
    }

    func handleSignals(_ received: [Int32]) -> ViewerExit? {
        if let stop = received.first(where: { $0 != SIGWINCH }) { return .signal(stop) }
        if received.contains(SIGWINCH) {
            let newSize = device.size(environment: options.environment)
            if newSize != size {
                // Keep the pixel size a CSI 14 t reply gave when TIOCGWINSZ has none.
                let keepsPixels = newSize.pixelWidth == 0 && size.pixelWidth > 0
                let cell = size.cellSize
                size = newSize
                if keepsPixels {
                    size.pixelWidth = newSize.columns * cell.width
                    size.pixelHeight = newSize.rows * cell.height
                }
                configure()
            }
            draw(after: nil)
        }
        return nil
    }

    func finish(interactive: Bool) {
        if interactive {
            device.write(graphics.encoder.clearImages + Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
        }
        if watchesSignals { device.unwatchSignals() }
        device.restore()
    }
}
