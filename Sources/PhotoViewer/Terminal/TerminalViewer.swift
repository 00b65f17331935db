import Execution
public import Foundation
import ImageCodecs
import SafeText
import Synchronization
import SystemSupport

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
        /// How long to wait for the terminal's replies to queries, in
        /// milliseconds; at least ``TerminalDetection/graphicsAnswerWait``
        /// for the graphics questions, whose wait ends at the DA1 answer.
        public var queryTimeout: Int
        /// The environment used for detection and for `COLUMNS`/`LINES` when the size is unknown.
        public var environment: [String: String]
        /// The multiplexer between the viewer and the terminal; `nil` detects
        /// it (`TerminalMultiplexer.detect(environment:timeout:)`).
        public var multiplexer: TerminalMultiplexer?
        /// Called after each frame is written to the terminal, with the
        /// graphics it was drawn in (after detection and any fallback for a
        /// multiplexer), on the viewer's task: for traces and tests.
        public var onFrame: (@Sendable (ViewerFrame, TerminalGraphics) -> Void)?

        /// Creates options.
        public init(
            graphics: TerminalGraphics? = nil, once: Bool = false, queryTimeout: Int = 200,
            environment: [String: String] = ProcessInfo.processInfo.environment, multiplexer: TerminalMultiplexer? = nil,
            onFrame: (@Sendable (ViewerFrame, TerminalGraphics) -> Void)? = nil
        ) {
            self.graphics = graphics
            self.once = once
            self.queryTimeout = queryTimeout
            self.environment = environment
            self.multiplexer = multiplexer
            self.onFrame = onFrame
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
    ///
    /// The terminal's queries and its key reads wait, so they run on a
    /// thread of the viewer's own, which hands keys and signals to this loop
    /// through an `AsyncStream`; the loop asks the controller, encodes the
    /// frame and writes it. No semaphore stands between a key and its frame.
    public func run() async throws(TerminalError) -> ViewerExit {
        let controller = controller
        let options = options
        let opened: Result<TerminalSetup, TerminalError> = await ViewerThread.run(named: "photodeck.terminal") {
            do throws(TerminalError) {
                return .success(try TerminalSetup(options: options))
            } catch {
                return .failure(error)
            }
        }
        let setup = try opened.get()
        var session = TerminalSession(controller: controller, options: options, setup: setup)
        return await session.run()
    }
}

/// The terminal as the set-up thread left it: modes set, graphics chosen
/// (from the environment and a DA1 reply), the size (a CSI 14 t reply when
/// TIOCGWINSZ has no pixels), and the keys typed while it asked.
private struct TerminalSetup: Sendable {
    let device: TerminalDevice
    let interactive: Bool
    var graphics: TerminalGraphics = .ansi
    /// tmux or screen between the viewer and the terminal, if any.
    var multiplexer: TerminalMultiplexer = .none
    var size: TerminalDevice.Size
    var decoder = TerminalKeyDecoder()
    var typed: [ViewerKey] = []
    /// Whether the terminal is across a network (SSH): kitty's pixels are
    /// compressed for it, and sent raw to a terminal on this machine.
    let isRemote: Bool
    /// The strips of the last picture too big for tmux in one piece, so
    /// that the next frame of that size is encoded once.
    let stripMemory = TmuxStripMemory()

    /// The encoder for a frame: the graphics' own (kitty's moving the cursor
    /// past a `--once` picture), wrapped in tmux's passthrough at the
    /// pane's origin when tmux stands between.
    /// kitty's frames take two image ids in turn (`frameNumber`'s parity):
    /// each deletes the other's picture only after it is sent.
    func encoder(once: Bool, frameNumber: Int = 0) -> any TerminalImageEncoder {
        let base: any TerminalImageEncoder
        if graphics == .kitty {
            let id = frameNumber.isMultiple(of: 2) ? 7 : 8
            var kitty = once ? KittyImageEncoder(movesCursor: true) : KittyImageEncoder(imageID: id, replacing: id == 7 ? 8 : 7)
            kitty.compresses = isRemote
            base = kitty
        } else {
            base = graphics.encoder
        }
        guard case .tmux(let pane) = multiplexer, graphics.drawsPixels else { return base }
        var wrapped = TmuxPassthroughEncoder(base, row: pane.top + 1, column: pane.left + 1)
        wrapped.stripMemory = stripMemory
        return wrapped
    }

