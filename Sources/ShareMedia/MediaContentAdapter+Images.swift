import ImageCodecs
import ShareKit

extension MediaContentAdapter {
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

    /// What fitting did to an image, for ``PreparedContent/adjustments``.
    enum FitChange {
        /// The bytes as they were (nothing to remove, nothing to fix).
        case none
        /// The same compressed pixels in a rewritten container (metadata removed).
        case rewritten
        /// Turned upright losslessly (its EXIF orientation applied by moving blocks).
        case rotated(ImageOrientation)
        /// Decoded and encoded again.
        case reencoded
    }

    /// An image in one of `formats`, inside `box` (filling it, cropped by
    /// `crop`, when that is given), under `maxBytes`, with only the
    /// metadata `policy` keeps. The original compressed pixels
    /// whenever they qualify: the container rewritten under the policy, and
    /// a JPEG turned upright losslessly when its orientation is all that is
    /// wrong (blocks that cannot move whole, a format that cannot be
    /// rewritten in place, a cap missed: re-encoded instead).
    func fit(
        _ image: ShareImage, formats: [ImageFormat], maxBytes: Int, box: PixelSize?, crop: CropStrategy? = nil, policy: MetadataPolicy,
        forceEncode: Bool = false, encodes: inout Int
    ) -> Result<(PreparedContent.Image, FitChange), FitFailure> {
        guard let format = formats.first(where: { registry.encodableFormats.contains($0) }) else { return .failure(.noWritableFormat) }
        var bitmap: Bitmap
        // A tagged source is converted to sRGB and says so in what is sent
        // (not in small thumbnails, where the profile's bytes would cost quality).
        var profile: ColorProfile?
        // What a re-encoded image carries: the source's EXIF as the policy keeps it, orientation applied.
        var exif: ExifMetadata?
        var removed = Set<MetadataKind>()
        // An Ultra HDR source's gain map, shaped as the photo's rendition, when the policy and the format keep it.
        var gainMap: GainMapImage?
        // The source's ratings, labels and tags, written into a re-encoded image when the policy keeps them.
        var marks = PhotoAnnotations()
        switch image {
        case .encoded(let bytes):
            let info: ImageInfo
            do { info = try ImageInfo(probing: bytes, registry: registry) } catch { return .failure(.unreadable(error)) }
            let fitsBox = box.map { info.orientedSize.width <= $0.width && info.orientedSize.height <= $0.height } ?? true
            if !forceEncode, formats.contains(info.format), fitsBox, let passed = passThrough(bytes, info: info, policy: policy),
                passed.bytes.count <= maxBytes
            {
                let change: FitChange = info.orientation != .up ? .rotated(info.orientation) : passed.bytes == bytes ? .none : .rewritten
                return .success(
                    (PreparedContent.Image(bytes: passed.bytes, format: info.format, size: info.orientedSize, removedMetadata: passed.removed), change))
            }
            do {
                // A crop fills the box; without one the image fits inside it.
                let mode: RenditionMode = box != nil && crop != nil ? .fill : .fit
                var rendition = try DecodedImage(
                    rendering: bytes, in: box ?? info.orientedSize, mode: mode,
                    options: RenditionOptions(colorHandling: .preserve, crop: crop ?? .centre), registry: registry)
                if rendition.colorProfile != nil {
                    rendition.convertToSRGB()
                    if maxBytes >= Self.profileEmbeddingMinimumBytes { profile = .sRGB }
                }
                bitmap = rendition.bitmap
                let kept = rendition.exif?.rewritten(under: policy)
                exif = kept?.exif?.settingOrientation(.up)
                // What the source carried that the new image does not: its container says best.
                removed = (try? policy.rewriting(bytes, registry: registry))?.removed ?? kept?.removed ?? []
                if policy.keepsAnnotations { marks = PhotoAnnotations(embeddedIn: bytes) }
                // An Ultra HDR JPEG's map, or an iPhone HEIC's (then the JPEG sent is Ultra HDR: Android and Chrome show it in HDR).
                switch GainMapImage.read(from: bytes) {
                case .present(let map, let photoSize):
                    gainMap = policy.keepsGainMap && format == .jpeg ? try? map.shaped(as: rendition, photoSize: photoSize) : nil
                    if gainMap == nil { removed.insert(.gainMap) }
                case .unusable: removed.insert(.gainMap)
                case .absent: break
                }
            } catch {
                return .failure(.unreadable(error))
            }
        case .bitmap(let pixels):
            bitmap = pixels
            if let box, let crop {
                bitmap = pixels.filling(box, crop: crop)
            } else if let box, !box.covers(pixels.size) {
                bitmap = pixels.resized(to: pixels.size.fitting(in: box))
            }
        }
        do {
            for _ in 0..<6 {
                // The gain map's JPEG and its container come out of the photo's share of the cap (a quarter of it at most).
                var map: (image: GainMapImage, bytes: [UInt8])?
                if let source = gainMap {
                    map = (source, try source.encoded(quality: preferredQuality))
                    // A map that would take more than a quarter of the cap costs the photo too much: the photo goes flat.
                    if let bytes = map?.bytes, bytes.count > maxBytes / 4 {
                        map = nil
                        gainMap = nil
                        removed.insert(.gainMap)
                    }
                }
                let photoCap = maxBytes - (map.map { $0.bytes.count + Self.gainMapContainerBytes } ?? 0)
                if let best = try smallestEncoding(of: bitmap, as: format, profile: profile, exif: exif, maxBytes: photoCap, encodes: &encodes) {
                    var bytes = best
                    if let map { bytes = try UltraHDRJPEG.assemble(base: best, map: map.bytes, parameters: map.image.gainMap.parameters) }
                    if !marks.isEmpty {
                        // Kept when the format carries XMP and the cap has room for them; reported removed otherwise.
                        let marked = [.jpeg, .webp, .png].contains(format) ? try? MetadataEdit(annotations: marks).applied(to: bytes, registry: registry) : nil
                        if let marked, marked.count <= maxBytes { bytes = marked } else { removed.insert(.annotations) }
                    }
                    return .success((PreparedContent.Image(bytes: bytes, format: format, size: bitmap.size, removedMetadata: removed), .reencoded))
                }
                // Too large even at the lowest quality: shrink and try again.
                guard bitmap.width > 16 || bitmap.height > 16 else { break }
                let smaller = bitmap.size.scaled(by: 0.7)
                gainMap = gainMap?.resized(toMatch: smaller, from: bitmap.size)
                bitmap = bitmap.resized(to: smaller)
            }
        } catch {
            return .failure(.codec(error))
        }
        return .failure(.tooLarge)
    }

