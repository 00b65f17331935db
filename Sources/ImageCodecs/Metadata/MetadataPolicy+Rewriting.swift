public import ImageCore

extension MetadataPolicy {
    /// `bytes` (JPEG, PNG, WebP or GIF) with only the metadata this policy
    /// keeps; the compressed pixels are copied untouched, so the image
    /// decodes to the same pixels. The orientation tag stays as it is (see
    /// ``ImageCodecs/JPEGTransform/applyingOrientation(of:edges:metadata:)`` to apply it
    /// losslessly).
    ///
    /// - Throws: ``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``
    ///   for other formats (HEIC, AVIF: re-encode them), and a typed error
    ///   for a container too damaged to walk.
    public func rewriting(_ bytes: [UInt8], registry: ImageCodecRegistry = .shared) throws(ImageCodecError) -> RewrittenImage {
        let head = bytes.prefix(16)
        if JPEGHeader.recognizes(head) { return try JPEGMetadata.rewrite(bytes, policy: self) }
        if head.starts(with: PNGMetadata.signature) { return try PNGMetadata.rewrite(bytes, policy: self) }
        if WebPContainer.recognizes(head) { return try WebPMetadata.rewrite(bytes, policy: self) }
        if GIFStructure.recognizes(head) { return try GIFMetadata.rewrite(bytes, policy: self) }
        let format = registry.format(of: bytes)
        guard let format else { throw .unsupportedFormat(leadingBytes: Array(head)) }
        if keepsAll { return RewrittenImage(bytes: bytes, format: format, removed: []) }
        throw .unsupportedFeature(format: format, feature: "rewriting its metadata in place (decode and re-encode it instead)")
    }
}
