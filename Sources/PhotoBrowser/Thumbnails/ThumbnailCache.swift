public import Foundation
public import ImageCodecs
import SystemSupport

/// The desktop's shared thumbnail cache, as the freedesktop Thumbnail
/// Managing Standard lays it out, so PhotoDeck reads the thumbnails GNOME
/// Files, tumbler (Thunar) and others made, and they read PhotoDeck's:
///
/// - `ROOT/{normal,large,x-large,xx-large}/MD5(URI).png`, where URI is the
///   file's `file://` URI (its absolute path, escaped as GLib escapes it);
/// - each PNG carries `Thumb::URI` and `Thumb::MTime` (the file's
///   modification time in seconds) in text chunks, and is valid only while
///   both match the file (and `Thumb::Size`, when present, its size);
/// - a failure is a small PNG with the same keys under
///   `ROOT/fail/photodeck-VERSION/`, so a file that cannot be read is not
///   tried again until it changes;
/// - files are written to a temporary name and renamed, mode 0600, in
///   folders of mode 0700 (narrowed to 0700 when found wider); a symbolic
///   link in place of the cache's folder or one of its size folders is
///   refused, neither written through nor read from.
///
/// ```swift
/// let hit = ThumbnailCache.standard()?.thumbnail(forFileAt: "/photos/IMG_0001.jpg", size: .normal)   // nil: make one
/// ```
public struct ThumbnailCache: Sendable {
    /// The `thumbnails` folder.
    public let root: String
    /// The folder under `fail/` where this thumbnailer records its failures.
    public let failureFolder: String
    /// Limits for decoding a cached thumbnail (a file in a shared folder: a claim like any other).
    public let limits: ImageLimits

    /// The version in `fail/photodeck-VERSION`: a new one retries old failures.
    public static let thumbnailerVersion = "1"

