/// Why a viewer stopped.
public enum ViewerExit: Hashable, Sendable {
    /// The person quit (`q`, Escape, closing the window) or `--once` drew its screen.
    case quit
    /// Input ended (standard input closed).
    case endOfInput
    /// A signal asked the process to stop (SIGINT, SIGTERM, SIGHUP); the screen was restored first.
    case signal(Int32)

    /// The exit status a command-line tool reports for it (128 + the signal for a signal).
    public var status: Int32 {
        switch self {
        case .quit, .endOfInput: 0
        case .signal(let number): 128 + number
        }
    }
}
