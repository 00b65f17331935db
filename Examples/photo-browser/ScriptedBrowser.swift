import ExampleSupport
import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer

/// The scripted mode: one command per step (after `--`, or one per line on
/// standard input), one line of what the engine did, optionally a PNG of
/// each screen.
enum ScriptedBrowser {
    static func run(_ arguments: Arguments, collection: any PhotoCollection) async throws -> Int32 {
        let out = arguments.out
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
        let settings = BrowserPager.Settings(viewportSize: arguments.viewport, screenScale: arguments.scale)
        let session = try await PhotoBrowserSession(
            collection: collection, settings: settings, cache: RenditionCache(capacityBytes: arguments.cacheMB << 20))
        var step = 0
        try await report(session, step: step, name: "open", out: out)
        let lines: AnyIterator<String> = arguments.scripted.map { AnyIterator($0.makeIterator()) } ?? AnyIterator { readLine() }
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed == "quit" || trimmed == "q" { break }
            let size = await session.pager.settings.viewportSize
            let command = try BrowserCommand(parsing: trimmed, viewport: size)
            step += 1
            let note: String
            switch command {
            case .next: note = "\(try await session.handle(.swipe(translation: CGSize(width: -size.width / 2, height: 0), velocity: .zero)))"
            case .previous: note = "\(try await session.handle(.swipe(translation: CGSize(width: size.width / 2, height: 0), velocity: .zero)))"
            case .show: note = "show"
            case .goto(let index):
                try await session.showPage(index)
                note = "turnedPage(to: \(index))"
            case .gesture(let gesture, _): note = "\(try await session.handle(gesture))"
            }
            if note == "dismiss" {
                Console.line("\(trimmed.oneLine): dismiss (the browser would close)")
                break
            }
            let name = trimmed.split(separator: " ").first.map(String.init) ?? "step"
            try await report(session, step: step, name: name, out: out, action: "\(trimmed): \(note)")
        }
        let stats = await session.cache.statistics
        Console.line(
            "cache: \(stats.misses) decodes, \(stats.hits) hits, \(stats.joins) joined, \(stats.evictions) evicted, \(stats.itemCount) held (\(stats.byteCount / 1024) KB)"
        )
        Console.line("image threads: at most \(ImageWorkers.imageThreadPeak) at work at once (limit \(ImageWorkers.imageThreadLimit))")
        return 0
    }

    /// Prints the page line and writes the snapshot.
    static func report(_ session: PhotoBrowserSession, step: Int, name: String, out: String?, action: String = "open") async throws {
        let started = ContinuousClock.now
        let page = try await session.currentPage()
        let elapsed = ContinuousClock.now - started
        let pager = await session.pager
        let milliseconds = elapsed.inMilliseconds
        let source: String
        switch page.origin {
        case .cached: source = "cached"
        case .prefetch: source = String(format: "prefetched, waited %.1f ms", milliseconds)
        case .decoded: source = String(format: "decoded in %.1f ms", milliseconds)
        case .placeholder: source = "placeholder"
        case .preview: source = "preview"
        }
        let frame = page.frame
        Console.line(
            "\(action.oneLine) -> page \(page.index + 1)/\(pager.count) \((page.photo.id as NSString).lastPathComponent.oneLine) "
                + String(format: "zoom %.3f (fit %.3f, max %.3f) ", page.state.zoom, pager.geometry.minimumZoom, pager.geometry.maximumZoom)
                + String(format: "frame %.0f,%.0f %.0fx%.0f ", Double(frame.minX), Double(frame.minY), Double(frame.width), Double(frame.height))
                + "rendition \(page.rendition.width)x\(page.rendition.height) (\(source))\(pager.isChromeHidden ? " chrome hidden" : "")")
        if let out {
            let snapshot = try FrameCompositor.canvas(
                for: page, viewport: pager.settings.viewportSize, scale: pager.settings.screenScale, background: (24, 24, 24))
            let path = "\(out)/\(String(format: "%02d", step))-\(name).png"
            try Data(try snapshot.encoded(as: .png)).write(to: URL(fileURLWithPath: path))
        }
    }
}
