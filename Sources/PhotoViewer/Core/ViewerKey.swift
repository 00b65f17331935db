public import Foundation
public import PhotoBrowser

/// A key as the viewers see it, from a window's key events or a terminal's
/// escape sequences.
public enum ViewerKey: Hashable, Sendable {
    /// The left arrow.
    case left
    /// The right arrow.
    case right
    /// Shift and the left arrow (a video's page: back five seconds).
    case shiftLeft
    /// Shift and the right arrow (a video's page: on five seconds).
    case shiftRight
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// The space bar.
    case space
    /// BackSpace (or Delete on some terminals).
    case backspace
    /// Enter.
    case enter
    /// Escape.
    case escape
    /// A printable character.
    case character(Character)
    /// Ctrl-C typed in a raw terminal.
    case interrupt
}

/// Which command each key asks for: the same keys in the window and in a terminal.
///
/// ```swift
/// let command = ViewerKeymap.standard.command(for: .right, pointer: centre)   // .next
/// ```
public struct ViewerKeymap: Sendable {
    /// The zoom step of `+` and `-` (and one wheel notch).
    public var zoomStep: Double
    /// Keys bound to other actions than the standard ones (`nil`: the key does nothing).
    public var bindings: [ViewerKey: KeyAction?] = [:]

    /// Arrows, Space/BackSpace, Home/End, `+`/`-`, `0`, `f`, `i`, `s` (slideshow), `o` (order), `g` and Enter (grid), `r`/`R` (turn), `h`/`v` (flip), `q`/Escape;
    /// on pages that move, Space/`k` (play), Shift+Left/Right (seek), `,`/`.` (frames), `m` (mute) and `l` (a Live Photo's motion): ``playbackCommand(for:motion:)``.
    public static let standard = ViewerKeymap(zoomStep: 1.25)

    /// Creates a keymap with a zoom step per key press.
    public init(zoomStep: Double) {
        self.zoomStep = max(1.01, zoomStep)
    }

    /// The command for `key`, zooming around `pointer`; `nil` for keys that do nothing.
    public func command(for key: ViewerKey, pointer: CGPoint) -> ViewerCommand? {
        if let bound = bindings[key] { return bound?.command(zoomStep: zoomStep, pointer: pointer) }
        return standardCommand(for: key, pointer: pointer)
    }

    /// The command for `key` on a page that moves (`motion`): on a video's
    /// page Space and `k` play or pause, Shift+Left and Shift+Right seek
    /// five seconds back and on, `,` and `.` step a frame; on a Live
    /// Photo's or Motion Photo's, `l` plays its motion; on all of them `m`
    /// mutes and unmutes. `nil` when the key means what it means on any
    /// page (or is bound to something else).
    public func playbackCommand(for key: ViewerKey, motion: BrowserMotion) -> ViewerCommand? {
        guard bindings[key] == nil else { return nil }
        switch (key, motion) {
        case (.space, .video), (.character("k"), .video): return .togglePlayback
        case (.character("."), .video): return .stepFrame(forward: true)
        case (.character(","), .video): return .stepFrame(forward: false)
        case (.shiftLeft, .video): return .seek(by: .seconds(-5))
        case (.shiftRight, .video): return .seek(by: .seconds(5))
        case (.character("m"), _): return .toggleMute
        case (.character("l"), .livePhoto), (.character("l"), .motionPhoto): return .playMotion
        default: return nil
        }
    }

    /// The command for `key` on a stack's page (a burst, a RAW+JPEG pair)
    /// at `position`: Down shows the next frame and Up the previous one;
    /// past the last or first frame they turn the page as anywhere else
    /// (`nil`), and so does a key bound to something else.
    public func stackCommand(for key: ViewerKey, position: StackPosition) -> ViewerCommand? {
        guard bindings[key] == nil else { return nil }
        switch key {
        case .down where position.frame + 1 < position.count: return .showFrame(forward: true)
        case .up where position.frame > 0: return .showFrame(forward: false)
        default: return nil
        }
    }

    private func standardCommand(for key: ViewerKey, pointer: CGPoint) -> ViewerCommand? {
        switch key {
        case .right, .shiftRight, .space, .pageDown, .down: .next
        case .left, .shiftLeft, .backspace, .pageUp, .up: .previous
        case .home: .first
        case .end: .last
        case .escape, .interrupt: .quit
        case .enter: .toggleGrid
        case .character(let character):
            switch character {
            case "q", "Q": .quit
            case "+", "=": .zoom(by: zoomStep, at: pointer)
            case "-", "_": .zoom(by: 1 / zoomStep, at: pointer)
            case "0": .fit
            case "f", "F": .toggleFullScreen
            case "i", "I": .toggleInfo
            case "s", "S": .toggleSlideshow
            case "o", "O": .cycleOrder
            case "g", "G": .toggleGrid
            case "n", "l", "j": .next
            case "p", "k": .previous
            case "r": .orient(.right)
            case "R": .orient(.left)
            case "h", "H": .orient(.upMirrored)
            case "v", "V": .orient(.downMirrored)
            default: nil
            }
        }
    }
}
