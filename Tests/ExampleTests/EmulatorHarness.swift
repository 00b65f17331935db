import Foundation
import ImageCodecs
import PhotoBrowser
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal emulator from Debian that the tests run programs in, under
/// Xvfb, as a person would: each with a white background and UTF-8.
enum Emulator: String, CaseIterable, CustomStringConvertible, Sendable {
    /// kitty: kitty's graphics protocol.
    case kitty
    /// xterm as a VT340: sixel graphics, 256 colour registers.
    case xtermVT340 = "xterm -ti vt340"
    /// xterm as it starts by default (a VT420): no graphics, colour blocks.
    case xterm
    /// mlterm: sixel graphics.
    case mlterm

    var description: String { rawValue }

    /// The program to find on PATH.
    var program: String { self == .xtermVT340 ? "xterm" : rawValue }

    /// Whether this machine has it.
    var isInstalled: Bool { ViewerHarness.has(program) }

    /// Its command line, about 1000×740 pixels; the program it runs and
    /// that program's arguments follow.
    var command: [String] {
        switch self {
        case .kitty:
            [
                "kitty", "-o", "linux_display_server=x11", "-o", "remember_window_size=no", "-o", "initial_window_width=1000",
                "-o", "initial_window_height=740", "-o", "background=#ffffff", "-o", "foreground=#000000", "-o", "cursor_blink_interval=0",
            ]
        case .xtermVT340:
            [
                "xterm", "-ti", "vt340", "-u8", "-geometry", "100x40+0+0", "-xrm", "XTerm*directColor: true", "-xrm", "XTerm*numColorRegisters: 256",
                "-e",
            ]
        case .xterm: ["xterm", "-u8", "-geometry", "100x40+0+0", "-xrm", "XTerm*directColor: true", "-e"]
        case .mlterm: ["mlterm", "-g", "100x40+0+0", "--bg=white", "--fg=black", "--sb=false", "-e"]
        }
    }
}

/// An emulator window on an X display, running a program; ``stop()`` ends
/// it (SIGKILL: children inherit the test process's blocked SIGTERM) and
/// reaps it.
struct EmulatorProcess {
    let pid: pid_t

    /// Starts `terminal` (an emulator's command line) running `program` on
    /// `display`, in a person's environment: HOME, PATH, UTF-8.
    init(_ terminal: [String], running program: [String], display: String) throws {
        pid = try ViewerHarness.spawn(
            terminal[0], Array(terminal.dropFirst()) + program,
            environment: [
                "DISPLAY": display, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSHomeDirectory(),
                "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            ])
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}

/// What a screenshot of a terminal shows of a photo.
enum ScreenPicture {
    /// Whether a pixel is background: near white (the terminal's) or near
    /// black (the viewer's letterbox).
    static func isBackground(_ r: Int, _ g: Int, _ b: Int) -> Bool { min(r, g, b) > 245 || max(r, g, b) < 10 }

    /// The picture's pixels on the screen (within `rows`): how many are
    /// coloured (not background), and the share of those that differ from
    /// their right-hand neighbour. A photo drawn in pixels differs almost
    /// everywhere; colour blocks are flat across each cell (a change every
    /// 9 or so pixels); a blank screen has no colour.
    static func measure(_ shot: Bitmap, rows: Range<Int>) -> (coloured: Int, changing: Double) {
        var coloured = 0
        var changing = 0
        shot.withUnsafeBytes { pixels in
            for y in rows where y < shot.height {
                for x in 0..<(shot.width - 1) {
                    let offset = y * shot.bytesPerRow + x * 3
                    let (r, g, b) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                    guard !isBackground(r, g, b) else { continue }
                    coloured += 1
                    let next = offset + 3
                    if abs(r - Int(pixels[next])) + abs(g - Int(pixels[next + 1])) + abs(b - Int(pixels[next + 2])) > 6 { changing += 1 }
                }
            }
        }
        return (coloured, coloured > 0 ? Double(changing) / Double(coloured) : 0)
    }

    /// The box (within `rows`) where the photo was drawn: the longest run
    /// of rows that are at least 30% coloured (a line of text is less),
    /// and within those rows the longest run of columns that are.
    static func box(in shot: Bitmap, rows: Range<Int>) -> (x: Int, y: Int, size: PixelSize)? {
        let rows = rows.clamped(to: 0..<shot.height)
        var coloured = [Bool](repeating: false, count: shot.width * shot.height)
        shot.withUnsafeBytes { pixels in
            for y in rows {
                for x in 0..<shot.width {
                    let offset = y * shot.bytesPerRow + x * 3
                    coloured[y * shot.width + x] = !isBackground(Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                }
            }
        }
        let rowRun = longestRun(in: rows) { y in (0..<shot.width).count { coloured[y * shot.width + $0] } * 10 >= shot.width * 3 }
        guard let rowRun else { return nil }
        let columnRun = longestRun(in: 0..<shot.width) { x in rowRun.count { coloured[$0 * shot.width + x] } * 10 >= rowRun.count * 3 }
        guard let columnRun, rowRun.count > 1, columnRun.count > 1 else { return nil }
        return (columnRun.lowerBound, rowRun.lowerBound, PixelSize(width: columnRun.count, height: rowRun.count))
    }

    /// The longest run of consecutive indices in `range` that satisfy `passes`.
    static func longestRun(in range: Range<Int>, where passes: (Int) -> Bool) -> Range<Int>? {
        var best: Range<Int>?
        var start: Int?
        for index in range.lowerBound...range.upperBound {
            if index < range.upperBound, passes(index) {
                start = start ?? index
            } else if let first = start {
                if (best?.count ?? 0) < index - first { best = first..<index }
                start = nil
            }
        }
        return best
    }

    /// A screen that shows the photo at `path` better than `decibels`
    /// (``likeness(_:toPhotoAt:rows:)``): what a test waits for.
    static func showing(photoAt path: String, above decibels: Double, rows: Range<Int> = 0..<768) -> (Bitmap) throws -> Bool {
        { shot in try likeness(shot, toPhotoAt: path, rows: rows) > decibels }
    }

    /// How alike the screen's picture (within `rows`) is to the photo at
    /// `path`: the peak signal-to-noise ratio, in dB, of the picture's box
    /// against the photo's rendition fitted to that box (0 when nothing
    /// is drawn). Seen under Xvfb: kitty 55 dB, sixel in xterm and mlterm
    /// 32-33 dB, colour blocks 21 dB; another photo (the portrait sample) 9 dB.
    static func likeness(_ shot: Bitmap, toPhotoAt path: String, rows: Range<Int>) throws -> Double {
        if let folder = ProcessInfo.processInfo.environment["PHOTODECK_TEST_SHOTS"] {
            // For a person looking into a failure: every compared screenshot, as PNG.
            try? Data(try shot.encoded(as: .png)).write(to: URL(fileURLWithPath: "\(folder)/shot-\(UUID().uuidString).png"))
        }
        guard let box = box(in: shot, rows: rows) else { return 0 }
        let rendition = try BrowserPhoto(fileAt: path).rendition(fitting: box.size)
        let fitted = rendition.size == box.size ? rendition : rendition.resized(to: box.size)
        return peakSignalToNoise(try shot.cropped(x: box.x, y: box.y, size: box.size), fitted)
    }
}
