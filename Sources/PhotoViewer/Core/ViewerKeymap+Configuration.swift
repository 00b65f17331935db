public import Foundation
import SafeText
import SystemSupport

/// What a key can be bound to in `keys.conf`.
public enum KeyAction: String, CaseIterable, Hashable, Sendable {
    /// The next photo.
    case next
    /// The previous photo.
    case previous
    /// A stack's next frame (a burst's page).
    case nextFrame = "next-frame"
    /// A stack's previous frame.
    case previousFrame = "previous-frame"
    /// The first photo.
    case first
    /// The last photo.
    case last
    /// Zoom in one step at the pointer.
    case zoomIn = "zoom-in"
    /// Zoom out one step at the pointer.
    case zoomOut = "zoom-out"
    /// Back to the fitted zoom.
    case fit
    /// Show or hide the status overlay.
    case overlay
    /// Show or hide the information overlay (camera, exposure, date).
    case info
    /// Full screen on or off (windows).
    case fullScreen = "full-screen"
    /// Start or stop the slideshow.
    case slideshow
    /// Sort by the next order.
    case sort
    /// Switch between the photo and the grid.
    case grid
    /// Turn the photo a quarter clockwise.
    case rotateRight = "rotate-right"
    /// Turn the photo a quarter anticlockwise.
    case rotateLeft = "rotate-left"
    /// Flip the photo left to right.
    case flipHorizontal = "flip-horizontal"
    /// Flip the photo top to bottom.
    case flipVertical = "flip-vertical"
    /// Play or pause the shown video.
    case play
    /// Play a Live Photo's or Motion Photo's motion.
    case playMotion = "play-motion"
    /// The video's next frame (paused).
    case frameForward = "frame-forward"
    /// The video's previous frame (paused).
    case frameBack = "frame-back"
    /// Five seconds on in the video.
    case seekForward = "seek-forward"
    /// Five seconds back in the video.
    case seekBack = "seek-back"
    /// Mute or unmute videos' sound.
    case mute
    /// Close the viewer.
    case quit

    /// The command this action asks for, zooming around `pointer`.
    public func command(zoomStep: Double, pointer: CGPoint) -> ViewerCommand {
        switch self {
        case .next: .next
        case .previous: .previous
        case .nextFrame: .showFrame(forward: true)
        case .previousFrame: .showFrame(forward: false)
        case .first: .first
        case .last: .last
        case .zoomIn: .zoom(by: zoomStep, at: pointer)
        case .zoomOut: .zoom(by: 1 / zoomStep, at: pointer)
        case .fit: .fit
        case .overlay: .toggleChrome
        case .info: .toggleInfo
        case .fullScreen: .toggleFullScreen
        case .slideshow: .toggleSlideshow
        case .sort: .cycleOrder
        case .grid: .toggleGrid
        case .rotateRight: .orient(.right)
        case .rotateLeft: .orient(.left)
        case .flipHorizontal: .orient(.upMirrored)
        case .flipVertical: .orient(.downMirrored)
        case .play: .togglePlayback
        case .playMotion: .playMotion
        case .frameForward: .stepFrame(forward: true)
        case .frameBack: .stepFrame(forward: false)
        case .seekForward: .seek(by: .seconds(5))
        case .seekBack: .seek(by: .seconds(-5))
        case .mute: .toggleMute
        case .quit: .quit
        }
    }
}

extension ViewerKeymap {
    /// A line of `keys.conf` that was not understood.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The line number, from 1.
        public let line: Int
        /// What was wrong.
        public let reason: String

