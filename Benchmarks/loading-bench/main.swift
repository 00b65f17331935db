// loading-bench: a timeline's thumbnails through ImageLoader, as an app
// loads them, and the cache's hit latencies.
//
//   loading-bench timeline URLS_FILE CACHE_DIR [--cell PIXELS] [--first N]
//   loading-bench hits URLS_FILE CACHE_DIR [--size WxH] [--repeats N]
//   loading-bench previews URLS_FILE CACHE_DIR [--size WxH]
//   loading-bench resume URLS_FILE CACHE_DIR [--size WxH]
//   loading-bench viewer URLS_FILE CACHE_DIR [--size WxH]
//
// timeline: every URL of the file (one per line, in timeline order) is
// asked for at once, as a `.fill` rendition of a square cell (default
// 390 pixels: three a row on a 390-point screen at 3x); the first screen's
// (the first N, default 21) at visible priority, the rest as prefetches.
// Times from the start to the first screen's renditions and to all of
// them; counts downloads and decodes; reports the process's peak memory
// and its peak number of threads. The disk cache in CACHE_DIR should be
// empty (a cold start).
//
// hits: loads every URL once (filling CACHE_DIR), then times, per URL, a
// load from the disk cache by a fresh loader (bytes read, verified and
// decoded at the size), a load of the bytes alone, and a memory-cache hit
// of the decoded rendition (default 1170x2532, a 390x844 screen at 3x).
// previews: loads the first URL through `updates(for:)` at the size (a
// progressive JPEG on a slow server) and times the first preview, each
// preview's bytes, and the image.
//
// resume: loads the first URL with no retries (the server cuts it), then
// again with a fresh loader over the same disk cache (a later run), which
// resumes from the kept bytes.
//
// viewer: opens the first URL as a viewer's page, as photo-browser does
// (the header from `info(at:)`, a `ViewerController` over a 390x844
// screen at 3x) and times the page's opening, each frame it draws while
// the photo downloads (its origin: placeholder, preview) and the frame
// with the pixels.
//
// Prints one JSON object.

import ExampleSupport
import Foundation
import ImageCodecs
import ImageLoading
import PhotoBrowser
import PhotoViewer
import ServiceKit
import Synchronization

@main
struct LoadingBench {
    static func main() async {
        await runCommandLineTool { arguments in
            try await run(arguments)
            return 0
        }
    }

    static let usage = "usage: loading-bench timeline|hits URLS_FILE CACHE_DIR [--cell PIXELS] [--first N] [--size WxH] [--repeats N]"

