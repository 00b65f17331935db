extension UltraHDRJPEG {
    /// The photo's own JPEG out of `jpeg` (which `self` was found in),
    /// without what makes it Ultra HDR: the MPF index, the ISO 21496-1
    /// version segment, and the gain map's directory and `hdrgm:` version
    /// in its XMP (the XMP goes when nothing else is in it). Every other
    /// segment and the compressed picture are kept byte for byte: what a
    /// rewrite or a lossless transform works on before
    /// ``assemble(base:map:parameters:)`` puts the map back.
    func primaryAlone(in jpeg: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        let source = Array(jpeg[primary])
        let layout = try JPEGLayout(source)
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(primary.count)
        for piece in layout.pieces {
            switch piece {
            case .segment(let marker, let range):
                let payload = source[(range.lowerBound + 4)..<range.upperBound]
                if marker == 0xE2, payload.starts(with: Self.mpfSignature) || payload.starts(with: Self.isoNamespace) { continue }
                if marker == 0xE1, payload.starts(with: JPEGMetadata.xmpPrefix) {
                    let text = String(decoding: payload.dropFirst(JPEGMetadata.xmpPrefix.count), as: UTF8.self)
                    if let kept = XMPPacket.removingGainMapDirectory(text) {
                        output += JPEGMetadata.segmentBytes(marker: 0xE1, payload: JPEGMetadata.xmpPrefix + Array(kept.utf8))
                    }
                    continue
                }
                output += source[range]
            case .standalone(_, let range), .entropy(let range), .end(let range):
                output += source[range]
            }
        }
        return output
    }

    /// Whether `jpeg` holds more after the photo than the gain map (a
    /// depth map, a vendor's trailer): what a rewrite that puts back only
    /// the map leaves out.
    func hasOtherTrailingData(in jpeg: [UInt8]) -> Bool {
        jpeg.count - primary.upperBound > map.count
    }

    /// `jpeg` (an Ultra HDR JPEG, `self` found in it) with `change` made to
    /// the photo alone, then the map put back as `policy` says: the same map
    /// (transformed by `mapChange` first) with its parameters, or none and
    /// ``ImageCore/MetadataKind/gainMap`` among what was removed (also when
    /// `mapChange` fails: a damaged map is left out, the photo kept).
    func rebuilding(
        _ jpeg: [UInt8], policy: MetadataPolicy, change: ([UInt8]) throws(ImageCodecError) -> RewrittenImage,
        mapChange: ([UInt8], _ photo: [UInt8]) throws(ImageCodecError) -> [UInt8] = { map, _ in map }
    ) throws(ImageCodecError) -> RewrittenImage {
        let photo = try change(try primaryAlone(in: jpeg))
        var removed = photo.removed
        if hasOtherTrailingData(in: jpeg) { removed.insert(.other) }
        guard policy.keepsGainMap else {
            removed.insert(.gainMap)
            return RewrittenImage(bytes: photo.bytes, format: .jpeg, removed: removed)
        }
        // A map that cannot be changed (its scans damaged) costs the map, not the photo.
        guard let newMap = try? mapChange(Array(jpeg[map]), photo.bytes) else {
            removed.insert(.gainMap)
            return RewrittenImage(bytes: photo.bytes, format: .jpeg, removed: removed)
        }
        let bytes = try Self.assemble(base: photo.bytes, map: newMap, parameters: gainMap.parameters)
        return RewrittenImage(bytes: bytes, format: .jpeg, removed: removed)
    }
}
