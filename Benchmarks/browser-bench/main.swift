// browser-bench: how long a page turn takes in PhotoBrowserSession, with
// and without neighbour prefetch, over the photos in a folder.
//
//   browser-bench FOLDER [--viewport WxH] [--scale S] [--dwell MS] [--rounds N]
//
// For each mode it swipes through every photo, `rounds` times forward, and
// times each turn from the swipe to the page's pixels being ready (what a
// user waits for after the swipe animation). With prefetch, the user looks
// at each page for `dwell` ms before the next swipe. Prints one JSON object.

import ExampleSupport
import Foundation
import ImageCodecs
import PhotoBrowser
import SystemSupport

@main
struct BrowserBench {
    static func main() async {
        await runCommandLineTool { arguments in
            try await run(arguments)
            return 0
        }
    }

    static func run(_ arguments: [String]) async throws {
        var folder: String?
        var viewport = CGSize(width: 390, height: 844)
        var scale = 3.0
        var dwell = 400
        var rounds = 3
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--viewport":
                let size = try SizeArgument(iterator.next() ?? "", what: "--viewport")
                viewport = CGSize(width: size.width, height: size.height)
            case "--scale": scale = Double(iterator.next() ?? "") ?? scale
            case "--dwell": dwell = Int(iterator.next() ?? "") ?? dwell
            case "--rounds": rounds = max(1, Int(iterator.next() ?? "") ?? rounds)
            default: folder = argument
            }
        }
        guard let folder else { throw BenchError("usage: browser-bench FOLDER [--viewport WxH] [--scale S] [--dwell MS] [--rounds N]") }
        let photos = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().compactMap { try? BrowserPhoto(fileAt: "\(folder)/\($0)") }
        guard photos.count >= 2 else { throw BenchError("need at least two photos in \(folder)") }

        var results: [String: Any] = ["photos": photos.count, "rounds": rounds, "dwell_ms": dwell]
        for (mode, radius, wait) in [("on_demand", 0, 0), ("prefetch", 1, dwell)] {
            var turns: [Double] = []
            var opens: [Double] = []
            var decodes = 0
            var pages = 0
            var peakBytes = 0
            for _ in 0..<rounds {
                let settings = BrowserPager.Settings(viewportSize: viewport, screenScale: scale, prefetchRadius: radius)
                let started = ContinuousClock.now
                let session = try await PhotoBrowserSession(collection: photos, settings: settings, cache: RenditionCache(capacityBytes: 256 << 20))
                _ = try await session.currentPage()
                opens.append(milliseconds(since: started))
                pages += 1
                for _ in 1..<photos.count {
                    if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
                    let swipe = ContinuousClock.now
                    _ = try await session.handle(.swipe(translation: CGSize(width: -viewport.width / 2, height: 0), velocity: .zero))
                    _ = try await session.currentPage()
                    turns.append(milliseconds(since: swipe))
                    pages += 1
                }
                await session.waitForPrefetches()
                let stats = await session.cache.statistics
                decodes += stats.misses
                peakBytes = max(peakBytes, stats.byteCount)
            }
            results[mode] = [
                "open_median_ms": median(opens), "turn_median_ms": median(turns), "turn_p90_ms": percentile(turns, 0.9),
                "decodes_per_page": Double(decodes) / Double(pages), "cache_bytes": peakBytes,
            ]
        }
        let data = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return elapsed.inMilliseconds
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
