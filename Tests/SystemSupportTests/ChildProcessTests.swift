import Foundation
import SystemSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The package's one way to run a program (tmux's answer, for the viewer):
/// posix_spawn, a bounded read with a deadline, the child reaped.
@Suite("Child processes")
struct ChildProcessTests {
    static let environment = ["PATH": "/usr/bin:/bin"]

    @Test("a program's status and output come back; the environment is exactly the one given")
    func statusAndOutput() throws {
        let finished = try ChildProcess.run(["sh", "-c", "printf 'hello'; exit 3"], environment: Self.environment, timeout: .seconds(60))
        #expect(finished == ChildProcess.Finished(status: 3, output: Array("hello".utf8)))
        let listed = try ChildProcess.run(["env"], environment: ["PATH": "/usr/bin:/bin", "PHOTODECK_ONLY": "1"], timeout: .seconds(60))
        let lines = String(decoding: listed.output, as: UTF8.self).split(separator: "\n").sorted()
        #expect(lines == ["PATH=/usr/bin:/bin", "PHOTODECK_ONLY=1"])
    }

    @Test("a program that never ends its output is killed at the deadline: an error long before it would have ended")
    func deadline() {
        let started = ContinuousClock.now
        do {
            _ = try ChildProcess.run(["sleep", "600"], environment: Self.environment, timeout: .milliseconds(200))
            Issue.record("sleep 600 ended within 200 ms")
        } catch {
            #expect(error.description.contains("no end within"), "\(error)")
        }
        // Killed and reaped (run waits for it), not left to run its ten minutes.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("output past the bound stops the program with a too-large error; output at the bound is kept; a missing program is status 127")
    func boundAndMissing() throws {
        do {
            _ = try ChildProcess.run(["cat", "/dev/zero"], environment: Self.environment, timeout: .seconds(60), outputLimit: 4096)
            Issue.record("an endless output was accepted")
        } catch {
            #expect(error.isTooLarge && error.path == "cat", "\(error)")
        }
        let exact = try ChildProcess.run(["head", "-c", "4096", "/dev/zero"], environment: Self.environment, timeout: .seconds(60), outputLimit: 4096)
        #expect(exact.status == 0 && exact.output.count == 4096)
        #expect(try ChildProcess.run(["photodeck-no-such-program"], environment: Self.environment, timeout: .seconds(60)).status == 127)
        #expect(throws: SystemError.self) { _ = try ChildProcess.spawn([], environment: Self.environment) }
    }

    @Test("the child gets the three streams and nothing else this process has open")
    func noInheritedDescriptors() throws {
        // Opened without close-on-exec, as a C library might.
        let stray = open("/dev/null", O_RDONLY)
        #expect(stray >= 0)
        defer { close(stray) }
        let finished = try ChildProcess.run(["ls", "/proc/self/fd"], environment: Self.environment, timeout: .seconds(60))
        let descriptors = String(decoding: finished.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        // The three streams, and ls's own listing of the folder (3).
        #expect(Set(descriptors).isSubset(of: [0, 1, 2, 3]) && descriptors.count <= 4, "\(descriptors), stray \(stray)")
    }
}
