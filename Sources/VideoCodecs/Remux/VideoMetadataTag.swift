public import ImageCore

/// How a video's metadata tags (the container's and each stream's, as
/// FFmpeg names them: QuickTime's `©xyz` is `location`, Apple's keys are
/// `com.apple.quicktime.*`, Android's `com.android.*`) sort into the kinds
/// a ``ImageCore/MetadataPolicy`` keeps or removes: one table for the
/// remuxer and for what a share reports it removed.
///
/// ```swift
/// let place = VideoMetadataTag.kind(of: "com.apple.quicktime.location.ISO6709")   // .location
/// let date = VideoMetadataTag.kind(of: "creation_time")                           // .captureDate
/// ```
public enum VideoMetadataTag {
    /// The kind of the tag named `key` (any case): location, capture date,
    /// camera, identifying, or `.other` for anything this table does not know.
    public static func kind(of key: String) -> MetadataKind {
        let key = key.lowercased()
        // The language suffix FFmpeg appends to QuickTime's international text (`location-eng`).
        let base = key.split(separator: "-").first.map(String.init) ?? key
        if base == "location" || key.contains("location") || key.contains("gps") || key.hasSuffix("iso6709") || key == "\u{a9}xyz" { return .location }
        if ["creation_time", "date", "com.apple.quicktime.creationdate", "year", "date_recorded"].contains(base) { return .captureDate }
        if camera.contains(base) || key.hasPrefix("com.apple.quicktime.camera.") { return .camera }
        if identifying.contains(base) || key.contains("serial") { return .identifying }
        return .other
    }

    /// Tags that describe the camera and its software.
    static let camera: Set<String> = [
        "make", "model", "software", "encoder", "com.apple.quicktime.make", "com.apple.quicktime.model", "com.apple.quicktime.software",
        "com.apple.quicktime.full-frame-rate-playback-intent", "com.android.version", "com.android.manufacturer", "com.android.model",
        "com.android.capture.fps",
    ]

    /// Tags that identify a person, a device or the asset.
    static let identifying: Set<String> = [
        "artist", "author", "album_artist", "composer", "copyright", "comment", "description", "synopsis", "title", "keywords",
        "com.apple.quicktime.author", "com.apple.quicktime.artist", "com.apple.quicktime.comment", "com.apple.quicktime.description",
        "com.apple.quicktime.displayname", "com.apple.quicktime.title", "com.apple.quicktime.keywords",
        "com.apple.quicktime.content.identifier", "com.apple.quicktime.live-photo.auto", "com.apple.photos.originating.signature",
    ]

    /// Tags every copy keeps whatever the policy: what playback needs.
    static let structural: Set<String> = ["language", "handler_name", "vendor_id", "rotate"]

    /// Tags the demuxer reports of the container itself, which a muxer
    /// writes afresh: never copied, never reported as removed.
    static let containerOwn: Set<String> = ["major_brand", "minor_version", "compatible_brands"]
}
