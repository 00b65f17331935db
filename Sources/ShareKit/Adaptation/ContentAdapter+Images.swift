import ImageCodecs

extension ContentAdapter {
    /// Why an image could not be fitted.
    enum FitFailure: Error {
        /// It cannot be read.
        case unreadable(ImageCodecError)
        /// Not even the smallest version is under the cap.
        case tooLarge
        /// No accepted format can be written.
        case noWritableFormat
        /// Decoding or encoding failed part way.
        case codec(ImageCodecError)
    }

    /// An image in one of `formats`, inside `box`, under `maxBytes`; the
    /// original bytes (and `false`) when they already qualify.
    func fit(
        _ image: ShareImage, formats: [ImageFormat], maxBytes: Int, box: PixelSize?, forceEncode: Bool = false, encodes: inout Int
    ) -> Result<(PreparedContent.Image, Bool), FitFailure> {
        guard let format = formats.first(where: { registry.encodableFormats.contains($0) }) else { return .failure(.noWritableFormat) }
        var bitmap: Bitmap
        // A tagged source is converted to sRGB and says so in what is sent
        // (not in small thumbnails, where the profile's bytes would cost quality).
        var profile: ColorProfile?
        switch image {
        case .encoded(let bytes):
            let info: ImageInfo
            do { info = try ImageInfo(probing: bytes, registry: registry) } catch { return .failure(.unreadable(error)) }
            let fitsBox = box.map { info.orientedSize.width <= $0.width && info.orientedSize.height <= $0.height } ?? true
            if !forceEncode, formats.contains(info.format), bytes.count <= maxBytes, fitsBox, info.orientation == .up {
                return .success((PreparedContent.Image(bytes: bytes, format: info.format, size: info.size), false))
            }
            do {
                var rendition = try DecodedImage(
                    rendering: bytes, in: box ?? info.orientedSize, options: RenditionOptions(colorHandling: .preserve), registry: registry)
                if rendition.colorProfile != nil {
                    rendition.convertToSRGB()
                    if maxBytes >= Self.profileEmbeddingMinimumBytes { profile = .sRGB }
                }
                bitmap = rendition.bitmap
            } catch {
                return .failure(.unreadable(error))
            }
        case .bitmap(let pixels):
            bitmap = pixels
            if let box, !box.covers(pixels.size) { bitmap = pixels.resized(to: pixels.size.fitting(in: box)) }
        }
        do {
            for _ in 0..<6 {
                if let best = try smallestEncoding(of: bitmap, as: format, profile: profile, maxBytes: maxBytes, encodes: &encodes) {
                    return .success((PreparedContent.Image(bytes: best, format: format, size: bitmap.size), true))
                }
                // Too large even at the lowest quality: shrink and try again.
                guard bitmap.width > 16 || bitmap.height > 16 else { break }
                bitmap = bitmap.resized(to: bitmap.size.scaled(by: 0.7))
            }
        } catch {
            return .failure(.codec(error))
        }
        return .failure(.tooLarge)
    }

    /// The smallest byte cap at which a converted image carries the sRGB profile.
    static let profileEmbeddingMinimumBytes = 64 * 1024

    /// The best encoding of `bitmap` under `maxBytes`: the preferred quality
    /// when it fits (most images do), else the highest quality that fits, by
    /// binary search; `nil` when nothing fits at this size.
    private func smallestEncoding(
        of bitmap: Bitmap, as format: ImageFormat, profile: ColorProfile?, maxBytes: Int, encodes: inout Int
    ) throws(ImageCodecError) -> [UInt8]? {
        guard format == .jpeg || format == .webp else {
            let encoded = try bitmap.encoded(as: format, options: EncodeOptions(compressionLevel: 9, colorProfile: profile), registry: registry)
            encodes += 1
            return encoded.count <= maxBytes ? encoded : nil
        }
        let first = try bitmap.encoded(as: format, options: EncodeOptions(quality: preferredQuality, colorProfile: profile), registry: registry)
        encodes += 1
        if first.count <= maxBytes { return first }
        var best: [UInt8]?
        var low = minimumQuality
        var high = preferredQuality - 1
        while low <= high {
            let quality = (low + high) / 2
            let encoded = try bitmap.encoded(as: format, options: EncodeOptions(quality: quality, colorProfile: profile), registry: registry)
            encodes += 1
            if encoded.count <= maxBytes {
                best = encoded
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return best
    }
}
