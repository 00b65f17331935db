/// What a photo says about its HDR gain map, whatever its container.
public enum GainMapLookup: Hashable, Sendable {
    /// No gain map is claimed.
    case absent
    /// The map as the file stores it (not yet turned by the photo's EXIF
    /// orientation), and the stored size of the photo it belongs to.
    case present(GainMapImage, photoSize: PixelSize)
    /// A gain map is claimed but cannot be used: why (the photo is fine without it).
    case unusable(String)
}

extension GainMapImage {
    /// The gain map of the photo in `bytes`: an Ultra HDR JPEG's (its
    /// second picture, decoded), a HEIC's or an AVIF's ISO 21496-1 `tmap`
    /// item (preferred), or an iPhone HEIC's (Apple's auxiliary
    /// image, its levels converted to ISO 21496-1 terms with the headroom
    /// its maker note gives: ``ImageCore/GainMapParameters/init(appleHeadroom:)``).
    /// Decoding is bounded by `limits`; nothing in the file can make this
    /// trap: a map that lies is ``GainMapLookup/unusable(_:)``.
    ///
    /// ```swift
    /// switch GainMapImage.read(from: bytes) {
    /// case .present(let map, _): print(map.gainMap.flavour, map.bitmap.size)
    /// case .unusable(let reason): print("shown flat:", reason)
    /// case .absent: break
    /// }
    /// ```
    public static func read(from bytes: [UInt8], limits: ImageLimits = .default) -> GainMapLookup {
        let head = bytes.prefix(16)
        if JPEGHeader.recognizes(head) {
            switch UltraHDRJPEG.find(in: bytes) {
            case .absent: return .absent
            case .unusable(let reason): return .unusable(reason)
            case .present(let ultraHDR):
                do {
                    return .present(try ultraHDR.storedMap(in: bytes, limits: limits), photoSize: try JPEGHeader(reading: MemoryByteSource(bytes)).size)
                } catch {
                    return .unusable("the gain map cannot be decoded: \(error)")
                }
            }
        }
        guard let format = [ImageFormat.heic, .avif].first(where: { HEIFCodec(format: $0).recognizes(head) }) else { return .absent }
        do {
            return try bytes.withUnsafeBytes { (memory) throws(ImageCodecError) -> GainMapLookup in
                let file = try HEIFFile(memory: memory, format: format, limits: limits)
                // ISO 21496-1's tmap first (exact, and what iOS 18 writes beside Apple's own).
                if let (parameters, map) = try file.toneMapGainMap() {
                    return .present(GainMapImage(gainMap: GainMap(flavour: .isoToneMapItem, parameters: parameters), bitmap: map), photoSize: file.size)
                }
                guard let stored = try file.appleGainMap() else {
                    // A PQ or HLG photo without a map: one computed from its HDR and SDR renditions.
                    guard let (parameters, map) = try file.computedGainMap() else { return .absent }
                    return .present(GainMapImage(gainMap: GainMap(flavour: .computedFromHDR, parameters: parameters), bitmap: map), photoSize: file.size)
                }
                guard let headroom = file.exif?.appleHDRHeadroom else {
                    return .unusable("the gain map's headroom is not in the maker note (tags 33 and 48)")
                }
                let levels = GainMapParameters.isoLevels(fromAppleLevelsWithHeadroom: headroom)
                let converted = Bitmap(
                    uncheckedWidth: stored.width, height: stored.height, bytesPerRow: stored.bytesPerRow, pixelFormat: .gray8,
                    pixels: stored.pixels.map { levels[Int($0)] })
                let gainMap = GainMap(flavour: .appleAuxiliary, parameters: try Self.parameters(appleHeadroom: headroom))
                return .present(GainMapImage(gainMap: gainMap, bitmap: converted), photoSize: file.size)
            }
        } catch {
            return .unusable("the gain map cannot be read: \(error)")
        }
    }

    private static func parameters(appleHeadroom headroom: Double) throws(ImageCodecError) -> GainMapParameters {
        do {
            return try GainMapParameters(appleHeadroom: headroom)
        } catch {
            throw .corrupt(format: .heic, message: "\(error)")
        }
    }

    /// This map (as stored beside a photo of `photoSize`, as stored)
    /// shaped as `rendition` shaped the photo: turned by its orientation,
    /// cropped to the part a fill kept (at the map's scale), resized at
    /// the map's own ratio to the photo.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` when
    ///   `rendition` is not of a `photoSize` picture.
    public func shaped(as rendition: DecodedImage, photoSize: PixelSize) throws(ImageCodecError) -> GainMapImage {
        guard photoSize == rendition.sourceSize else {
            throw .invalidArgument("the rendition is of a \(rendition.sourceSize) picture, the gain map's photo is \(photoSize)")
        }
        let upright = bitmap.oriented(rendition.sourceOrientation)
        let shown = rendition.sourceOrientation.orientedSize(photoSize)
        let kept = rendition.crop ?? PixelRect(x: 0, y: 0, width: shown.width, height: shown.height)
        let part = GainMapGeometry.rect(kept, of: shown, in: upright.size)
        var shaped = try upright.cropped(x: part.x, y: part.y, size: part.size)
        let target = GainMapGeometry.scaled(rendition.bitmap.size, by: upright.size, over: shown, within: part.size)
        if target != shaped.size { shaped = shaped.resized(to: target) }
        return GainMapImage(gainMap: gainMap, bitmap: shaped)
    }
}
