import Foundation

/// tumbler, the thumbnail service Thunar and other desktops ask over
/// D-Bus (Debian's `tumbler`), run in a private session bus for one
/// request: the desktop's own thumbnails, made into `cacheHome/thumbnails`.
public enum Tumbler {
    /// What tumbler said about a request.
    public struct Reply: Decodable, Sendable {
        /// Whether it finished (within 60 s).
        public let finished: Bool
        /// The URIs it made thumbnails for (or found valid ones).
        public let ready: [String]
        /// The URIs GLib makes of the same paths (`Gio.File.get_uri`).
        public let glibURIs: [String]
    }

    /// Asks for thumbnails of `uris` (JPEG or PNG files; MP4 or QuickTime
    /// videos, which tumbler's GStreamer plugin thumbnails) in `flavor`
    /// (`normal`, `large`, …), with `XDG_CACHE_HOME=cacheHome`; returns
    /// when tumbler has finished.
    public static func thumbnails(of uris: [String], flavor: String, cacheHome: String) throws -> Reply {
        let script = TestData.packageRoot.appendingPathComponent("Tests/Tools/tumbler-thumbnails.py").path
        let arguments = uris.flatMap { [$0, mediaType(of: $0)] }
        let result = try ChildProcess.run(
            "dbus-run-session", ["--", "/usr/bin/python3", script, flavor] + arguments, environment: ["XDG_CACHE_HOME": cacheHome])
        guard let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw ChildProcess.Failure(description: "tumbler-thumbnails.py printed no reply (status \(result.status))")
        }
        return try JSONDecoder().decode(Reply.self, from: Data(line.utf8))
    }

    /// The media type tumbler is told for `uri`, from its extension.
    static func mediaType(of uri: String) -> String {
        let lowered = uri.lowercased()
        if lowered.hasSuffix(".png") { return "image/png" }
        if lowered.hasSuffix(".mp4") { return "video/mp4" }
        if lowered.hasSuffix(".mov") { return "video/quicktime" }
        return "image/jpeg"
    }
}