    /// What an Ultra HDR JPEG's container adds to its two pictures at most:
    /// the directory and `hdrgm:` XMP, the ISO 21496-1 segments and MPF.
    static let gainMapContainerBytes = 4096

    /// The smallest byte cap at which a converted image carries the sRGB profile.
    static let profileEmbeddingMinimumBytes = 64 * 1024

    /// The bytes with only what `policy` keeps, the pixels untouched; a
    /// JPEG that is not upright turned so losslessly (whole blocks only:
    /// sharing never trims a photo). `nil` when that cannot be done, and the
    /// image is re-encoded instead.
    private func passThrough(_ bytes: [UInt8], info: ImageInfo, policy: MetadataPolicy) -> RewrittenImage? {
        do {
            if info.orientation != .up {
                guard info.format == .jpeg else { return nil }
                return try JPEGTransform.applyingOrientation(of: bytes, edges: .perfect, metadata: policy)
            }
            return try policy.rewriting(bytes, registry: registry)
        } catch {
            return nil
        }
    }

    /// The best encoding of `bitmap` under `maxBytes`: the preferred quality
    /// when it fits (most images do), else the highest quality that fits, by
    /// binary search; `nil` when nothing fits at this size.
    private func smallestEncoding(
        of bitmap: Bitmap, as format: ImageFormat, profile: ColorProfile?, exif: ExifMetadata?, maxBytes: Int, encodes: inout Int
    ) throws(ImageCodecError) -> [UInt8]? {
        guard format == .jpeg || format == .webp else {
            let encoded = try bitmap.encoded(
                as: format, options: EncodeOptions(compressionLevel: 9, exif: exif, colorProfile: profile), registry: registry)
            encodes += 1
            return encoded.count <= maxBytes ? encoded : nil
        }
        let first = try bitmap.encoded(as: format, options: EncodeOptions(quality: preferredQuality, exif: exif, colorProfile: profile), registry: registry)
        encodes += 1
        if first.count <= maxBytes { return first }
        var best: [UInt8]?
        var low = minimumQuality
        var high = preferredQuality - 1
        while low <= high {
            let quality = (low + high) / 2
            let encoded = try bitmap.encoded(as: format, options: EncodeOptions(quality: quality, exif: exif, colorProfile: profile), registry: registry)
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
