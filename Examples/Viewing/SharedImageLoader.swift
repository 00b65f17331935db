import ExampleSupport
import Foundation
import ImageCodecs
package import ImageLoading
import ServiceKit

/// The image loader the examples share: a disk cache in the user's cache
/// folder (`$XDG_CACHE_HOME/photodeck/images`, else
/// `~/.cache/photodeck/images`), so a second run reads from disk.
package enum SharedImageLoader {
    /// The cache folder: `PHOTODECK_IMAGE_CACHE` when set (tests), else the XDG one.
    package static func cacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let folder = environment["PHOTODECK_IMAGE_CACHE"], !folder.isEmpty { return folder }
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (NSHomeDirectory() + "/.cache")
        return base + "/photodeck/images"
    }

    /// How long a download may take in all: `PHOTODECK_DOWNLOAD_DEADLINE`
    /// seconds when set to a number from 1 to 3600 (tests), else the
    /// loader's 120 s.
    package static func deadline(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        seconds(named: "PHOTODECK_DOWNLOAD_DEADLINE", in: environment)
    }

    /// How long a download may go without a byte: `PHOTODECK_DOWNLOAD_TIMEOUT`
    /// seconds when set to a number from 1 to 3600 (tests that hold an
    /// answer), else the loader's 30 s.
    package static func timeout(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        seconds(named: "PHOTODECK_DOWNLOAD_TIMEOUT", in: environment)
    }

    /// The variable `name` as a number of seconds from 1 to 3600, else `nil`.
    private static func seconds(named name: String, in environment: [String: String]) -> Duration? {
        guard let text = environment[name], let seconds = Int(text), (1...3_600).contains(seconds) else { return nil }
        return .seconds(seconds)
    }

    /// A loader whose disk cache holds at most `cacheMB` megabytes and
    /// whose memory cache `memoryMB`; without a usable cache folder it
    /// loads without one (and says so on standard error).
    package static func make(cacheMB: Int = 256, memoryMB: Int = 32, tool: String) async -> ImageLoader {
        let folder = cacheFolder()
        var configuration = ImageLoader.Configuration(renditionCache: RenditionCache(capacityBytes: memoryMB << 20))
        if let deadline = deadline() { configuration.deadline = deadline }
        if let timeout = timeout() { configuration.timeout = timeout }
        do {
            // The cache makes its own folder private (0700); its parents are ordinary.
            try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            configuration.diskCache = try await DiskCache.open(directory: folder, capacityBytes: cacheMB << 20)
        } catch {
            Console.error("\(tool): no image cache (\(error)); pictures are downloaded every time")
        }
        return ImageLoader(configuration: configuration)
    }
}
