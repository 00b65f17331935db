import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Import progress: a redrawn bar when standard error is a terminal, else
/// one line per file on standard output, flushed as each file is done (so
/// a script reading the pipe sees each photo when it is committed).
struct Progress {
    let total: Int
    /// Whether lines are printed when standard error is not a terminal
    /// (`--json` prints one document instead).
    let printsLines: Bool
    let isTerminal = isatty(STDERR_FILENO) == 1
    private(set) var done = 0

    mutating func advance(_ line: String) {
        done += 1
        if isTerminal {
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            try? FileHandle.standardError.write(contentsOf: Data("\r[\(bar)] \(done)/\(total) ".utf8))
            if done == total { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
        } else if printsLines {
            print(line)
            fflush(nil)  // all output streams: `stdout` itself is global mutable state to Swift 6
        }
    }
}
