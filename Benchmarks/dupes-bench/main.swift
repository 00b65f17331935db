// dupes-bench: near-duplicate signatures, grouping and lookups, timed.
//
//   dupes-bench FOLDER QUERIES [--store DIR] [--groups FILE]
//
// Makes every photo's signature in FOLDER on every core, groups them, then
// looks up each photo of QUERIES (not in FOLDER) in the index; with --store,
// the same through an AlbumStore that imported FOLDER (`photo-album import`):
// its groups cold (opened just now: the index built from the stored
// signatures) and warm, and its lookups. Prints one JSON object; --groups
// writes the groups (file names) as JSON, to score them.

import Dispatch
import Foundation
import ImageCodecs
import PhotoAlbum
import Synchronization

func files(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func percentile95(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 95 / 100)]
}

/// Signatures of `paths`, made on every core (a benchmark's own threads; no async code waits on them).
func signatures(of paths: [String]) -> [ImageSignature?] {
    let slots = Mutex([ImageSignature?](repeating: nil, count: paths.count))
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
        let made = try? ImageSignature(summarizingImageAt: paths[index])
        slots.withLock { $0[index] = made }
    }
    return slots.withLock { $0 }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: dupes-bench FOLDER QUERIES [--store DIR]\n".utf8))
    exit(2)
}
let corpus = files(in: arguments[0])
let queries = files(in: arguments[1])
var made: [ImageSignature?] = []
let signing = seconds { made = signatures(of: corpus) }
var index = SignatureIndex<String>()
for (path, signature) in zip(corpus, made) { if let signature { index.insert(signature, for: path) } }
var groups: [[String]] = []
let grouping = seconds { groups = index.groups() }
let querySignatures = signatures(of: queries).compactMap { $0 }
var lookups: [Double] = []
var found = 0
// Each query timed five times, its median kept: one lookup takes milliseconds, and a
// single timing is at the mercy of whatever else the machine did in them.
for query in querySignatures {
    var times: [Double] = []
    var hit = false
    for _ in 0..<5 { times.append(seconds { hit = !index.nearDuplicates(of: query).isEmpty } * 1000) }
    found += hit ? 1 : 0
    lookups.append(median(times))
}
var result: [String: Any] = [
    "photos": corpus.count, "signed": made.compactMap { $0 }.count, "signSeconds": signing, "groupSeconds": grouping, "groups": groups.count,
    "grouped": groups.reduce(0) { $0 + $1.count }, "queries": querySignatures.count, "queriesFound": found,
    "lookupMedianMs": median(lookups), "lookupP95Ms": percentile95(lookups),
]

if let flag = arguments.firstIndex(of: "--store"), flag + 1 < arguments.count {
    let directory = arguments[flag + 1]
    let outcome: [String: Any] = try await {
        var cold = 0.0
        var warm = 0.0
        var storeGroups = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let store = try await AlbumStore.open(directory: directory)
        storeGroups = try await store.duplicateGroups().count
        cold = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let again = DispatchTime.now().uptimeNanoseconds
        _ = try await store.duplicateGroups()
        warm = Double(DispatchTime.now().uptimeNanoseconds - again) / 1e9
        var storeLookups: [Double] = []
        for query in querySignatures {
            var times: [Double] = []
            for _ in 0..<5 {
                let begin = DispatchTime.now().uptimeNanoseconds
                _ = try await store.nearDuplicates(of: query)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
            }
            storeLookups.append(median(times))
        }
        await store.close()
        return [
            "storeGroupsColdSeconds": cold, "storeGroupsWarmSeconds": warm, "storeGroups": storeGroups,
            "storeLookupMedianMs": median(storeLookups), "storeLookupP95Ms": percentile95(storeLookups),
        ]
    }()
    result.merge(outcome) { $1 }
}
if let flag = arguments.firstIndex(of: "--groups"), flag + 1 < arguments.count {
    let names = groups.map { $0.map { ($0 as NSString).lastPathComponent } }
    try JSONSerialization.data(withJSONObject: names).write(to: URL(fileURLWithPath: arguments[flag + 1]))
}
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
