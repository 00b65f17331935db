// pool-stall-probe: the disk executor's claim, measured in a process of
// its own (so no other test's work shares its cooperative pool).
//
//   pool-stall-probe STORE_TOOL FOLDER
//
// Opens (cores + 2) album stores in FOLDER, has STORE_TOOL (`store-tool
// hold`) take each one's SQLite lock from a second process, starts a write
// to every store, waits until they all wait for the lock, then runs 200
// small tasks on the pool, and only then lets the locks go. Prints:
//
//   events tasks,write,write,...   what finished, in order
//   slowest-ms 1.234               the 200 tasks, start to last finish
//   created 4 of 4                 writes that went through
//   albums 4 of 4                  stores that list the album afterwards

import Foundation
import PhotoAlbum
import SQLiteSupport
import Synchronization

/// What finished, in the order it did.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: pool-stall-probe STORE_TOOL FOLDER\n".utf8))
    exit(2)
}
let (storeTool, folder) = (arguments[0], arguments[1])
let count = ProcessInfo.processInfo.activeProcessorCount + 2
let stores = try (0..<count).map { index in try AlbumStore(directory: "\(folder)/store-\(index)") }

let holder = Process()
holder.executableURL = URL(fileURLWithPath: storeTool)
holder.arguments = ["hold"] + (0..<count).map { "\(folder)/store-\($0)/index.sqlite" }
let input = Pipe()
let output = Pipe()
holder.standardInput = input
holder.standardOutput = output
try holder.run()
var answer = Data()
while !answer.contains(UInt8(ascii: "\n")) {
    // read(2) itself, retried on EINTR: `availableData` traps on it.
    var chunk = [UInt8](repeating: 0, count: 64)
    let count = chunk.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    answer.append(contentsOf: chunk[0..<count])
}
guard answer == Data("held\n".utf8) else {
    FileHandle.standardError.write(Data("store-tool did not take the locks\n".utf8))
    exit(1)
}

/// Creates an album in each store at once; whether each went through.
func writeAll(_ stores: [AlbumStore], events: EventLog) async -> [Bool] {
    await withTaskGroup(of: Bool.self) { group in
        for store in stores {
            group.addTask {
                let created = (try? await store.createAlbum(named: "Trip")) != nil
                events.append("write")
                return created
            }
        }
        var created: [Bool] = []
        for await one in group { created.append(one) }
        return created
    }
}

/// Runs 200 small tasks on the pool; the longest from `start` to a finish.
func smallTasks(from start: ContinuousClock.Instant) async -> Duration {
    await withTaskGroup(of: Duration.self) { group in
        for index in 0..<200 {
            group.addTask {
                var value = index
                for _ in 0..<1_000 { value = value &* 31 &+ 7 }
                precondition(value != Int.min)
                return ContinuousClock.now - start
            }
        }
        var slowest = Duration.zero
        for await one in group { slowest = max(slowest, one) }
        return slowest
    }
}

let events = EventLog()
let waitsBefore = SQLiteDatabase.busyWaitCount
let writes = Task { [stores] in await writeAll(stores, events: events) }
// Wait for the event: every store has found its database locked (each waits
// again every few milliseconds, so 4 waits a store on average).
let patience = ContinuousClock.now + .seconds(60)
while SQLiteDatabase.busyWaitCount - waitsBefore < count * 4, ContinuousClock.now < patience { await Task.yield() }

let start = ContinuousClock.now
let slowest = await smallTasks(from: start)
events.append("tasks")
try input.fileHandleForWriting.close()
let created = await writes.value
holder.waitUntilExit()
var listed = 0
for store in stores where (try? await store.albums().map(\.name)) == ["Trip"] { listed += 1 }

let milliseconds = Double(slowest.components.seconds) * 1000 + Double(slowest.components.attoseconds) / 1e15
print("events \(events.all.joined(separator: ","))")
print("slowest-ms \(String(format: "%.3f", milliseconds))")
print("created \(created.filter { $0 }.count) of \(count)")
print("albums \(listed) of \(count)")
