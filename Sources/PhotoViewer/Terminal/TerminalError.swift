import Foundation
import SystemSupport

/// Why a terminal viewer could not run or draw.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal where one is needed.
    case notATerminal(String)
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// An encoder could not encode the canvas.
    case encoding(String)

    public var description: String {
        switch self {
        case .notATerminal(let what): "\(what) is not a terminal"
        case .system(let call, let code): "\(call) failed: \(SystemError.reason(for: code))"
        case .encoding(let reason): "cannot encode the picture for the terminal: \(reason)"
        }
    }
}