    init(options: TerminalViewer.Options) throws(TerminalError) {
        device = try TerminalDevice()
        interactive = !options.once
        if interactive, device.isInputTerminal { try? device.enterRawMode() }
        size = device.size(environment: options.environment)
        let canAsk = device.isInputTerminal && device.isOutputTerminal && interactive
        multiplexer = options.multiplexer ?? TerminalMultiplexer.detecting(environment: options.environment, timeout: .seconds(1))
        isRemote = TerminalDetection.isRemote(environment: options.environment)
        if let chosen = options.graphics {
            graphics = TerminalDetection.graphics(chosen, through: multiplexer, inline: options.once)
        } else {
            var found = TerminalDetection.graphics(environment: options.environment, deviceAttributes: nil, multiplexer: multiplexer)
            if canAsk, multiplexer == .none {
                let asked = device.askAll(
                    TerminalDetection.graphicsQuery, timeout: max(options.queryTimeout, TerminalDetection.graphicsAnswerWait), decoder: &decoder,
                    isAnswer: TerminalDetection.isDeviceAttributes)
                typed = asked.keys
                found = TerminalDetection.graphics(environment: options.environment, replies: asked.replies)
            } else if canAsk, case .tmux(let pane) = multiplexer, pane.allowsPassthrough, pane.receivesReplies {
                // tmux answers for itself; the wrapped questions reach the terminal the person looks at.
                // (Its answers go to the active pane: from any other, the client's name decides.)
                let asked = device.askAll(
                    TerminalDetection.tmuxGraphicsQuery, timeout: max(options.queryTimeout, TerminalDetection.graphicsAnswerWait), decoder: &decoder,
                    isAnswer: TerminalDetection.isDeviceAttributes)
                typed = asked.keys
                found = TerminalDetection.graphics(replies: asked.replies, through: pane)
            }
            graphics = TerminalDetection.graphics(found, through: multiplexer, inline: options.once)
        }
        if graphics.drawsPixels, size.pixelWidth == 0, canAsk {
            let (reply, keys) = device.ask("\u{1B}[14t", timeout: options.queryTimeout, decoder: &decoder) { $0.last == UInt8(ascii: "t") }
            typed += keys
            if let reply, let pixels = TerminalDetection.textAreaPixels(reply) {
                size.pixelWidth = pixels.width
                size.pixelHeight = pixels.height
            }
        }
        if interactive { device.write("\u{1B}[?1049h\u{1B}[?25l") }
    }
}

/// What the input thread reads.
private enum TerminalInput: Sendable {
    /// Keys, decoded, with when their bytes arrived.
    case keys([ViewerKey], at: ContinuousClock.Instant)
    /// Signals the handlers caught.
    case signals([Int32])
    /// Input ended.
    case closed
    /// The controller asks for a frame (the slideshow, a finished sort).
    case redraw
}

/// Set once, by the viewer's loop, to end the input thread.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

/// The input thread: reads the terminal until input ends or the loop asks
/// it to stop (``TerminalDevice/wakeReader()`` with the flag set). It
/// routes SIGWINCH, SIGINT, SIGTERM and SIGHUP to itself while it runs
/// (the handlers unblock them on the thread that installs them).
private enum TerminalReader {
    static func run(device: TerminalDevice, decoder: TerminalKeyDecoder, stop: StopFlag, input: AsyncStream<TerminalInput>.Continuation) {
        let watching = (try? device.watchSignals()) != nil
        defer {
            if watching { device.unwatchSignals() }
            input.finish()
        }
        var decoder = decoder
        while !stop.isSet {
            switch device.read(timeout: decoder.hasPending ? 50 : -1) {
            case .bytes(let bytes):
                let keys = decoder.feed(bytes)
                _ = decoder.takeReplies()
                if !keys.isEmpty { input.yield(.keys(keys, at: .now)) }
            case .timeout:
                let keys = decoder.flush()
                if !keys.isEmpty { input.yield(.keys(keys, at: .now)) }
            case .woken(let received):
                let signals = received.filter { $0 != 0 }
                if !signals.isEmpty { input.yield(.signals(signals)) }
            case .closed:
                input.yield(.closed)
                return
            }
        }
    }
}

