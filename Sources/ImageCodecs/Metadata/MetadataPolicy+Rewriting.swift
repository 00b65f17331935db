public import ImageCore

extension MetadataPolicy {
    /// `bytes` (JPEG, PNG, WebP or GIF) with only the metadata this policy
    /// keeps; the compressed pixels are copied untouched, so the image
    /// decodes to the same pixels. The orientation tag stays as it is (see
    /// ``ImageCodecs/JPEGTransform/applyingOrientation(of:edges:metadata:)`` to apply it
    /// losslessly). Ratings, labels and tags follow
    /// ``ImageCore/MetadataPolicy/keepsAnnotations``: kept in an XMP packet of
    /// their own when the rest of the XMP goes, taken out of one that stays.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``
    ///   for other formats (HEIC, AVIF: re-encode them), and a typed error
    ///   for a container too damaged to walk.
    public func rewriting(_ bytes: [UInt8], registry: ImageCodecRegistry = .shared) throws(ImageCodecError) -> RewrittenImage {
        let head = bytes.prefix(16)
        if JPEGHeader.recognizes(head) { return try settlingAnnotations(of: bytes, in: try JPEGMetadata.rewrite(bytes, policy: self)) }
        if head.starts(with: PNGMetadata.signature) { return try settlingAnnotations(of: bytes, in: try PNGMetadata.rewrite(bytes, policy: self)) }
        if WebPContainer.recognizes(head) { return try settlingAnnotations(of: bytes, in: try WebPMetadata.rewrite(bytes, policy: self)) }
        if GIFStructure.recognizes(head) { return try GIFMetadata.rewrite(bytes, policy: self) }
        let format = registry.format(of: bytes)
        guard let format else { throw .unsupportedFormat(leadingBytes: Array(head)) }
        if keepsAll { return RewrittenImage(bytes: bytes, format: format, removed: []) }
        throw .unsupportedFeature(format: format, feature: "rewriting its metadata in place (decode and re-encode it instead)")
    }
}

extension MetadataPolicy {
    /// `rewritten`, made from `original` under this policy, with the
    /// original's ratings, labels and tags as ``ImageCore/MetadataPolicy/keepsAnnotations``
    /// says: written into a packet of their own when the policy keeps them
    /// and the XMP they were in went; taken out of the XMP that stayed
    /// (and reported removed) when it does not.
    func settlingAnnotations(of original: [UInt8], in rewritten: RewrittenImage) throws(ImageCodecError) -> RewrittenImage {
        guard !keepsAll, let text = XMPPacket.text(inFile: original) else { return rewritten }
        let marks = XMPPacket.annotations(in: text)
        guard !marks.isEmpty else { return rewritten }
        let keptXMP = XMPPacket.text(inFile: rewritten.bytes) != nil
        if keepsAnnotations {
            guard !keptXMP else { return rewritten }
            return RewrittenImage(
                bytes: try MetadataEdit(annotations: marks).applied(to: rewritten.bytes), format: rewritten.format, removed: rewritten.removed)
        }
        let bytes = keptXMP ? try MetadataEdit(annotations: PhotoAnnotations()).applied(to: rewritten.bytes) : rewritten.bytes
        return RewrittenImage(bytes: bytes, format: rewritten.format, removed: rewritten.removed.union([.annotations]))
    }
}
