import Foundation
import ImageCodecs
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the viewer tests run beside photo-browser: a private X server, the
/// X tools, tmux on a private socket, and photo-browser with its frame trace.
enum ViewerHarness {
    /// Whether a frame's trace line (`PHOTODECK_VIEWER_TRACE`) shows the
    /// final picture: a page's own pixels (not its placeholder or a
    /// preview), a grid whose visible thumbnails are all made. A screenshot
    /// that settles before then shows a stand-in that stays put.
    static func showsFinalPicture(_ line: some StringProtocol) -> Bool {
        guard line.hasPrefix("frame ") else { return false }
        if line.hasSuffix(" origin placeholder") || line.hasSuffix(" origin preview") { return false }
        if let pending = line.range(of: " pending ") { return line[pending.upperBound...].hasPrefix("0") }
        return true
    }

    struct ToolResult {
        let status: Int32
        let output: String
    }

    /// Runs a program from PATH to completion (on a thread of its own),
    /// spawned and reaped directly: Foundation's Process waits for a
    /// descriptor the child inherits, which a daemon it starts (tmux's
    /// server) keeps open, so it would wait forever. Output goes to a file
    /// for the same reason.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ToolResult {
        try await offPool { try spawnAndWait(name, arguments, environment: environment) }
    }

    /// ``tool(_:_:environment:)`` on the calling thread: only for code on a
    /// thread of its own or in a `defer` whose command returns at once.
    @discardableResult
    static func spawnAndWait(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        let result = try ChildProcess.run(name, arguments, environment: environment)
        return ToolResult(status: result.status, output: result.output)
    }

    /// ``ChildProcess/spawn(_:_:environment:output:)``: the caller reaps it with `waitpid`.
    static func spawn(_ name: String, _ arguments: [String], environment: [String: String], output: String? = nil) throws -> pid_t {
        try ChildProcess.spawn(name, arguments, environment: environment, output: output)
    }

    /// Whether `name` is on PATH.
    static func has(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// An Xvfb of its own; `display` is ":N". Xvfb picks a free number and
    /// writes it to standard output once it accepts connections.
    final class XServer: Sendable {
        let process: Process
        let display: String

        init(size: String = "1920x1080x24") async throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["Xvfb", "-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let reader = output.fileHandleForReading
            let number = try await offPool { () -> String in
                var text = ""
                while !text.hasSuffix("\n") {
                    let data = try bytes(availableFrom: reader)
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard !number.isEmpty else {
                process.terminate()
                throw HarnessFailure(description: "Xvfb did not start")
            }
            self.process = process
            display = ":\(number)"
        }

        /// Ends the server. Children of the test process inherit its blocked
        /// signals (SIGTERM among them), so only SIGKILL is sure to end it.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// photo-browser running with its stderr (the frame trace) and its
    /// standard output in files.
    final class Viewer: Sendable {
        let process: Process
        let trace: URL
        let output: URL

        /// `checksLeaks: false` turns LeakSanitizer off for the child (a
        /// sanitizer build only): SDL unloads the X11 and GL libraries it
        /// opened when it quits, and what they never freed then has no
        /// module to name, so no suppression can match it. The viewer's own
        /// code is leak-checked by the terminal and unit tests.
        init(_ arguments: [String], environment: [String: String], checksLeaks: Bool = true) throws {
            trace = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString).trace")
            _ = FileManager.default.createFile(atPath: trace.path, contents: nil)
            output = trace.deletingPathExtension().appendingPathExtension("out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = ExampleProcess.executable("photo-browser")
            process.arguments = arguments
            var sanitizer = ExampleProcess.sanitizerEnvironment
            if !checksLeaks, let options = sanitizer["LSAN_OPTIONS"] { sanitizer["LSAN_OPTIONS"] = options + ":detect_leaks=0" }
            if !checksLeaks, sanitizer["ASAN_OPTIONS"] != nil || sanitizer["LSAN_OPTIONS"] != nil {
                sanitizer["ASAN_OPTIONS"] = (sanitizer["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "detect_leaks=0"
            }
            process.environment = sanitizer.merging(environment) { _, own in own }
                .merging(["PHOTODECK_VIEWER_TRACE": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { _, own in own }
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: trace)
            try process.run()
            self.process = process
        }

        /// What the viewer printed on standard output (`--stats` on exit).
        var standardOutput: String { String(decoding: (try? fileBytes(output)) ?? [], as: UTF8.self) }

        /// Standard error without the frame lines (messages, sanitizer reports).
        var messages: String {
            String(decoding: (try? fileBytes(trace)) ?? [], as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("frame ") }.joined(separator: "\n")
        }

        /// The frame lines traced so far.
        var frames: [String] {
            String(decoding: (try? fileBytes(trace)) ?? [], as: UTF8.self).split(separator: "\n").map(String.init).filter { $0.hasPrefix("frame ") }
        }

        /// Waits for a frame line after the first `count` that satisfies `matches`.
        @discardableResult
        func waitForFrame(after count: Int, _ what: String, _ matches: @escaping (String) -> Bool = { _ in true }) async throws -> String {
            var found: String?
            try await waitUntil("a frame \(what); frames so far: \(frames)", timeout: .seconds(60)) {
                found = frames.dropFirst(count).first(where: matches)
                return found != nil || !process.isRunning
            }
            guard let found else { throw HarnessFailure(description: "photo-browser exited before a frame \(what): \(frames)") }
            return found
        }

        /// Waits for the process to end and returns its status.
        func waitForExit() async throws -> Int32 {
            try await waitUntil("photo-browser to exit", timeout: .seconds(60)) { !process.isRunning }
            return process.terminationStatus
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: trace)
            try? FileManager.default.removeItem(at: output)
        }
    }

    /// The numbers after `name` in a trace line: "centre 812,604" → [812, 604].
    static func numbers(_ name: String, in line: String) -> [Int] {
        let words = line.split(separator: " ")
        guard let index = words.dropFirst().firstIndex(where: { $0 == name[...] }), index + 1 < words.count else { return [] }
        return words[index + 1].split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Int($0) }
    }

    /// Generated photos with smooth content, in a fresh folder.
    static func photoFolder(_ sizes: [(Int, Int)]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-photos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, size) in sizes.enumerated() {
            let bitmap = Bitmap.gradient(width: size.0, height: size.1, phase: index)
            try Data(try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 92))).write(
                to: URL(fileURLWithPath: "\(folder)/photo-\(index + 1).jpg"))
        }
        return folder
    }
}

/// A helper of the viewer tests could not do its part.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
}
