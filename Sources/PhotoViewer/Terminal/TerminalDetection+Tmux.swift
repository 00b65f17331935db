extension TerminalDetection {
    /// ``graphicsQuery`` wrapped in tmux's passthrough, so the questions
    /// reach the terminal outside tmux, whose answers tmux hands to the
    /// pane. tmux answers DA1 and XTVERSION itself (as `tmux 3.3a`,
    /// without sixel), so only the wrapped questions tell what the person's
    /// terminal shows. Send it only when the pane allows passthrough:
    /// otherwise tmux drops it, and nothing ends the wait but the timeout.
    public static let tmuxGraphicsQuery = String(decoding: TmuxPassthroughEncoder.passthrough(Array(graphicsQuery.utf8)), as: UTF8.self)

    /// The best graphics that reach the person through tmux's `pane`, given
    /// the outer terminal's `replies` to ``tmuxGraphicsQuery``: nothing but
    /// colour blocks unless passthrough is allowed; then kitty's when the
    /// client is a kitty-graphics terminal or said OK to the kitty question,
    /// iTerm2's images when its XTVERSION name says iTerm2 or WezTerm, sixel
    /// when its device attributes list it (xterm as a VT340, mlterm, foot),
    /// else colour blocks.
    ///
    /// ```swift
    /// let pane = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm")
    /// let sixel = TerminalDetection.graphics(replies: [Array("\u{1B}[?63;4;22c".utf8)], through: pane)
    /// ```
    public static func graphics(replies: [[UInt8]], through pane: TmuxPane) -> TerminalGraphics {
        guard pane.allowsPassthrough else { return .ansi }
        if pane.passesKittyGraphics { return .kitty }
        if let answered = graphics(answeredBy: replies) { return answered }
        if let attributes = replies.last(where: isDeviceAttributes), supportsSixel(attributes) { return .sixel }
        return .ansi
    }
}
