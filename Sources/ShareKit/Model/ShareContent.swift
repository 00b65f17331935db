public import Foundation
public import ImageCore

/// An image to share: encoded bytes (any format ImageCodecs reads) or pixels.
public enum ShareImage: Hashable, Sendable {
    /// Encoded bytes, such as a JPEG file's contents.
    case encoded([UInt8])
    /// Decoded pixels; encoded when the content is prepared.
    case bitmap(Bitmap)
}

/// A link with its preview.
public struct ShareLink: Hashable, Sendable {
    /// Where it points.
    public var url: URL
    /// The preview title.
    public var title: String?
    /// The preview description.
    public var summary: String?
    /// The preview thumbnail; the first shared image stands in when `nil`.
    /// Where links go in the text (a Weibo status), it is the post's picture
    /// when the post has none of its own.
    public var thumbnail: ShareImage?

    /// Creates a link.
    public init(url: URL, title: String? = nil, summary: String? = nil, thumbnail: ShareImage? = nil) {
        self.url = url
        self.title = title
        self.summary = summary
        self.thumbnail = thumbnail
    }
}

/// What the user wants to share: text, images, a link, a video, or any combination.
///
/// ```swift
/// let content = ShareContent(text: "Sunset at the pier 🌅", images: [.encoded(jpegBytes)])
/// ```
///
/// Every image that leaves carries only the metadata ``metadata`` keeps
/// (by default no location and nothing identifying; see
/// ``ImageCore/MetadataPolicy``), narrowed further by the destination
/// when it asks for less. A share sheet's "Location" switch:
///
/// ```swift
/// var content = ShareContent(images: [.encoded(photo)])
/// content.metadata.keepsLocation = userWantsLocation
/// ```
public struct ShareContent: Hashable, Sendable {
    /// The message text.
    public var text: String?
    /// Images, in order.
    public var images: [ShareImage]
    /// A link.
    public var link: ShareLink?
    /// A video (remuxed or transcoded to the destination's rules when it is
    /// prepared; see ``ShareConstraints/Videos``).
    public var video: ShareVideo?
    /// What happens to text longer than the destination takes; `nil`
    /// follows the destination's rule (``ShareConstraints/Text/overflow``).
    public var textOverflow: TextOverflow?
    /// The most metadata the images may carry: the app's (and the user's)
    /// choice. Providers may narrow it; only the app widens it.
    public var metadata: MetadataPolicy
    /// The provider's id of the post this share answers: the post a
    /// comment is on, the post a repost repeats. Only destinations whose
    /// constraints take one (``ShareConstraints/replies``) accept it, and
    /// those that need one refuse content without it.
    ///
    /// ```swift
    /// var reply = ShareContent(text: "说得好")
    /// reply.inReplyTo = post.id
    /// let outcome = try await center.share(reply, to: ShareTarget(provider: "weibo", destination: .comment, displayName: "Weibo"))
    /// ```
    public var inReplyTo: String?

    /// Creates content.
    public init(
        text: String? = nil, images: [ShareImage] = [], link: ShareLink? = nil, textOverflow: TextOverflow? = nil, metadata: MetadataPolicy = .default,
        video: ShareVideo? = nil, inReplyTo: String? = nil
    ) {
        self.inReplyTo = inReplyTo
        self.text = text
        self.images = images
        self.link = link
        self.video = video
        self.textOverflow = textOverflow
        self.metadata = metadata
    }

    /// Whether there is nothing to share (a repost of a post, with nothing
    /// but ``inReplyTo``, is something).
    public var isEmpty: Bool { (text ?? "").isEmpty && images.isEmpty && link == nil && video == nil && inReplyTo == nil }
}
