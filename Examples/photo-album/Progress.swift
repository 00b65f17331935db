import ExampleSupport
import Foundation

/// Import progress: a redrawn bar when standard error is a terminal, else
/// one line per file on standard output, flushed as each file is done (so
/// a script reading the pipe sees each photo when it is committed).
struct Progress {
    let total: Int
    /// Whether lines are printed when standard error is not a terminal
    /// (`--json` prints one document instead).
    let printsLines: Bool
    let isTerminal = Console.errorIsTerminal
    private(set) var done = 0

    mutating func advance(_ line: String) {
        done += 1
        if isTerminal {
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            // Only the program's own text: the carriage return redraws the bar.
            Console.control("\r[\(bar)] \(done)/\(total) ")
            if done == total { Console.control("\n") }
        } else if printsLines {
            Console.line(line)  // written at once: Console does not buffer
        }
    }
}