    static func run(_ arguments: [String]) async throws {
        var positional: [String] = []
        var cell = 390
        var first = 21
        var size = PixelSize(width: 1170, height: 2532)
        var repeats = 5
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--cell": cell = try reader.number(for: argument, in: 1...10_000)
            case "--first": first = try reader.number(for: argument, in: 1...10_000)
            case "--repeats": repeats = try reader.number(for: argument, in: 1...1_000)
            case "--size":
                let parsed = try SizeArgument(try reader.value(for: argument), what: "--size", range: 1...20_000)
                size = PixelSize(width: Int(parsed.width), height: Int(parsed.height))
            default: positional.append(argument)
            }
        }
        guard positional.count == 3 else { throw CLIError(usage) }
        let urls = try String(contentsOfFile: positional[1], encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
        let cache = try await DiskCache.open(directory: positional[2], capacityBytes: 1 << 30)
        let result: [String: Any]
        switch positional[0] {
        case "timeline": result = try await timeline(urls, cache: cache, cell: cell, first: min(first, urls.count))
        case "hits": result = try await hits(Array(NSOrderedSet(array: urls).array as? [URL] ?? urls), cache: cache, size: size, repeats: repeats)
        case "previews":
            guard let url = urls.first else { throw CLIError(usage) }
            result = try await previews(url, cache: cache, size: size)
        case "resume":
            guard let url = urls.first else { throw CLIError(usage) }
            result = try await resume(url, cache: cache, size: size)
        case "viewer":
            guard let url = urls.first else { throw CLIError(usage) }
            result = try await viewer(url, cache: cache)
        default: throw CLIError(usage)
        }
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        Console.line(String(decoding: data, as: UTF8.self))
    }

    static func previews(_ url: URL, cache: DiskCache, size: PixelSize) async throws -> [String: Any] {
        let start = ContinuousClock.now
        var previews: [[String: Any]] = []
        var image: [String: Any] = [:]
        for try await update in loader(cache).updates(for: ImageRequest(url: url, size: size)) {
            let elapsed = (ContinuousClock.now - start).inMilliseconds
            switch update {
            case .preview(let preview):
                previews.append(["ms": elapsed, "bytes": preview.receivedBytes, "of": preview.expectedBytes])
            case .image(let loaded): image = ["ms": elapsed, "width": loaded.bitmap.width]
            case .placeholder: break
            }
        }
        return ["previews": previews, "image": image]
    }

    static func viewer(_ url: URL, cache: DiskCache) async throws -> [String: Any] {
        let loader = loader(cache)
        let start = ContinuousClock.now
        let info = try await loader.info(at: url)
        let opened = (ContinuousClock.now - start).inMilliseconds
        let photo = BrowserPhoto(
            id: url.absoluteString, source: .rendered(RemoteImage(url: url, loader: loader)), displaySize: info.orientedSize,
            placeholder: await loader.placeholder(for: ImageRequest(url: url, size: info.orientedSize)))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 390, height: 844), scale: 3)
        var redraws = await controller.redrawRequests().makeAsyncIterator()
        var frames: [[String: Any]] = []
        while true {
            guard case .page(let page) = await controller.frame().content else { throw CLIError("the page could not be shown") }
            frames.append(["ms": (ContinuousClock.now - start).inMilliseconds, "origin": page.origin.rawValue, "width": page.rendition.width])
            if !page.origin.isInterim { break }
            guard await redraws.next() != nil else { break }
        }
        return ["opened": opened, "frames": frames]
    }

    static func resume(_ url: URL, cache: DiskCache, size: PixelSize) async throws -> [String: Any] {
        let once = ImageLoader(configuration: .init(retryPolicy: .never, diskCache: cache))
        let failed = (try? await once.image(for: ImageRequest(url: url, size: size))) == nil
        let kept = try await cache.partial(for: url)?.bytes.count ?? 0
        let start = ContinuousClock.now
        let loaded = try await loader(cache).image(for: ImageRequest(url: url, size: size))
        return ["firstFailed": failed, "keptBytes": kept, "resumedMs": (ContinuousClock.now - start).inMilliseconds, "width": loaded.bitmap.width]
    }

    /// A loader as an app makes one: URLSession, the disk cache, 256 MB of renditions.
    static func loader(_ cache: DiskCache) -> ImageLoader {
        ImageLoader(configuration: .init(diskCache: cache, renditionCache: RenditionCache(capacityBytes: 256 << 20)))
    }

    static func timeline(_ urls: [URL], cache: DiskCache, cell: Int, first: Int) async throws -> [String: Any] {
        let loader = loader(cache)
        let box = PixelSize(width: cell, height: cell)
        let threads = PeakThreads()
        threads.start()
        let start = ContinuousClock.now
        let done = try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            for (index, url) in urls.enumerated() {
                let priority: ImagePriority = index < first ? .visible : .prefetch
                group.addTask(priority: index < first ? .userInitiated : .utility) {
                    _ = try await loader.image(for: ImageRequest(url: url, size: box, mode: .fill, priority: priority))
                    return (index, milliseconds(since: start))
                }
            }
            var times = [Double](repeating: 0, count: urls.count)
            for try await (index, time) in group { times[index] = time }
            return times
        }
        threads.stop()
        let statistics = await loader.statistics
        let hosts = Set(urls.compactMap { $0.host })
        var peakConnections = 0
        for host in hosts {
            if let url = urls.first(where: { $0.host == host }) { peakConnections += await loader.peakConnections(for: url) }
        }
        return [
            "first_screen_ms": done.prefix(first).max() ?? 0, "total_ms": done.max() ?? 0, "images": urls.count,
            "distinct_urls": Set(urls).count, "downloads": statistics.downloads, "decodes": statistics.decodes,
            "joined_downloads": statistics.joinedDownloads, "memory_hits": statistics.memoryHits, "peak_rss_mb": peakResidentMegabytes(),
            "peak_threads": threads.peak, "peak_connections": peakConnections, "hosts": hosts.count,
        ]
    }

    static func hits(_ urls: [URL], cache: DiskCache, size: PixelSize, repeats: Int) async throws -> [String: Any] {
        // Fill the disk cache.
        let warm = loader(cache)
        for url in urls { _ = try await warm.data(at: url) }
        var diskDecoded: [Double] = []
        var diskBytes: [Double] = []
        var memory: [Double] = []
        for _ in 0..<repeats {
            // A fresh loader each round: its memory cache is empty, the disk cache full.
            let cold = loader(cache)
            for url in urls {
                let request = ImageRequest(url: url, size: size)
                var start = ContinuousClock.now
                let loaded = try await cold.image(for: request)
                diskDecoded.append(milliseconds(since: start))
                guard loaded.origin == .disk else { throw CLIError("\(url) came from \(loaded.origin), not the disk cache") }
                start = ContinuousClock.now
                let hit = try await cold.image(for: request)
                memory.append(milliseconds(since: start))
                guard hit.origin == .memory else { throw CLIError("\(url) came from \(hit.origin), not memory") }
            }
            let bytesOnly = loader(cache)
            for url in urls {
                let start = ContinuousClock.now
                let loaded = try await bytesOnly.data(at: url)
                diskBytes.append(milliseconds(since: start))
                guard loaded.origin == .disk else { throw CLIError("\(url) came from \(loaded.origin), not the disk cache") }
            }
        }
        let sample = try await warm.image(for: ImageRequest(url: urls[0], size: size))
        return [
            "urls": urls.count, "repeats": repeats, "rendition": "\(sample.bitmap.width)x\(sample.bitmap.height)",
            "bytes_per_image": (try await cache.usage().bytes) / max(1, urls.count),
            "disk_decode_p50_ms": percentile(diskDecoded, 0.5), "disk_decode_p95_ms": percentile(diskDecoded, 0.95),
            "disk_bytes_p50_ms": percentile(diskBytes, 0.5), "disk_bytes_p95_ms": percentile(diskBytes, 0.95),
            "memory_p50_ms": percentile(memory, 0.5), "memory_p95_ms": percentile(memory, 0.95),
        ]
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// The process's peak resident memory (VmHWM), in MB.
    static func peakResidentMegabytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}

/// Samples the process's thread count every millisecond on a thread of its
/// own (which it counts too).
final class PeakThreads: Sendable {
    private let state = Mutex((peak: 0, running: true))

    func start() {
        Thread { [self] in
            while state.withLock({ $0.running }) {
                let count = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
                state.withLock { $0.peak = max($0.peak, count) }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }.start()
    }

    func stop() { state.withLock { $0.running = false } }

    var peak: Int { state.withLock { $0.peak } }
}
