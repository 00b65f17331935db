/// The adapter ShareKit ships, which links no codec: it fits the text
/// (counted and cut the provider's way, or refused under
/// ``TextOverflow/refuse``) and the link (trimmed, or moved into the text
/// where the destination takes no link object), and refuses pictures and
/// videos with ``ConstraintViolation/needsMediaAdapter(_:)``, because it
/// cannot see what they carry (a position, a camera's serial number) nor
/// make them fit.
///
/// It is ``ShareCenter``'s default. A server that posts only text and links
/// needs nothing else; an app that shares photos or videos gives the center
/// `MediaContentAdapter` from the `ShareMedia` product instead.
///
/// ```swift
/// let prepared = try await TextContentAdapter().prepare(ShareContent(text: longCaption), for: constraints)
/// ```
public struct TextContentAdapter: ContentAdapter {
    /// Creates the adapter.
    public init() {}

    /// The text and link fitted; pictures and videos refused.
    public func prepare(
        _ content: ShareContent, for constraints: ShareConstraints, progress: (@Sendable (Double) -> Void)?
    ) async throws(ShareError) -> PreparedContent {
        var violations = constraints.violations(of: content)
        let fitted = constraints.fittingTextAndLink(of: content)
        // Only what a destination takes needs reading: violations(of:) already refused the rest.
        if !content.images.isEmpty, constraints.images != nil { violations.append(.needsMediaAdapter("the pictures")) }
        if content.video != nil, constraints.videos != nil { violations.append(.needsMediaAdapter("the video")) }
        if content.link?.thumbnail != nil, constraints.thumbnail != nil { violations.append(.needsMediaAdapter("the link's picture")) }
        guard violations.isEmpty else { throw .invalidContent(violations) }
        return PreparedContent(
            text: fitted.text, images: [], link: fitted.link, thumbnail: nil, adjustments: fitted.adjustments, encodeCount: 0,
            inReplyTo: content.inReplyTo)
    }
}
