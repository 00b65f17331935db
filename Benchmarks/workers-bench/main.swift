// workers-bench: do concurrent renditions use both cores while the
// cooperative pool stays free?
//
//   workers-bench FILE... [--box WxH] [--rounds N]
//
// Renders every file to the box three ways and reports, for each, the wall
// time, the process's CPU time (getrusage) and their ratio, the number of
// cores the work kept busy:
// - one after another on one thread (the baseline);
// - all at once through ImageWorkers.shared.run (off the cooperative pool,
//   each free to split across threads);
// - all at once straight from tasks (on the cooperative pool: each runs
//   serially there, since nothing may block a pool thread).
// While the concurrent runs go, a probe task on the cooperative pool wakes
// every 10 ms; its worst lateness shows whether the pool stayed responsive.
// Prints one JSON object.

import ExampleSupport
import Foundation
import ImageCodecs
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

/// Wall and CPU seconds of `body`.
func measure(_ body: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let clock = ContinuousClock()
    let cpuStart = cpuSeconds()
    let start = clock.now
    try await body()
    let wall = start.duration(to: clock.now)
    return (wall.inSeconds, cpuSeconds() - cpuStart)
}

/// The worst lateness of a task that wakes every 10 ms on the cooperative
/// pool, while `body` runs.
func probeLateness(_ body: () async throws -> Void) async rethrows -> Double {
    let worst = Mutex(0.0)
    let probe = Task {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let start = clock.now
            try? await Task.sleep(for: .milliseconds(10))
            let late = start.duration(to: clock.now) - .milliseconds(10)
            let seconds = late.inSeconds
            worst.withLock { $0 = max($0, seconds) }
        }
    }
    try await body()
    probe.cancel()
    return worst.withLock { $0 } * 1000
}

@main
struct WorkersBench {
    static func main() async {
        await runCommandLineTool { arguments in
            try await run(arguments)
            return 0
        }
    }

    static func run(_ arguments: [String]) async throws {
        var files: [String] = []
        var box = PixelSize(width: 1170, height: 2532)
        var rounds = 3
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--box":
                let size = try SizeArgument(iterator.next() ?? "", what: "--box", wholeNumbers: true)
                box = PixelSize(width: size.pixelWidth, height: size.pixelHeight)
            case "--rounds": rounds = Int(iterator.next() ?? "") ?? rounds
            default: files.append(argument)
            }
        }
        guard !files.isEmpty else { throw BenchError(description: "usage: workers-bench FILE... [--box WxH] [--rounds N]") }
        let target = box
        let paths = files
        @Sendable func render(_ path: String) throws(ImageCodecError) -> Int {
            try DecodedImage(renderingFileAt: path, in: target, mode: .fit).bitmap.byteCount
        }
        var results: [String: [String: Double]] = [:]
        for (name, mode) in [("sequential", 0), ("workers", 1), ("tasks", 2)] {
            var walls: [Double] = []
            var cpus: [Double] = []
            var lateness: [Double] = []
            for _ in 0..<rounds {
                var timing = (wall: 0.0, cpu: 0.0)
                let late = try await probeLateness {
                    timing = try await measure {
                        switch mode {
                        case 0:
                            _ = try await ImageWorkers.shared.run { () throws(ImageCodecError) -> Int in
                                var total = 0
                                for file in paths { total += try render(file) }
                                return total
                            }
                        case 1:
                            try await withThrowingTaskGroup(of: Int.self) { group in
                                for file in paths {
                                    group.addTask { try await ImageWorkers.shared.run { () throws(ImageCodecError) -> Int in try render(file) } }
                                }
                                for try await _ in group {}
                            }
                        default:
                            try await withThrowingTaskGroup(of: Int.self) { group in
                                for file in paths { group.addTask { try render(file) } }
                                for try await _ in group {}
                            }
                        }
                    }
                }
                walls.append(timing.wall)
                cpus.append(timing.cpu)
                lateness.append(late)
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            results[name] = [
                "wall_ms": median(walls) * 1000, "cpu_ms": median(cpus) * 1000, "cores": median(cpus) / median(walls),
                "probe_late_max_ms": lateness.max() ?? 0,
            ]
        }
        let document: [String: Any] = ["files": files.count, "box": "\(box.width)x\(box.height)", "rounds": rounds, "results": results]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
