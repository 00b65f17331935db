import ExampleSupport
import ImageCodecs

/// The gain map `photo-fit INPUT OUTPUT` carries: an Ultra HDR JPEG's or
/// an iPhone HEIC's map, shaped as the photo was (turned, cropped, resized
/// at its own ratio) and written with it as Ultra HDR when OUTPUT is a
/// JPEG; otherwise the summary says it was left out, and why.
struct GainMapOutput {
    /// The input's bytes, read once (the rendition decodes them too).
    let bytes: [UInt8]
    /// What the input says of its gain map; `nil` when it is dropped (not decoded).
    let lookup: GainMapLookup?

    /// The photo at `path` when it claims a gain map (a JPEG or a HEIF
    /// file that names one), else `nil`: the photo is fitted as before.
    /// Unless `keep`, the map is only looked for (an Ultra HDR JPEG's is
    /// not decoded), for the summary to say it was dropped.
    static func source(_ path: String, keep: Bool) throws(CLIError) -> GainMapOutput? {
        guard let format = (try? ImageInfo(probingFileAt: path))?.format, [.jpeg, .heic, .avif].contains(format) else { return nil }
        let bytes = try readInputFile(path, limit: GainMapInfo.limit)
        guard keep else {
            let claimed = format == .jpeg ? UltraHDRJPEG.find(in: bytes) != .absent : GainMapImage.read(from: bytes) != .absent
            return claimed ? GainMapOutput(bytes: bytes, lookup: nil) : nil
        }
        let lookup = GainMapImage.read(from: bytes)
        guard lookup != .absent else { return nil }
        return GainMapOutput(bytes: bytes, lookup: lookup)
    }

    /// `bitmap` (the rendition `decoded`, its colours final) encoded as
    /// `format`, with the map when the format carries it and it was kept;
    /// and what the summary says of the map.
    func encode(
        _ bitmap: Bitmap, of decoded: DecodedImage, as format: ImageFormat, options: EncodeOptions
    ) throws(ImageCodecError) -> (bytes: [UInt8], note: String) {
        func flat(_ why: String) throws(ImageCodecError) -> (bytes: [UInt8], note: String) {
            (try bitmap.encoded(as: format, options: options), ", gain map dropped (\(why))")
        }
        guard let lookup else { return try flat("--drop-gain-map") }
        guard format == .jpeg else { return try flat("\(format) output carries none here; write .jpg to keep it") }
        switch lookup {
        case .absent: return (try bitmap.encoded(as: format, options: options), "")
        case .unusable(let reason): return try flat("it cannot be used: \(reason)")
        case .present(let stored, let photoSize):
            let map: GainMapImage
            do {
                map = try stored.shaped(as: decoded, photoSize: photoSize)
            } catch {
                return try flat("it cannot be read: \(error)")
            }
            let encoded = try UltraHDRJPEG.encode(bitmap, map: map, options: options, mapQuality: max(options.quality, 85))
            let from = map.gainMap.flavour == .appleAuxiliary ? ", from Apple's" : ""
            return (encoded, ", gain map \(map.bitmap.size) kept (Ultra HDR\(from))")
        }
    }
}
