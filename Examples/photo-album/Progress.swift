import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Import progress: a redrawn bar on a terminal, plain lines otherwise.
struct Progress {
    let total: Int
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
        } else {
            print(line)
        }
    }
}