/// One run of a terminal viewer: the loop over the input thread's keys.
private struct TerminalSession {
    let controller: ViewerController
    let options: TerminalViewer.Options
    var setup: TerminalSetup
    let started = ContinuousClock.now
    /// Rows kept below the picture for the information overlay (`i`).
    var infoRows = 0
    /// Frames written so far (kitty's image id alternates with it).
    var framesWritten = 0
    /// Writes leave the cooperative pool: a slow terminal blocks this queue, no task.
    let writer = BlockingQueue(label: "photodeck.terminal.output")

    init(controller: ViewerController, options: TerminalViewer.Options, setup: TerminalSetup) {
        self.controller = controller
        self.options = options
        self.setup = setup
    }

    var device: TerminalDevice { setup.device }
    var size: TerminalDevice.Size { setup.size }
    var graphics: TerminalGraphics { setup.graphics }

    mutating func run() async -> ViewerExit {
        let through = if case .tmux = setup.multiplexer, graphics.drawsPixels { " through tmux" } else { "" }
        let output =
            "terminal, \(graphics.rawValue)\(through), \(size.columns)x\(size.rows) cells"
            + (size.pixelWidth > 0 ? ", \(size.pixelWidth)x\(size.pixelHeight) px" : "")
        await controller.recordOutput(output)
        guard setup.interactive else {
            // A single screen shows the photo, never the placeholder drawn while it loads.
            await controller.setDrawsPlaceholders(false)
            await configure()
            // A single screen of the grid shows its thumbnails, not their placeholders.
            await controller.waitForGridThumbnails()
            await draw(after: nil)
            device.restore()
            return .quit
        }
        // The input thread starts first, so the signal handlers are there
        // before the first frame; keys it reads meanwhile wait in the stream.
        let (inputs, continuation) = AsyncStream<TerminalInput>.makeStream()
        let stop = StopFlag()
        let device = device
        let decoder = setup.decoder
        let reader = Task {
            await ViewerThread.run(named: "photodeck.terminal.input") {
                TerminalReader.run(device: device, decoder: decoder, stop: stop, input: continuation)
            }
        }
        let redraws = await controller.redrawRequests()
        let forwarder = Task {
            for await _ in redraws { continuation.yield(.redraw) }
        }
        await configure()
        await draw(after: nil)
        let exit = await loop(inputs)
        forwarder.cancel()
        await controller.stopAnimation()
        await write(setup.encoder(once: options.once).clearImages + Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
        stop.set()
        device.wakeReader()
        await reader.value
        device.restore()
        return exit
    }

    mutating func loop(_ inputs: AsyncStream<TerminalInput>) async -> ViewerExit {
        // Keys typed while the terminal was being asked.
        for key in setup.typed { if let exit = await handle(key, at: .now) { return exit } }
        for await event in inputs {
            switch event {
            case .keys(let keys, let time):
                for key in keys { if let exit = await handle(key, at: time) { return exit } }
            case .signals(let received):
                if let exit = await handleSignals(received) { return exit }
            case .closed:
                return .endOfInput
            case .redraw:
                await draw(after: nil)
            }
        }
        return .endOfInput
    }

    /// The canvas's pixel size and the viewport it stands for.
    var layout: (canvas: PixelSize, cell: PixelSize) {
        let imageRows = max(1, size.rows - 1 - infoRows)
        if graphics == .ansi { return (PixelSize(width: size.columns, height: imageRows * 2), PixelSize(width: 1, height: 2)) }
        let cell = size.cellSize
        return (PixelSize(width: size.columns * cell.width, height: imageRows * cell.height), cell)
    }

    func configure() async {
        let canvas = layout.canvas
        await controller.configure(viewportSize: CGSize(width: canvas.width, height: canvas.height), scale: 1)
    }

    mutating func handle(_ key: ViewerKey, at time: ContinuousClock.Instant) async -> ViewerExit? {
        let canvas = layout.canvas
        let pointer = CGPoint(x: Double(canvas.width) / 2, y: Double(canvas.height) / 2)
        switch await controller.press(key, pointer: pointer) {
        case .quit: return .quit
        case .unchanged, .toggleFullScreen: return nil
        case .redraw:
            await draw(after: time)
            return nil
        }
    }

    /// Writes `bytes` on the writer queue and resumes when they are written.
    func write(_ bytes: [UInt8]) async {
        let device = device
        await writer.run { device.write(bytes) }
    }

    /// `canvas` encoded on the image workers' threads: a sixel or zlib
    /// encode blocks for tens of milliseconds, never on the cooperative pool.
    static func encode(_ canvas: Bitmap, with encoder: any TerminalImageEncoder, cellSize: PixelSize) async throws(TerminalError) -> [UInt8] {
        try await ImageWorkers.shared.run { () throws(TerminalError) -> [UInt8] in try encoder.encode(canvas, cellSize: cellSize) }
    }

    mutating func draw(after input: ContinuousClock.Instant?) async {
        // The information overlay gets rows of its own below the picture
        // (text over a kitty or sixel picture would be hidden by it): the
        // picture is laid out in what is left before the frame is made.
        if !options.once {
            let wantedRows = min(await controller.infoLineCount(), max(0, size.rows - 4))
            if wantedRows != infoRows {
                infoRows = wantedRows
                await configure()
            }
        }
        let frame = await controller.frame()
        let encodingStarted = ContinuousClock.now
        let (canvasSize, cell) = layout
        // A --once screen is text in the scrollback: the picture moves the cursor past itself.
        let encoder = setup.encoder(once: options.once, frameNumber: framesWritten)
        framesWritten += 1
        var picture: [UInt8]?
        var failure: String?
        switch frame.content {
        case .page(let page):
            do {
                let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: canvasSize.width, height: canvasSize.height), scale: 1)
                picture = try await Self.encode(canvas, with: encoder, cellSize: cell)
            } catch {
                failure = "\(error)"
            }
        case .failure(let reason): failure = reason
        case .grid(let grid):
            do { picture = try await Self.encode(grid.canvas, with: encoder, cellSize: cell) } catch { failure = "\(error)" }
        }
        var out: [UInt8] = Array("\u{1B}[?2026h".utf8)
        // The last frame's picture goes after the new one is sent (none to send: at once).
        if picture == nil || options.once { out += encoder.clearImages }
        out += Array((options.once ? "\r" : "\u{1B}[H\u{1B}[2J").utf8)
        if let picture { out += picture + (options.once ? [] : encoder.clearEarlierFrame) }
        if let failure {
            let row = max(1, (size.rows - 1) / 2)
            // A decoder's message can quote the file: terminal-safe, on one line.
            let text = String(TerminalText.safeLine(failure).prefix(max(1, size.columns - 2)))
            let column = max(1, (size.columns - text.count) / 2)
            out += Array("\u{1B}[\(row);\(column)H\u{1B}[31m\(text)\u{1B}[0m".utf8)
        }
        let status = String(frame.statusLine.prefix(size.columns))
        // The overlay's lines are terminal-safe already (ViewerFrame.info).
        let info = (frame.info ?? []).map { String($0.prefix(size.columns)) }
        if options.once {
            out += Array("\r\n\(status)\r\n".utf8)
            for line in info { out += Array("\(line)\r\n".utf8) }
        } else {
            for (index, line) in info.prefix(infoRows).enumerated() {
                out += Array("\u{1B}[\(size.rows - infoRows + index);1H\u{1B}[0m\(line)\u{1B}[K".utf8)
            }
            out += Array("\u{1B}[\(size.rows);1H\u{1B}[0m\u{1B}[7m\(status)\u{1B}[K\u{1B}[0m".utf8)
        }
        out += Array("\u{1B}[?2026l".utf8)
        let encoded = ContinuousClock.now
        await write(out)
        let now = ContinuousClock.now
        await controller.recordFrame(after: input, start: started, now: now, draw: (upload: encoded - encodingStarted, present: now - encoded))
        options.onFrame?(frame, graphics)
    }

    mutating func handleSignals(_ received: [Int32]) async -> ViewerExit? {
        if let stop = received.first(where: { $0 != TerminalPort.resizeSignal }) { return .signal(stop) }
        if received.contains(TerminalPort.resizeSignal) {
            // A resized or rearranged tmux pane may have moved in the client's terminal.
            if case .tmux = setup.multiplexer, options.multiplexer == nil {
                setup.multiplexer = await TerminalMultiplexer.detect(environment: options.environment)
            }
            let newSize = device.size(environment: options.environment)
            if newSize != size {
                // Keep the pixel size a CSI 14 t reply gave when TIOCGWINSZ has none.
                let keepsPixels = newSize.pixelWidth == 0 && size.pixelWidth > 0
                let cell = size.cellSize
                setup.size = newSize
                if keepsPixels {
                    setup.size.pixelWidth = newSize.columns * cell.width
                    setup.size.pixelHeight = newSize.rows * cell.height
                }
                await configure()
            }
            await draw(after: nil)
        }
        return nil
    }
}