        public var description: String { "line \(line): \(reason)" }
    }

    /// Where the key bindings are read from: `$XDG_CONFIG_HOME/photodeck/keys.conf`
    /// (an absolute `XDG_CONFIG_HOME`), else `$HOME/.config/photodeck/keys.conf`.
    public static func configurationPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/photodeck/keys.conf" }
        if let home = environment["HOME"], home.hasPrefix("/") { return "\(home)/.config/photodeck/keys.conf" }
        return nil
    }

    /// The largest `keys.conf` read: 64 KiB, a thousand times what a full
    /// set of bindings takes. A larger file is refused unread
    /// (``ConfigurationError/tooLarge(path:bytes:limit:)``).
    public static let maxConfigurationBytes = 64 << 10

    /// Why a `keys.conf` could not be read at all (a line that is not
    /// understood is a ``Problem`` instead, and the rest still apply).
    public enum ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file is larger than ``ViewerKeymap/maxConfigurationBytes``.
        case tooLarge(path: String, bytes: Int, limit: Int)
        /// The file could not be read (not a regular file, no permission),
        /// or is not UTF-8 text.
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .tooLarge(let path, let bytes, let limit):
                "\(path) is \(bytes) bytes, over the \(limit) a key file may have; it was not read (move it aside, or keep only the bindings)"
            case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
            }
        }
    }

    /// The keymap of the `keys.conf` at `path` (``parse(_:base:)`` on its
    /// text), or `nil` when there is no file there. The file is read only
    /// when it is a regular file of at most ``maxConfigurationBytes``.
    ///
    /// ```swift
    /// if let path = ViewerKeymap.configurationPath(), let loaded = try ViewerKeymap.load(fromFileAt: path) {
    ///     for problem in loaded.problems { print("\(path): \(problem)") }
    ///     await controller.setKeymap(loaded.keymap)
    /// }
    /// ```
    public static func load(
        fromFileAt path: String, base: ViewerKeymap = .standard
    ) throws(ConfigurationError) -> (keymap: ViewerKeymap, problems: [Problem])? {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.contents(of: path, limit: maxConfigurationBytes)
        } catch  where error.isMissing {
            return nil
        } catch  where error.isTooLarge {
            throw .tooLarge(path: path, bytes: (try? FileSystem.status(of: path).size) ?? 0, limit: maxConfigurationBytes)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .unreadable(path: path, reason: "it is not UTF-8 text") }
        return parse(text, base: base)
    }

    /// The standard keymap with the bindings of a `keys.conf` text, and
    /// the lines that were not understood (each skipped; the rest apply).
    ///
    /// One binding per line, `KEY = ACTION` (lines end with LF, CRLF or
    /// CR); `#` starts a comment. A problem quotes at most 80 characters of
    /// its line, terminal-safe. KEY is
    /// one printable character (`r`, `+`, `#` written as `"#"`) or a name:
    /// `left`, `right`, `shift-left`, `shift-right`, `up`, `down`, `home`,
    /// `end`, `page-up`, `page-down`, `space`, `backspace`, `enter`,
    /// `escape`. ACTION is one of ``KeyAction`` (`next`, `previous`,
    /// `first`, `last`, `zoom-in`, `zoom-out`, `fit`, `overlay`,
    /// `full-screen`, `slideshow`, `sort`, `grid`, `rotate-right`,
    /// `rotate-left`, `flip-horizontal`, `flip-vertical`, `play`,
    /// `play-motion`, `frame-forward`, `frame-back`, `seek-forward`,
    /// `seek-back`, `mute`, `quit`) or `none` (the key does nothing).
    ///
    /// ```swift
    /// let (keymap, problems) = ViewerKeymap.parse("j = next\nk = previous\nq = none\n")
    /// ```
    public static func parse(_ text: String, base: ViewerKeymap = .standard) -> (keymap: ViewerKeymap, problems: [Problem]) {
        var keymap = base
        var problems: [Problem] = []
        for (number, raw) in TextLines.split(text).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                problems.append(Problem(line: number + 1, reason: "expected KEY = ACTION, got '\(TextLines.excerpt(line))'"))
                continue
            }
            guard let key = key(named: parts[0]) else {
                problems.append(Problem(line: number + 1, reason: "unknown key '\(TextLines.excerpt(parts[0]))'"))
                continue
            }
            if parts[1] == "none" {
                keymap.bindings[key] = .some(nil)
            } else if let action = KeyAction(rawValue: parts[1]) {
                keymap.bindings[key] = .some(action)
            } else {
                problems.append(Problem(line: number + 1, reason: "unknown action '\(TextLines.excerpt(parts[1]))'"))
            }
        }
        return (keymap, problems)
    }

    /// The text up to a `#` that is not inside double quotes.
    private static func stripComment(_ line: String) -> String {
        var quoted = false
        var kept = ""
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == "#" && !quoted { break }
            kept.append(character)
        }
        return kept
    }

    private static func key(named name: String) -> ViewerKey? {
        let named: [String: ViewerKey] = [
            "left": .left, "right": .right, "shift-left": .shiftLeft, "shift-right": .shiftRight, "up": .up, "down": .down, "home": .home,
            "end": .end, "page-up": .pageUp, "page-down": .pageDown, "space": .space, "backspace": .backspace, "enter": .enter, "escape": .escape,
        ]
        if let key = named[name.lowercased()] { return key }
        var text = name
        if text.count == 3, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard text.count == 1, let character = text.first, !character.isWhitespace,
            character.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
        else { return nil }
        return .character(character)
    }
}
