import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Programs the tests run (tmux, terminals, tumbler's session bus), spawned
/// and reaped directly. Foundation's `Process` passes on the test
/// process's blocked signals (a daemon the child starts, such as a session
/// bus, then ignores the SIGTERM meant to end it) and learns of an exit by
/// a descriptor such a daemon keeps open: xterm's clean-up waited ten
/// minutes, tumbler's forever.
public enum ChildProcess {
    /// A finished program: its exit status (128 + N for signal N) and standard output.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
    }

    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `name` (from PATH) to completion on the calling thread, with the
    /// test process's environment and `environment` over it; its output
    /// goes through a file, so a daemon it leaves behind holds nothing open.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out").path
        defer { unlink(path) }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
        let pid = try spawn(name, arguments, environment: merged, output: path)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, output: String(decoding: (try? fileBytes(URL(fileURLWithPath: path))) ?? [], as: UTF8.self))
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, when the C library has it.
    private static let closeFromAction: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Starts `name` (found on PATH through `env`) with exactly `environment`,
    /// no signal blocked, input from `/dev/null`, output to the file `output`
    /// (else `/dev/null`), errors to `/dev/null` and no other descriptor
    /// inherited; the caller reaps it with `waitpid`.
    public static func spawn(_ name: String, _ arguments: [String], environment: [String: String], output: String? = nil) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else the test process has open goes with it: a descriptor another
        // test opened without close-on-exec (a script being written, a lock) would
        // otherwise live as long as this program (a tmux server, a terminal).
        // (glibc 2.34+; Swift's Glibc module does not declare it, so it is looked up.)
        if let closeFrom = closeFromAction { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test process blocks signals its children must not inherit blocked.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["env", name] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for word in argv + envp { free(word) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start \(name): \(String(cString: strerror(spawned)))") }
        return pid
    }
}
