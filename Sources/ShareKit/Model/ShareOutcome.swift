public import Foundation

/// What a provider returned for a completed post.
public struct ShareReceipt: Hashable, Sendable {
    /// The provider's identifier for the post, when it returns one.
    public let postID: String?
    /// A link to the post, when known.
    public let url: URL?

    /// Creates a receipt.
    public init(postID: String? = nil, url: URL? = nil) {
        self.postID = postID
        self.url = url
    }
}

/// How a share ended when it did not fail.
public enum ShareOutcome: Hashable, Sendable {
    /// The provider confirmed the post.
    case posted(ShareReceipt)
    /// The content was handed off (to another app, or a request whose
    /// answer was lost) and nobody knows whether it was posted. Never
    /// retried automatically: a retry might post twice.
    case outcomeUnknown(reason: String)
}
