public import ImageCore

/// A rule of a destination that some content breaks, and adaptation cannot
/// fix. A closed set: a share sheet can explain each one, and tests can
/// match them.
public enum ConstraintViolation: Hashable, Sendable, CustomStringConvertible {
    /// There is nothing to share.
    case emptyContent
    /// The destination takes no text.
    case textNotAccepted
    /// The destination needs some text.
    case textRequired
    /// The text is longer than the destination allows, and it must be kept
    /// whole (``TextOverflow/refuse``); lengths in the destination's units.
    case textTooLong(length: Int, maxLength: Int)
    /// The destination takes no links.
    case linkNotAccepted
    /// The link goes into the text, and alone it is longer than the text allows.
    case linkTooLong(maxLength: Int)
    /// A link and images together, where the destination takes one or the other.
    case linkWithImages
    /// The link's URL is longer than the destination takes, in UTF-8 bytes.
    case urlTooLong(bytes: Int, maxBytes: Int)
    /// Text with images, where an image share carries no text.
    case textWithImages
    /// The destination takes no images.
    case imagesNotAccepted
    /// More images than the destination takes.
    case tooManyImages(count: Int, maxCount: Int)
    /// The image at `index` (from 0) cannot be read.
    case unreadableImage(index: Int, ImageCodecError)
    /// The image at `index` cannot be made smaller than `maxBytes`, however
    /// far it is downscaled.
    case imageTooLarge(index: Int, maxBytes: Int)
    /// None of the formats the destination takes can be written here.
    case noWritableFormat([ImageFormat])
    /// The preview thumbnail cannot be read or made small enough.
    case thumbnailUnavailable(String)
    /// The destination takes no video.
    case videoNotAccepted
    /// A video with images or a link, where the destination takes one thing at a time.
    case videoWithOtherContent
    /// Text with a video, where a video share carries no text.
    case textWithVideo
    /// The video cannot be read (`reason` says why).
    case unreadableVideo(String)
    /// The video is longer than the destination takes (it is never cut).
    case videoTooLong(seconds: Int, maxSeconds: Int)
    /// The video cannot be made smaller than `maxBytes` at any quality PhotoDeck accepts.
    case videoTooLarge(maxBytes: Int)
    /// A kind of message the destination does not take (a mini program in
    /// WeChat's Moments); `reason` says where it can go.
    case kindNotAccepted(kind: String, destination: ShareDestination, reason: String)
    /// A field the message needs is missing or empty; `field` is the
    /// vendor SDK's name for it (`WXMiniProgramObject.userName`).
    case fieldRequired(field: String)
    /// A field is larger than the vendor SDK takes, counted in `unit`.
    case fieldTooLarge(field: String, size: Int, limit: Int, unit: FieldLimit.Unit)
    /// A field's value is not one the vendor SDK takes (`reason` says why).
    case fieldInvalid(field: String, reason: String)
    /// Pictures or a video (`what` names them) that the center's adapter
    /// cannot read: ``TextContentAdapter`` fits text and links only. Give
    /// the ``ShareCenter`` `MediaContentAdapter` (the `ShareMedia` product).
    case needsMediaAdapter(String)

    public var description: String {
        switch self {
        case .emptyContent: "there is nothing to share"
        case .textNotAccepted: "this destination takes no text"
        case .textRequired: "this destination needs some text"
        case .textTooLong(let length, let maxLength): "the text is \(length) long; at most \(maxLength) fits, and it must not be cut"
        case .linkNotAccepted: "links cannot be shared here"
        case .linkTooLong(let maxLength): "the link alone is longer than the \(maxLength) characters allowed"
        case .linkWithImages: "a link and images cannot be shared together here; share them separately"
        case .urlTooLong(let bytes, let maxBytes): "the link is \(bytes) bytes long; at most \(maxBytes) fit"
        case .textWithImages: "pictures cannot carry text here; share the text on its own"
        case .imagesNotAccepted: "this destination takes no images"
        case .tooManyImages(let count, let maxCount): "\(count) images were given; at most \(maxCount) can be shared here"
        case .unreadableImage(let index, let error): "image \(index + 1) cannot be read: \(error)"
        case .imageTooLarge(let index, let maxBytes): "image \(index + 1) cannot be made smaller than \(maxBytes) bytes"
        case .noWritableFormat(let formats): "none of the accepted formats (\(formats.map(\.description).joined(separator: ", "))) can be written"
        case .thumbnailUnavailable(let reason): "no preview thumbnail can be made: \(reason)"
        case .videoNotAccepted: "this destination takes no video"
        case .videoWithOtherContent: "a video cannot go with images or a link here; share them separately"
        case .textWithVideo: "a video cannot carry text here; share the text on its own"
        case .unreadableVideo(let reason): "the video cannot be read: \(reason)"
        case .videoTooLong(let seconds, let maxSeconds): "the video is \(seconds) s long; at most \(maxSeconds) s can be shared here"
        case .videoTooLarge(let maxBytes): "the video cannot be made smaller than \(maxBytes) bytes"
        case .kindNotAccepted(let kind, let destination, let reason): "a \(kind) message cannot be shared to \(destination): \(reason)"
        case .fieldRequired(let field): "\(field) is required and was not given"
        case .fieldTooLarge(let field, let size, let limit, let unit):
            "\(field) is \(size) \(unit == .bytes ? "bytes" : "characters"); at most \(limit) fit"
        case .fieldInvalid(let field, let reason): "\(field) is not valid: \(reason)"
        case .needsMediaAdapter(let what):
            "\(what) cannot be prepared by a text-only adapter: give the ShareCenter MediaContentAdapter() from the ShareMedia product"
        }
    }
}
