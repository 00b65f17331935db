// photo-browser: pages through a folder of photos the way an app's browser
// would, one command at a time (swipes, taps, pinches), printing what the
// engine does and optionally writing each screen to a PNG.
// Any failure prints one line starting with "error:" and exits with status 1.

import ExampleSupport
import Foundation
import ImageCodecs
import PhotoBrowser

#if canImport(Glibc)
    import Glibc
#endif

@main
struct PhotoBrowserCommand {
    static let usage = """
        usage: photo-browser [--viewport WxH] [--scale S] [--cache-mb N] [--out DIR] PATH... [-- COMMAND...]

        Pages through the photos in PATH (files or folders) in a WxH-point viewport (default 390x844)
        at S pixels per point (default 3). Commands come after `--`, or one per line on standard input.
        --out DIR writes what the screen shows after each command as DIR/NN-COMMAND.png.

        """ + BrowserCommand.help

    static func main() async {
        await runCommandLineTool(run)
    }

    static func run(_ arguments: [String]) async throws -> Int32 {
        var viewport = CGSize(width: 390, height: 844)
        var scale = 3.0
        var cacheMB = 96
        var out: String?
        var paths: [String] = []
        var scripted: [String]?
        var iterator = ArgumentReader(arguments)
        func value(_ flag: String) throws(CLIError) -> String { try iterator.value(for: flag) }
        while let argument = iterator.next() {
            switch argument {
            case "--viewport": viewport = try BrowserCommand.size(try value(argument))
            case "--scale":
                let text = try value(argument)
                guard let number = Double(text), number >= 1, number <= 4 else { throw CLIError("--scale takes 1 to 4, got '\(text)'") }
                scale = number
            case "--cache-mb":
                let text = try value(argument)
                guard let number = Int(text), number >= 1 else { throw CLIError("--cache-mb takes a whole number of megabytes, got '\(text)'") }
                cacheMB = number
            case "--out": out = try value(argument)
            case "--help", "-h": throw CLIError(usage, isUsage: true)
            case "--":
                // "double-tap 200,400" arrives as two arguments: a verb that takes a value takes the next one.
                var commands: [String] = []
                while let verb = iterator.next() {
                    let takesValue = ["swipe", "double-tap", "pinch", "pan", "resize", "goto"].contains(verb)
                    commands.append(takesValue ? "\(verb) \(iterator.next() ?? "")" : verb)
                }
                scripted = commands
            default:
                if argument.hasPrefix("-") { throw CLIError("unknown option \(argument)\n\(usage)") }
                paths.append(argument)
            }
        }
        guard !paths.isEmpty else { throw CLIError(usage, isUsage: true) }
        let photos = try collect(paths)
        guard !photos.isEmpty else { throw CLIError("no photos in \(paths.joined(separator: ", "))") }
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }

        let settings = BrowserPager.Settings(viewportSize: viewport, screenScale: scale)
        let session = try await PhotoBrowserSession(collection: photos, settings: settings, cache: RenditionCache(capacityBytes: cacheMB << 20))
        var step = 0
        try await report(session, step: step, name: "open", out: out)
        let lines: AnyIterator<String> = scripted.map { AnyIterator($0.makeIterator()) } ?? AnyIterator { readLine() }
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
                print("\(trimmed): dismiss (the browser would close)")
                break
            }
            let name = trimmed.split(separator: " ").first.map(String.init) ?? "step"
            try await report(session, step: step, name: name, out: out, action: "\(trimmed): \(note)")
        }
        let stats = await session.cache.statistics
        print(
            "cache: \(stats.misses) decodes, \(stats.hits) hits, \(stats.joins) joined, \(stats.evictions) evicted, \(stats.itemCount) held (\(stats.byteCount / 1024) KB)"
        )
        return 0
    }

    /// Prints the page line and writes the snapshot.
    static func report(_ session: PhotoBrowserSession, step: Int, name: String, out: String?, action: String = "open") async throws {
        let started = ContinuousClock.now
        let page = try await session.currentPage()
        let elapsed = ContinuousClock.now - started
        let pager = await session.pager
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let source: String
        switch page.origin {
        case .cached: source = "cached"
        case .prefetch: source = String(format: "prefetched, waited %.1f ms", milliseconds)
        case .decoded: source = String(format: "decoded in %.1f ms", milliseconds)
        }
        let frame = page.frame
        print(
            "\(action) -> page \(page.index + 1)/\(pager.count) \((page.photo.id as NSString).lastPathComponent) "
                + String(format: "zoom %.3f (fit %.3f, max %.3f) ", page.state.zoom, pager.geometry.minimumZoom, pager.geometry.maximumZoom)
                + String(format: "frame %.0f,%.0f %.0fx%.0f ", Double(frame.minX), Double(frame.minY), Double(frame.width), Double(frame.height))
                + "rendition \(page.rendition.width)x\(page.rendition.height) (\(source))\(pager.isChromeHidden ? " chrome hidden" : "")")
        if let out {
            let snapshot = try ViewportSnapshot.render(page, viewport: pager.settings.viewportSize, scale: pager.settings.screenScale)
            let path = "\(out)/\(String(format: "%02d", step))-\(name).png"
            try Data(try snapshot.encoded(as: .png)).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Every photo in `paths` (folders recursively, hidden entries and non-images skipped), sorted by path.
    static func collect(_ paths: [String]) throws -> [BrowserPhoto] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw CLIError("\(path) does not exist") }
            if isFolder.boolValue {
                let enumerator = FileManager.default.enumerator(atPath: path)
                while let relative = enumerator?.nextObject() as? String {
                    if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                    files.append("\(path)/\(relative)")
                }
            } else {
                files.append(path)
            }
        }
        return files.sorted().compactMap { try? BrowserPhoto(fileAt: $0) }
    }
}
