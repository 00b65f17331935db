public import ImageCodecs

/// Why the browser could not show a page.
public enum BrowserError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no page `index` in a collection of `count`.
    case pageOutOfRange(Int, count: Int)
    /// There is no frame `index` in the shown stack of `count` (a page
    /// that is not a stack has one frame, itself).
    case frameOutOfRange(Int, count: Int)
    /// The collection is empty.
    case emptyCollection
    /// The photo's rendition could not be decoded.
    case undecodable(photoID: String, reason: ImageCodecError)
    /// The photo's own source could not make its rendition (a photo on the
    /// network that could not be loaded); `reason` is the source's error.
    case unavailable(photoID: String, reason: String)
    /// A path given to a collection does not exist or a folder cannot be listed.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .pageOutOfRange(let index, let count): "there is no page \(index) (the collection has \(count))"
        case .frameOutOfRange(let index, let count): "there is no frame \(index) (the stack has \(count))"
        case .emptyCollection: "there are no photos to show"
        case .undecodable(let id, let reason): "\(id) cannot be shown: \(reason)"
        case .unavailable(let id, let reason): "\(id) cannot be shown: \(reason)"
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)"
        }
    }
}
