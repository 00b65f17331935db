// thumbnail-bench: thumbnails of every photo in a folder through
// PhotoBrowser's Thumbnailer, as a grid scrolled through it would ask.
//
//   thumbnail-bench FOLDER --cache DIR [--size normal|large|x-large|xx-large]
//
// All files are asked for at once; ImageWorkers runs as many as it has
// threads. Prints one JSON object: the files, the wall time, and where the
// thumbnails came from (cache, embedded preview, decode).

import ExampleSupport
import Foundation
import PhotoBrowser

@main
struct ThumbnailBench {
    static func main() async {
        await runCommandLineTool { arguments in
            try await run(arguments)
            return 0
        }
    }

    static func run(_ arguments: [String]) async throws {
        var folder: String?
        var cacheRoot: String?
        var size = ThumbnailSize.normal
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--cache": cacheRoot = iterator.next()
            case "--size": size = ThumbnailSize(rawValue: iterator.next() ?? "") ?? size
            default: folder = argument
            }
        }
        guard let folder, let cacheRoot else { throw CLIError("usage: thumbnail-bench FOLDER --cache DIR [--size normal|large|x-large|xx-large]") }
        let paths = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { "\(folder)/\($0)" }
        let thumbnailer = Thumbnailer(cache: ThumbnailCache(root: cacheRoot))
        let chosen = size
        let started = ContinuousClock.now
        let failures = await withTaskGroup(of: Bool.self) { group in
            for path in paths {
                group.addTask { (try? await thumbnailer.thumbnail(forFileAt: path, size: chosen)) == nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let statistics = await thumbnailer.statistics
        let result: [String: Any] = [
            "files": paths.count, "seconds": seconds, "per_second": Double(paths.count) / seconds, "cache": statistics.cacheHits,
            "embedded": statistics.embedded, "decoded": statistics.decoded, "failed": failures, "store_errors": statistics.storeErrors,
        ]
        let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}
