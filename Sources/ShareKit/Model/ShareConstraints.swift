public import ImageCore

/// What happens to text longer than a destination takes.
public enum TextOverflow: Hashable, Sendable {
    /// Cut it to fit, never inside a character, an emoji or a link.
    case truncate
    /// Refuse the share with ``ConstraintViolation/textTooLong(length:maxLength:)``
    /// (a caption that must stay whole).
    case refuse
}

/// A provider's rules for one destination, as data.
public struct ShareConstraints: Hashable, Sendable {
    /// Text rules.
    public struct Text: Hashable, Sendable {
        /// The most text allowed, in ``counting`` units.
        public var maxLength: Int
        /// How length is counted.
        public var counting: TextCounting
        /// Whether a share must have text.
        public var isRequired: Bool
        /// What happens to longer text, unless the content says
        /// (``ShareContent/textOverflow``).
        public var overflow: TextOverflow

        /// Creates text rules.
        public init(maxLength: Int, counting: TextCounting = .characters, isRequired: Bool = false, overflow: TextOverflow = .truncate) {
            self.maxLength = maxLength
            self.counting = counting
            self.isRequired = isRequired
            self.overflow = overflow
        }
    }

    /// Image rules.
    public struct Images: Hashable, Sendable {
        /// The most images one share may carry.
        public var maxCount: Int
        /// The most bytes one encoded image may have.
        public var maxBytes: Int
        /// Formats accepted, most preferred first; others are re-encoded to the first.
        public var formats: [ImageFormat]
        /// The largest pixel size accepted (either side), if the provider has one.
        public var maxDimension: Int?
        /// Whether a share with images may also carry text (an image message
        /// handed to the WeChat app carries none).
        public var acceptsText: Bool
        /// The most metadata the provider lets its images carry: the app's
        /// ``ShareContent/metadata`` is narrowed by it, never widened.
        /// ``ImageCore/MetadataPolicy/keepAll`` (the default) leaves the
        /// app's choice as it is.
        public var metadata: MetadataPolicy

        /// Creates image rules.
        public init(
            maxCount: Int, maxBytes: Int, formats: [ImageFormat] = [.jpeg, .png], maxDimension: Int? = nil, acceptsText: Bool = true,
            metadata: MetadataPolicy = .keepAll
        ) {
            self.maxCount = maxCount
            self.maxBytes = maxBytes
            self.formats = formats
            self.maxDimension = maxDimension
            self.acceptsText = acceptsText
            self.metadata = metadata
        }
    }

    /// Thumbnail rules (a link preview or a chat bubble's picture).
    public struct Thumbnail: Hashable, Sendable {
        /// The most bytes.
        public var maxBytes: Int
        /// The box it must fit.
        public var maxSize: PixelSize
        /// How a link card's thumbnail takes ``maxSize``: `nil` (the
        /// default) fits the whole picture inside it; a strategy fills it
        /// exactly, the picture cropped where the strategy chooses. For a
        /// destination that shows link cards' pictures in a square whatever
        /// their shape (WeChat's chat bubbles), so the sender, not the app,
        /// chooses what the square keeps. A picture message's thumbnail
        /// previews the picture itself and always keeps its shape.
        public var crop: CropStrategy?
        /// The format written.
        public var format: ImageFormat
        /// The most metadata a thumbnail carries: by default
        /// ``ImageCore/MetadataPolicy/thumbnail`` (a preview needs none, not even a gain map).
        public var metadata: MetadataPolicy

        /// Creates thumbnail rules.
        public init(
            maxBytes: Int, maxSize: PixelSize, format: ImageFormat = .jpeg, metadata: MetadataPolicy = .thumbnail, crop: CropStrategy? = nil
        ) {
            self.maxBytes = maxBytes
            self.maxSize = maxSize
            self.crop = crop
            self.format = format
            self.metadata = metadata
        }
    }

    /// How a destination takes links.
    public enum Links: Hashable, Sendable {
        /// As a link object with title, summary and thumbnail.
        case object(maxTitleLength: Int, maxSummaryLength: Int)
        /// Only as text: the URL is appended to the message.
        case inText
        /// Not at all.
        case unsupported
    }

    /// Text rules; `nil` when the destination takes no text.
    public var text: Text?
    /// Image rules; `nil` when it takes no images.
    public var images: Images?
    /// Video rules; `nil` when it takes no video.
    public var videos: Videos?
    /// Thumbnail rules; `nil` when it wants none.
    public var thumbnail: Thumbnail?
    /// How links are taken.
    public var links: Links
    /// Whether text, images and a link may be combined in one share; when
    /// `false`, a share carries text alone, images (with text), or a link.
    public var allowsMixedContent: Bool
    /// How a link object's title and summary are counted (the WeChat app
    /// counts UTF-8 bytes).
    public var linkCounting: TextCounting
    /// The longest link URL accepted, in UTF-8 bytes, if the provider has a limit.
    public var maxLinkBytes: Int?
    /// Whether the destination answers a post (``ShareContent/inReplyTo``).
    public var replies: Replies

    /// Whether a destination answers a post.
    public enum Replies: Hashable, Sendable {
        /// It does not: content with ``ShareContent/inReplyTo`` is refused.
        case notTaken
        /// It needs the post (a comment, a repost): content without one is refused.
        case required
    }

    /// Creates constraints.
    public init(
        text: Text?, images: Images?, thumbnail: Thumbnail? = nil, links: Links = .inText, allowsMixedContent: Bool = true,
        linkCounting: TextCounting = .characters, maxLinkBytes: Int? = nil, videos: Videos? = nil, replies: Replies = .notTaken
    ) {
        self.replies = replies
        self.text = text
        self.images = images
        self.videos = videos
        self.thumbnail = thumbnail
        self.links = links
        self.allowsMixedContent = allowsMixedContent
        self.linkCounting = linkCounting
        self.maxLinkBytes = maxLinkBytes
    }
}
