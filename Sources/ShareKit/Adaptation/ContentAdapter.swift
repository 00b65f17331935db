/// Fits content to a destination's ``ShareConstraints`` before any provider
/// sees it: the plug-in point between ``ShareCenter`` and whatever reads
/// and writes pictures and videos.
///
/// ShareKit links no codec. Its own adapter, ``TextContentAdapter`` (the
/// center's default), fits text and links and refuses pictures and videos
/// with ``ConstraintViolation/needsMediaAdapter(_:)``. An app that shares
/// photos or videos adds the `ShareMedia` product and gives the center its
/// adapter, in one line:
///
/// ```swift
/// import ShareMedia
///
/// let center = ShareCenter(adapter: .media)   // MediaContentAdapter()
/// ```
///
/// ## Semantics
///
/// - Every rule the content breaks and adaptation cannot fix is reported
///   at once, in one ``ShareError/invalidContent(_:)``: those of
///   ``ShareConstraints/violations(of:)`` first, then what only reading the
///   media can tell.
/// - Blocking work (decoding, encoding, remuxing) runs off Swift's
///   cooperative pool, on the adapter's own threads.
/// - `progress` is called with 0...1 while a video is converted, from any
///   thread; a cancelled task stops the conversion and throws
///   ``ShareError/cancelled``.
/// - Files the prepared content refers to are ``PreparedFile``s: deleted
///   when the content goes.
public protocol ContentAdapter: Sendable {
    /// The content, prepared for a destination with `constraints`; or
    /// ``ShareError/invalidContent(_:)`` listing every violation that
    /// adaptation cannot fix.
    func prepare(
        _ content: ShareContent, for constraints: ShareConstraints, progress: (@Sendable (Double) -> Void)?
    ) async throws(ShareError) -> PreparedContent
}

extension ContentAdapter {
    /// ``prepare(_:for:progress:)`` without progress reports.
    ///
    /// ```swift
    /// let prepared = try await adapter.prepare(ShareContent(text: caption), for: constraints)
    /// print(prepared.adjustments)   // ["shortened the text to fit 140 characters"]
    /// ```
    public func prepare(_ content: ShareContent, for constraints: ShareConstraints) async throws(ShareError) -> PreparedContent {
        try await prepare(content, for: constraints, progress: nil)
    }
}
