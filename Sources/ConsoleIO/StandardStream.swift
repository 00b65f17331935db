internal import SystemSupport

/// One of the process's standard streams, and whether a person is at it.
///
/// A tool asks before it draws pictures, shows a progress bar or prompts:
/// a pipe, a file or `/dev/null` gets plain lines instead.
///
/// ```swift
/// if StandardStream.error.isTerminal { showProgressBar() }
/// let interactive = StandardStream.input.isTerminal && StandardStream.output.isTerminal
/// ```
public enum StandardStream: Sendable, CaseIterable {
    /// Standard input.
    case input
    /// Standard output.
    case output
    /// Standard error.
    case error

    /// Whether the stream is a terminal (`isatty`), not a pipe, a file or a device.
    public var isTerminal: Bool {
        switch self {
        case .input: TerminalPort.standardInputIsTerminal
        case .output: TerminalPort.standardOutputIsTerminal
        case .error: TerminalPort.standardErrorIsTerminal
        }
    }
}
