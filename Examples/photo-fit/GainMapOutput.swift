import ExampleSupport
import ImageCodecs

/// The gain map `photo-fit INPUT OUTPUT` carries: an Ultra HDR JPEG's map,
/// shaped as the photo was (turned, cropped, resized at its own ratio) and
/// written with it as Ultra HDR when OUTPUT is a JPEG; otherwise the
/// summary says it was left out, and why.
struct GainMapOutput {
    /// The input's bytes, read once (the rendition decodes them too).
    let bytes: [UInt8]
    /// Where its map is and how it applies.
    let ultraHDR: UltraHDRJPEG

    /// The Ultra HDR JPEG at `path`, or `nil` when it is none (a map that
    /// cannot be used is said on the summary line by `--gain-map-info`,
    /// not here: the photo is fitted flat).
    static func source(_ path: String) throws(CLIError) -> GainMapOutput? {
        guard (try? ImageInfo(probingFileAt: path))?.format == .jpeg else { return nil }
        let bytes = try readInputFile(path, limit: GainMapInfo.limit)
        guard case .present(let ultraHDR) = UltraHDRJPEG.find(in: bytes) else { return nil }
        return GainMapOutput(bytes: bytes, ultraHDR: ultraHDR)
    }

    /// `bitmap` (the rendition `decoded`, its colours final) encoded as
    /// `format`, with the map when the format carries it and `keep`; and
    /// what the summary says of the map.
    func encode(
        _ bitmap: Bitmap, of decoded: DecodedImage, as format: ImageFormat, options: EncodeOptions, keep: Bool
    ) throws(ImageCodecError) -> (bytes: [UInt8], note: String) {
        guard keep else { return (try bitmap.encoded(as: format, options: options), ", gain map dropped (--drop-gain-map)") }
        guard format == .jpeg else {
            return (try bitmap.encoded(as: format, options: options), ", gain map dropped (\(format) output carries none here; write .jpg to keep it)")
        }
        let map: GainMapImage
        do {
            map = try ultraHDR.map(matching: decoded, in: bytes)
        } catch {
            return (try bitmap.encoded(as: format, options: options), ", gain map dropped (it cannot be read: \(error))")
        }
        let encoded = try UltraHDRJPEG.encode(bitmap, map: map, options: options, mapQuality: max(options.quality, 85))
        return (encoded, ", gain map \(map.bitmap.size) kept (Ultra HDR)")
    }
}
