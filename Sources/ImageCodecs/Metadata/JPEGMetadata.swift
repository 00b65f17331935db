/// Rewrites a JPEG's metadata under a ``ImageCore/MetadataPolicy`` without touching
/// its compressed pixels: marker segments are kept, rebuilt or dropped,
/// and everything else is copied byte for byte.
///
/// | segment | kept when |
/// |---|---|
/// | APP0 JFIF, APP2 ICC_PROFILE, APP14 Adobe, tables, frame, scans | always |
/// | APP1 Exif | rebuilt with the tags the policy keeps (``ExifMetadata/rewritten(under:)``) |
/// | APP1 XMP (and extended XMP) | ``ImageCore/MetadataPolicy/keepsEverythingElse``, its `exif:GPS*` removed unless location is kept |
/// | APP13 Photoshop (IPTC) | everything else is kept |
/// | COM | everything else is kept |
/// | APP0 JFXX, APP2 MPF, data after EOI | everything else is kept (thumbnails, other pictures) |
/// | any other APPn | everything else is kept |
///
/// An Ultra HDR JPEG's gain map (its MPF index, its directory in the XMP,
/// its ISO 21496-1 segment and its picture after EOI) is kept when
/// ``ImageCore/MetadataPolicy/keepsGainMap``: the photo is rewritten alone
/// and the map put back (``UltraHDRJPEG/rebuilding(_:policy:change:mapChange:)``),
/// the map's own metadata not carried; anything else after the photo goes.
enum JPEGMetadata {
    /// `jpeg` with only what `policy` keeps; with `orientation`, the rebuilt
    /// EXIF says that orientation (``ImageCore/ImageOrientation/up`` once a transform
    /// has applied it).
    static func rewrite(_ jpeg: [UInt8], policy: MetadataPolicy, orientation: ImageOrientation? = nil) throws(ImageCodecError) -> RewrittenImage {
        if policy.keepsAll && orientation == nil { return RewrittenImage(bytes: jpeg, format: .jpeg, removed: []) }
        let layout = try JPEGLayout(jpeg)
        if case .present(let ultraHDR) = UltraHDRJPEG.find(in: jpeg, layout: layout) {
            // The photo rewritten alone, its gain map put back (or left out) as the policy says.
            return try ultraHDR.rebuilding(jpeg, policy: policy) { (photo) throws(ImageCodecError) in
                try rewrite(photo, policy: policy, orientation: orientation)
            }
        }
        let (metadata, removed) = keptMetadata(jpeg, layout: layout, policy: policy, orientation: orientation)
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(jpeg.count)
        var placed = false
        for piece in layout.pieces {
            switch piece {
            case .segment(let marker, let range):
                if isMetadata(marker: marker, jpeg[range]) {
                    // The kept metadata goes where the first metadata segment was (after JFIF, where readers look for it).
                    if !placed {
                        output += metadata.flatMap { $0 }
                        placed = true
                    }
                    continue
                }
                if !placed, marker != 0xE0 {
                    output += metadata.flatMap { $0 }
                    placed = true
                }
                output += jpeg[range]
            case .standalone(_, let range), .entropy(let range), .end(let range):
                output += jpeg[range]
            }
        }
        if policy.keepsEverythingElse { output += jpeg[layout.trailing] }
        return RewrittenImage(bytes: output, format: .jpeg, removed: removed)
    }

    /// The metadata segments `policy` keeps from `jpeg`, in order, rebuilt
    /// where needed, and what was dropped: for ``rewrite(_:policy:orientation:)``,
    /// and to carry into a losslessly transformed copy (``JPEGTransform``).
    static func keptMetadata(
        _ jpeg: [UInt8], layout: JPEGLayout, policy: MetadataPolicy, orientation: ImageOrientation?
    ) -> (segments: [[UInt8]], removed: Set<MetadataKind>) {
        var segments: [[UInt8]] = []
        var removed = Set<MetadataKind>()
        var sawExif = false
        for piece in layout.pieces {
            guard case .segment(let marker, let range) = piece else { continue }
            let segment = jpeg[range]
            guard isMetadata(marker: marker, segment) else { continue }
            let payload = segment.dropFirst(4)
            switch kind(marker: marker, payload: payload) {
            case .keep:
                segments.append(Array(segment))
            case .exif:
                // A second EXIF block is not read by anyone: dropped.
                guard !sawExif else {
                    removed.insert(.other)
                    continue
                }
                sawExif = true
                var rebuilt = ExifMetadata.rewriting(payload.dropFirst(6), under: policy, removed: &removed)
                if let orientation, let current = rebuilt {
                    rebuilt = current.settingOrientation(orientation)
                    // A block without an orientation tag reads as up; one that needs another is rebuilt with it.
                    if rebuilt?.orientation != orientation { rebuilt = nil }
                }
                if let rebuilt, rebuilt.tiffData.count + 8 <= 0xFFFF {
                    segments.append(app1Exif(rebuilt))
                }
            case .xmp:
                guard policy.keepsEverythingElse else {
                    removed.insert(.xmp)
                    continue
                }
                let (scrubbed, hadLocation) = XMPPacket.removingLocation(Array(payload), unless: policy.keepsLocation)
                if hadLocation { removed.insert(.location) }
                segments.append(segmentBytes(marker: marker, payload: scrubbed))
            case .drop(let what):
                if policy.keeps(what) { segments.append(Array(segment)) } else { removed.insert(what) }
            }
        }
        if !layout.trailing.isEmpty && !policy.keepsEverythingElse { removed.insert(.other) }
        return (segments, removed)
    }

    /// What a metadata segment is.
    private enum SegmentKind {
        case keep
        case exif
        case xmp
        case drop(MetadataKind)
    }

    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extendedXMPPrefix: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// Whether a segment is metadata (APPn or COM), as opposed to what the
    /// image itself needs (tables, frame, scans).
    private static func isMetadata(marker: UInt8, _ segment: ArraySlice<UInt8>) -> Bool {
        (0xE0...0xEF).contains(marker) || marker == 0xFE
    }

    private static func kind(marker: UInt8, payload: ArraySlice<UInt8>) -> SegmentKind {
        func starts(_ prefix: [UInt8]) -> Bool { payload.starts(with: prefix) }
        switch marker {
        case 0xE0: return starts(Array("JFIF".utf8) + [0]) ? .keep : starts(Array("JFXX".utf8) + [0]) ? .drop(.thumbnail) : .drop(.other)
        case 0xE1: return starts(exifPrefix) ? .exif : starts(xmpPrefix) || starts(extendedXMPPrefix) ? .xmp : .drop(.other)
        case 0xE2: return starts(Array("ICC_PROFILE".utf8) + [0]) ? .keep : starts(Array("MPF".utf8) + [0]) ? .drop(.thumbnail) : .drop(.other)
        case 0xED: return starts(Array("Photoshop 3.0".utf8) + [0]) ? .drop(.iptc) : .drop(.other)
        case 0xEE: return starts(Array("Adobe".utf8)) ? .keep : .drop(.other)
        case 0xFE: return .drop(.comment)
        default: return .drop(.other)
        }
    }

    /// An APP1 `Exif\0\0` segment holding `exif`.
    static func app1Exif(_ exif: ExifMetadata) -> [UInt8] {
        segmentBytes(marker: 0xE1, payload: exifPrefix + exif.tiffData)
    }

    /// A marker segment: `FF marker`, the length, the payload.
    static func segmentBytes(marker: UInt8, payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }
}
