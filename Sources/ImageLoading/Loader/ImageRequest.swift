public import Foundation
public import ImageCodecs

/// How urgent a load is: what is on screen goes before what may be soon.
public enum ImagePriority: Int, Hashable, Sendable, Comparable, CaseIterable {
    /// Wanted soon (the next pages, the rows below): downloads wait behind
    /// visible ones, and decoding runs on ImageCodecs' background threads.
    case prefetch = 0
    /// On screen now.
    case visible = 1

    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The task priority its work runs at.
    var taskPriority: TaskPriority { self == .visible ? .userInitiated : .utility }
}

/// One image wanted: where from, at what pixel size, how it fills the box,
/// and how urgently.
///
/// ```swift
/// let request = ImageRequest(url: avatarURL, size: PixelSize(width: 120, height: 120), mode: .fill)
/// ```
public struct ImageRequest: Hashable, Sendable {
    /// `https`, `http` or `file`.
    public var url: URL
    /// The box in pixels the rendition is made for.
    public var size: PixelSize
    /// Fit inside the box, or fill it (cropped).
    public var mode: RenditionMode
    /// The rendition's quality and limits.
    public var options: RenditionOptions
    /// How urgent.
    public var priority: ImagePriority
    /// What to show before the image arrives, as the server described it;
    /// ``ImageLoader/updates(for:)`` yields it first.
    public var placeholder: ImagePlaceholder?

    /// Creates a request.
    public init(
        url: URL, size: PixelSize, mode: RenditionMode = .fit, options: RenditionOptions = .default, priority: ImagePriority = .visible,
        placeholder: ImagePlaceholder? = nil
    ) {
        self.url = url
        self.size = size
        self.mode = mode
        self.options = options
        self.priority = priority
        self.placeholder = placeholder
    }
}

/// Where a loaded image's bytes came from.
public enum ImageOrigin: Hashable, Sendable {
    /// The memory cache: already decoded at this size.
    case memory
    /// The disk cache, still fresh.
    case disk
    /// The disk cache, after the server said it had not changed (`304`).
    case revalidated
    /// Downloaded now.
    case network
    /// A local file.
    case file
    /// The disk cache, stale, because the server could not be reached:
    /// `age` seconds old.
    case offline(age: TimeInterval)
}

/// A loaded image: the rendition, what the bytes were, and where they came from.
public struct LoadedImage: Sendable {
    /// The rendition (upright, at most the requested box).
    public let bitmap: Bitmap
    /// Where it came from.
    public let origin: ImageOrigin
}