    /// The cache at `root` (a `thumbnails` folder).
    public init(root: String, limits: ImageLimits = ThumbnailCache.defaultLimits) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        failureFolder = "fail/photodeck-\(Self.thumbnailerVersion)"
        self.limits = limits
    }

    /// The limits for decoding cached thumbnails: at most 4096×4096.
    public static let defaultLimits = ImageLimits(maxPixelCount: 4096 * 4096, maxDimension: 4096)

    /// The largest cached thumbnail file read: 16 MB.
    public static let maxFileBytes = 16 << 20

    /// The user's cache: `$XDG_CACHE_HOME/thumbnails` when that is set to
    /// an absolute path, else `$HOME/.cache/thumbnails`; `nil` when neither is known.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ThumbnailCache? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return ThumbnailCache(root: "\(cache)/thumbnails") }
        if let home = environment["HOME"], home.hasPrefix("/") { return ThumbnailCache(root: "\(home)/.cache/thumbnails") }
        return nil
    }

    // MARK: - Names

    /// The `file://` URI of the file at `path` (made absolute against the
    /// current folder, `.` and `..` removed; links are not resolved).
    public static func uri(forFileAt path: String) -> String {
        "file://" + PercentEncoding.encodeFilePath(absolute(path))
    }

    /// `path` made absolute and without `.`, `..` or repeated slashes.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Where the thumbnail of `uri` at `size` is, valid or not.
    public func path(forURI uri: String, size: ThumbnailSize) -> String {
        "\(root)/\(size.rawValue)/\(Digest.hex(Array(uri.utf8), .md5)).png"
    }

    /// Where a failure for `uri` is recorded.
    public func failurePath(forURI uri: String) -> String {
        "\(root)/\(failureFolder)/\(Digest.hex(Array(uri.utf8), .md5)).png"
    }

    // MARK: - Reading

    /// The valid cached thumbnail of the file at `path` in `size`'s
    /// folder, decoded; `nil` when there is none, it is stale (the file
    /// changed), it names another file, or it cannot be decoded.
    public func thumbnail(forFileAt path: String, size: ThumbnailSize) -> Bitmap? {
        guard let status = try? FileSystem.status(of: path) else { return nil }
        return thumbnail(uri: Self.uri(forFileAt: path), status: status, size: size)
    }

    /// Whether a failure is recorded for this version of the file at `path`.
    public func hasFailure(forFileAt path: String) -> Bool {
        guard let status = try? FileSystem.status(of: path) else { return false }
        return hasFailure(uri: Self.uri(forFileAt: path), status: status)
    }

    func hasFailure(uri: String, status: FileStatus) -> Bool {
        validPNG(at: failurePath(forURI: uri), uri: uri, status: status) != nil
    }

    func thumbnail(uri: String, status: FileStatus, size: ThumbnailSize) -> Bitmap? {
        guard let png = validPNG(at: path(forURI: uri, size: size), uri: uri, status: status) else { return nil }
        return try? DecodedImage(decoding: png, options: DecodeOptions(limits: limits)).bitmap
    }

    /// The PNG at `file` when its keys say it is for this version of `uri`.
    private func validPNG(at file: String, uri: String, status: FileStatus) -> [UInt8]? {
        // Neither the file nor its folder may be a link out of the cache.
        guard RegularFile.isFolder(DurableFile.split(file).folder),
            let png = try? RegularFile.contents(of: file, limit: Self.maxFileBytes, followingSymlinks: false)
        else { return nil }
        let keys = PNGText.entries(in: png)
        guard keys["Thumb::URI"] == uri, let mtime = keys["Thumb::MTime"], Self.matches(mtime, status.modifiedNanoseconds) else { return nil }
        if let size = keys["Thumb::Size"], Int(size) != status.size { return nil }
        return png
    }

    /// Whether a `Thumb::MTime` names this modification time: whole
    /// seconds, as the standard and GNOME write it, or with a fraction,
    /// as tumbler writes it (then equal to the microsecond).
    static func matches(_ text: String, _ nanoseconds: Int64) -> Bool {
        let seconds = wholeSeconds(nanoseconds)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0]), whole == seconds else { return false }
        guard parts.count == 2 else { return true }
        guard let digits = Int64(parts[1].prefix(6).padding(toLength: 6, withPad: "0", startingAt: 0)) else { return false }
        let micro = (nanoseconds - seconds * 1_000_000_000) / 1000
        return abs(digits - micro) <= 1
    }

    // MARK: - Writing

    /// Stores `bitmap` (fitted into `size`, never enlarged) as the
    /// thumbnail of the file at `path` as it is now.
    public func store(_ bitmap: Bitmap, forFileAt path: String, size: ThumbnailSize) throws {
        try store(bitmap, forFileAt: path, status: try FileSystem.status(of: path), size: size)
    }

    /// Stores a thumbnail made from the file at `path` whose `status` was
    /// read before its pixels: if the file changed meanwhile, the
    /// thumbnail is stale at once, never wrongly valid.
    func store(_ bitmap: Bitmap, forFileAt path: String, status: FileStatus, size: ThumbnailSize) throws {
        let uri = Self.uri(forFileAt: path)
        let fitted = Self.fitted(bitmap, into: size.pixels)
        var keys = Self.keys(uri: uri, status: status)
        keys.append(("Software", "PhotoDeck"))
        let png = try PNGText.adding(keys, to: try fitted.encoded(as: .png, options: EncodeOptions(compressionLevel: 3)))
        try write(png, to: self.path(forURI: uri, size: size))
    }

    /// Records that the file at `path` (as it is now) yields no thumbnail.
    public func recordFailure(forFileAt path: String) throws {
        try recordFailure(forFileAt: path, status: try FileSystem.status(of: path))
    }

    /// Records a failure for the file at `path` as `status` describes it.
    func recordFailure(forFileAt path: String, status: FileStatus) throws {
        let uri = Self.uri(forFileAt: path)
        let pixel = try Bitmap(width: 1, height: 1, pixelFormat: .rgba8, pixels: [0, 0, 0, 0])
        let png = try PNGText.adding(Self.keys(uri: uri, status: status), to: try pixel.encoded(as: .png))
        try write(png, to: failurePath(forURI: uri))
    }

    /// The keys every record carries.
    private static func keys(uri: String, status: FileStatus) -> [(keyword: String, text: String)] {
        return [("Thumb::URI", uri), ("Thumb::MTime", mtimeText(status.modifiedNanoseconds)), ("Thumb::Size", String(status.size))]
    }

    /// Nanoseconds since 1970 rounded down to whole seconds (before 1970 too).
    private static func wholeSeconds(_ nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }

    /// A modification time as `Thumb::MTime`: seconds, and when the file
    /// system keeps a fraction, its microseconds (`1796251633.270348`), as
    /// tumbler writes and checks it; readers that take whole seconds
    /// (GNOME's `atol`) read the same second.
    static func mtimeText(_ nanoseconds: Int64) -> String {
        let seconds = wholeSeconds(nanoseconds)
        let micro = (nanoseconds - seconds * 1_000_000_000) / 1000
        guard micro > 0 else { return String(seconds) }
        let digits = String(micro)
        return "\(seconds).\(String(repeating: "0", count: 6 - digits.count))\(digits)"
    }

    private func write(_ png: [UInt8], to file: String) throws {
        let folder = DurableFile.split(file).folder
        // The root and each folder below it are the cache's own: made 0700 (narrowed when
        // found wider, as the standard asks), and a link planted in their place is refused.
        try OwnedFolder.prepare(root)
        var current = root
        for part in folder.dropFirst(root.count).split(separator: "/") {
            current += "/\(part)"
            try OwnedFolder.prepare(current)
        }
        // A cache: atomic (never half written, never another user's link), not flushed.
        try DurableFile.write(png, to: file, mode: 0o600, durably: false)
    }

    /// `bitmap` scaled so its longer side is at most `pixels` (never up).
    static func fitted(_ bitmap: Bitmap, into pixels: Int) -> Bitmap {
        let size = bitmap.size.fitting(in: PixelSize(width: pixels, height: pixels))
        return size == bitmap.size ? bitmap : bitmap.resized(to: size)
    }
}
