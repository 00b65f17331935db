#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one way to start a program and end it: `posix_spawn`
/// directly, never Foundation's `Process`. `Process` passes on the
/// starting thread's blocked signals (a libdispatch thread blocks SIGTERM,
/// so the child would ignore it), learns of an exit through a descriptor a
/// daemon the child starts keeps open, and in Swift 6.3.1 traps when the
/// process has more than about 1,350 descriptors open.
package enum ChildProcess {
    /// Where a started program's standard output goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case discarded
        /// A file, created or truncated (mode 0600).
        case file(String)
        /// A descriptor of this process (the write end of a pipe or socket).
        case descriptor(Int32)
    }

    /// What a finished program left: its exit status (128 + N when signal N
    /// ended it) and its standard output.
    package struct Finished: Sendable, Equatable {
        /// The exit status, or 128 + the signal's number.
        package let status: Int32
        /// What it wrote on standard output, up to the reader's bound.
        package let output: [UInt8]

        /// A finished program's status and output.
        package init(status: Int32, output: [UInt8]) {
            self.status = status
            self.output = output
        }
    }

    /// Starts `arguments[0]`, found on PATH through `/usr/bin/env`, with
    /// exactly `environment`, no signal blocked, standard input from
    /// `/dev/null`, standard output to `output`, standard error to
    /// `/dev/null`, and no other descriptor of this process. The caller
    /// reaps it with ``wait(for:)``.
    package static func spawn(_ arguments: [String], environment: [String: String], output: Output = .discarded) throws(SystemError) -> Int32 {
        guard let name = arguments.first else { throw SystemError(operation: "starting", path: "", reason: "no program named") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch output {
        case .discarded: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else this process has open goes with it: a descriptor opened without
        // close-on-exec elsewhere (a lock, a file being written) would live as long as
        // the program (glibc 2.34+; Swift's Glibc module does not declare it, so it is
        // looked up).
        if let closeFrom = closeFromAction { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["env"] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for word in argv + envp { free(word) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SystemError(operation: "starting", path: name, code: spawned, reason: SystemError.reason(for: spawned)) }
        return pid
    }

    /// Waits for `pid` to end and returns its exit status (128 + N when
    /// signal N ended it). Blocks the calling thread.
    package static func wait(for pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs `arguments` (the program found on PATH) with exactly
    /// `environment` and reads its standard output until it ends. Output
    /// is a claim like any other: past `outputLimit` bytes, or without an
    /// end within `timeout`, the program is killed and reaped and the
    /// error says which. Blocks the calling thread: only for threads of
    /// the floor.
    ///
    /// - Throws: the start's error; ``SystemError/isTooLarge`` for output
    ///   over the limit; a "reading the output of" error for a deadline
    ///   missed or a read that failed.
    package static func run(_ arguments: [String], environment: [String: String], timeout: Duration, outputLimit: Int = 4096) throws(SystemError) -> Finished {
        let name = arguments.first ?? ""
        let channel = try Descriptor.wakePair()
        let pid: Int32
        do {
            pid = try spawn(arguments, environment: environment, output: .descriptor(channel.write))
        } catch {
            Descriptor.close(channel.read)
            Descriptor.close(channel.write)
            throw error
        }
        // The child has its own copy: the reader sees the end when the child's closes.
        Descriptor.close(channel.write)
        defer { Descriptor.close(channel.read) }
        let output: [UInt8]
        switch readToEnd(channel.read, within: timeout, limit: outputLimit) {
        case .ended(let bytes):
            output = bytes
        case .overLimit(let count):
            kill(pid)
            _ = wait(for: pid)
            throw .tooLarge(path: name, size: count, limit: outputLimit)
        case .timedOut:
            kill(pid)
            _ = wait(for: pid)
            throw SystemError(operation: "reading the output of", path: name, reason: "no end within \(timeout)")
        case .failed(let error):
            kill(pid)
            _ = wait(for: pid)
            throw error
        }
        return Finished(status: wait(for: pid), output: output)
    }

    /// How reading a program's output ended.
    private enum Reading {
        case ended([UInt8])
        case overLimit(Int)
        case timedOut
        case failed(SystemError)
    }

    /// What `descriptor` delivers until end of file, stopping as soon as it
    /// passes `limit` bytes or `timeout` passes: a poll with the time left,
    /// no thread waiting on a semaphore.
    private static func readToEnd(_ descriptor: Int32, within timeout: Duration, limit: Int) -> Reading {
        let deadline = ContinuousClock.now + timeout
        var output: [UInt8] = []
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            switch Descriptor.waitReadable([descriptor], timeout: Int32(clamping: max(1, left.wholeMilliseconds))) {
            case .ready:
                switch Descriptor.read(descriptor, limit: 4096) {
                case .bytes(let bytes):
                    output += bytes
                    if output.count > limit { return .overLimit(output.count) }
                case .end: return .ended(output)
                case .again: continue
                case .failed: return .failed(.current("reading the output of a program", path: ""))
                }
            case .timedOut, .interrupted: continue
            case .failed: return .failed(.current("waiting for the output of a program", path: ""))
            }
        }
    }

    /// Ends the process `id` at once (SIGKILL). Not SIGTERM: a process
    /// started from one of libdispatch's threads inherits that thread's
    /// blocked signals, SIGTERM among them, and would ignore it. Does
    /// nothing for an id of 0 or less (which would name a process group).
    package static func kill(_ id: Int32) {
        guard id > 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.kill(id, SIGKILL)
        #elseif canImport(Darwin)
            _ = Darwin.kill(id, SIGKILL)
        #endif
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, when the C library has it.
    private static let closeFromAction: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
