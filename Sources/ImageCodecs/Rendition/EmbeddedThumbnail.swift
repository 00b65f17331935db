/// The preview a photo carries, used instead of decoding the photo when
/// it is big enough: a JPEG's EXIF thumbnail (IFD1). (A HEIF file's
/// thumbnail items are used by ``DecodedImage/init(renderingFileAt:in:mode:options:registry:)``
/// itself whenever one covers the box.)
///
/// ```swift
/// let preview = try EmbeddedThumbnail.rendition(ofFileAt: path, fitting: PixelSize(width: 128, height: 128))
/// let bitmap = try preview ?? DecodedImage(renderingFileAt: path, in: PixelSize(width: 128, height: 128)).bitmap
/// ```
public enum EmbeddedThumbnail {
    /// The photo's embedded preview, upright and fitted into `box`, when it
    /// is at least as large as the photo's own fit into `box` and has the
    /// photo's aspect ratio (within 2%: cameras often store a 160×120
    /// preview with black bars for a 3:2 photo, which is refused). `nil`
    /// when there is no such preview; errors only for a file that cannot be
    /// read as an image at all.
    public static func rendition(
        ofFileAt path: String, fitting box: PixelSize, options: RenditionOptions = .default
    ) throws(ImageCodecError) -> Bitmap? {
        let source = try FileByteSource(path: path)
        let leading = try source.bytes(at: 0, length: min(3, source.count))
        guard JPEGHeader.recognizes(leading[...]) else { return nil }
        let header = try JPEGHeader(reading: source)
        guard let exif = header.exif, let preview = exif.thumbnailJPEG else { return nil }
        // The preview is stored as the photo is: its size and aspect compare with the stored size.
        guard let info = try? JPEGCodec().probe(MemoryByteSource(preview)) else { return nil }
        let photoAspect = Double(header.size.width) / Double(max(1, header.size.height))
        let previewAspect = Double(info.size.width) / Double(max(1, info.size.height))
        guard abs(previewAspect - photoAspect) <= 0.02 * photoAspect else { return nil }
        let upright = exif.orientation.orientedSize(header.size)
        let needed = upright.fitting(in: box)
        let previewUpright = exif.orientation.orientedSize(info.size)
        guard previewUpright.width >= needed.width, previewUpright.height >= needed.height else { return nil }
        let fitted = try DecodedImage(rendering: preview, in: exif.orientation.orientedSize(needed), mode: .fit, options: options)
        return fitted.bitmap.oriented(exif.orientation)
    }
}
