// photo-browser: shows a folder of photos (or an album) in a window or in
// the terminal, or pages through them one scripted command at a time,
// printing what the engine does and optionally writing each screen to a PNG.
// Any failure prints one line starting with "error:" and exits with status 1.

import ExampleSupport
import ExampleViewing
import Foundation
import ImageCodecs
import ImageLoading
import PhotoAlbum
import PhotoBrowser
import PhotoViewer

@main
struct PhotoBrowserCommand {
    static func main() async {
        // A viewer's memory should follow the photos it holds (BENCHMARKS.md, paging).
        ImageMemory.returnLargeBuffersToSystem()
        await runCommandLineTool(run)
    }

    static func run(_ commandLine: [String]) async throws -> Int32 {
        let arguments = try Arguments(commandLine)
        let store: AlbumStore?
        if let directory = arguments.store { store = try await AlbumStore.open(directory: directory) } else { store = nil }
        let collection: any PhotoCollection
        var albumPhotos: AlbumPhotos?
        var addTarget: StoreAlbum?
        if let store, arguments.paths.isEmpty {
            let album = StoreAlbum(store: store, name: arguments.album ?? Arguments.defaultAlbum)
            guard try await store.albums().contains(where: { $0.name == album.name }) else { throw AlbumError.noSuchAlbum(album.name) }
            let photos = try await AlbumPhotos(album: album)
            guard await photos.count > 0 else { throw CLIError("the album \(album.name) is empty") }
            collection = photos
            albumPhotos = photos
        } else {
            if arguments.paths.contains(where: { URL.remotePhoto($0) != nil }) {
                let photos = try collect(arguments.paths)
                guard !photos.isEmpty else { throw CLIError("no photos in \(arguments.paths.joined(separator: ", ").oneLine)") }
                collection = RemotePhotos(photos, loader: await SharedImageLoader.make(memoryMB: 16, tool: "photo-browser"))
            } else {
                // Names only: each photo's header is read when its page is first asked for.
                let photos = try FolderPhotos(paths: arguments.paths)
                guard await photos.count > 0 else { throw CLIError("no photos in \(arguments.paths.joined(separator: ", ").oneLine)") }
                collection = photos
            }
            if let store {
                let name = arguments.album ?? Arguments.defaultAlbum
                if try await !store.albums().contains(where: { $0.name == name }) { try await store.createAlbum(named: name) }
                addTarget = StoreAlbum(store: store, name: name)
            }
        }
        guard arguments.opensViewer(inputIsTerminal: Console.inputIsTerminal, outputIsTerminal: Console.outputIsTerminal) else {
            // A script sees the pages a person would: Live Photos as one page each, from the first step.
            if let photos = collection as? FolderPhotos { try await photos.pairLivePhotos() }
            return try await ScriptedBrowser.run(arguments, collection: collection)
        }
        let controller = try await ViewerController(
            collection: collection, viewportSize: arguments.viewer.window, cacheBytes: arguments.cacheMB << 20, prefetchRadius: arguments.viewer.prefetchRadius)
        await controller.setSlideshowInterval(arguments.slideshowDelay)
        // A Live Photo's still and video become one page once their identifiers are read (in the background).
        if let photos = collection as? FolderPhotos {
            await controller.pairLivePhotos(in: photos)
            if arguments.viewer.once { await controller.waitForSort() }
        }
        if arguments.order != .name {
            // The first screen comes in name order; the photo on it stays when the new order is in place.
            await controller.sort(by: arguments.order)
            // A single screen for scripts shows the first photo of the sorted order.
            if arguments.viewer.once {
                await controller.waitForSort()
                _ = await controller.perform(.first)
            }
        }
        if arguments.startsSlideshow { await controller.toggleSlideshow() }
        await controller.setShowsLocation(arguments.showsLocation)
        if arguments.startsWithInfo { _ = await controller.perform(.toggleInfo) }
        // The grid's thumbnails come from, and go to, the desktop's shared cache.
        let thumbnailer = Thumbnailer(cache: ThumbnailCache.standard())
        await controller.setThumbnailer(thumbnailer)
        await controller.setGridCells(arguments.gridCells)
        if arguments.startsInGrid { await controller.showGrid() }
        if let path = ViewerKeymap.configurationPath() {
            do {
                if let (keymap, problems) = try ViewerKeymap.load(fromFileAt: path) {
                    // Lines that were not understood are skipped, and said; the rest apply.
                    for problem in problems { Console.error("photo-browser: \(path.oneLine): \(problem)") }
                    await controller.setKeymap(keymap)
                }
            } catch {
                // A key file that cannot be read leaves the standard keys; the viewer still opens.
                Console.error("photo-browser: \(error)")
            }
        }
        if let albumPhotos {
            await controller.bind("d") { photo in .collectionChanged(await albumPhotos.remove(photo)) }
            await controller.bind("w") { photo, orientation in .collectionChanged(await albumPhotos.save(orientation, of: photo)) }
        }
        if let addTarget {
            await controller.bind("a") { photo in
                guard case .file(let path) = photo.source else { return .message("only files can be added") }
                do { return .message(try await addTarget.add(fileAt: path)) } catch { return .message("cannot add: \(error)") }
            }
        }
        let exit = try await ViewerLauncher.run(controller, options: arguments.viewer, tool: "photo-browser")
        if arguments.stats {
            let statistics = await controller.statistics
            Console.line("\(statistics)")
            Console.line("input to frame (ms): " + statistics.inputToFrame.map { String(format: "%.2f", $0) }.joined(separator: " "))
            let made = await thumbnailer.statistics
            Console.line("thumbnails: \(made.cacheHits) from the cache, \(made.embedded) embedded, \(made.decoded) decoded, \(made.failures) failed")
        }
        return exit.status
    }

    /// Every photo in `paths` when some are URLs, in the order given: a URL as it is, a
    /// folder's photos (recursively, hidden entries and non-images
    /// skipped) sorted by path, a file.
    static func collect(_ paths: [String]) throws -> [RemotePhotos.Entry] {
        var entries: [RemotePhotos.Entry] = []
        for path in paths {
            if let url = URL.remotePhoto(path) {
                entries.append(.remote(url))
                continue
            }
            var files: [String] = []
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
            entries += files.sorted().compactMap { try? BrowserPhoto(fileAt: $0) }.map { .photo($0) }
        }
        return entries
    }
}
