extension UltraHDRJPEG {
    /// An Ultra HDR v1 JPEG of `base` (the photo's JPEG: its EXIF, ICC
    /// profile and other segments kept; the gain map's directory added to
    /// its XMP, or its XMP made of it) and `map` (the gain map's JPEG, its
    /// own metadata not carried), with `parameters` both as
    /// `hdrgm:` XMP and as ISO 21496-1 metadata, the map indexed by MPF and
    /// by the GContainer directory: what Android 14+ and Chrome read, and
    /// what ``find(in:)`` reads back.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/corrupt(format:message:)`` when
    ///   `base` or `map` is not a JPEG, and
    ///   ``ImageCore/ImageCodecError/encodingFailed(format:message:)`` when a
    ///   piece does not fit its segment or the file passes 4 GiB.
    public static func assemble(base: [UInt8], map: [UInt8], parameters: GainMapParameters) throws(ImageCodecError) -> [UInt8] {
        let baseLayout = try JPEGLayout(base)
        let mapLayout = try JPEGLayout(map)

        // The map: its own pictures' segments, after its parameters in both forms.
        var mapOut: [UInt8] = [0xFF, 0xD8]
        mapOut += try segment(0xE1, JPEGMetadata.xmpPrefix + Array(parameters.ultraHDRXMP.utf8))
        mapOut += try segment(0xE2, isoNamespace + parameters.iso21496Metadata)
        for piece in mapLayout.pieces { mapOut += bytes(of: piece, in: map, keepingApplicationSegments: false) }

        // The primary: its application segments (but an XMP, MPF or ISO one), then ours, then its pictures' segments.
        var applications: [UInt8] = []
        var picture: [UInt8] = []
        var baseXMP: String?
        for piece in baseLayout.pieces {
            if case .segment(let marker, let range) = piece, (0xE0...0xEF).contains(marker) {
                let payload = base[(range.lowerBound + 4)..<range.upperBound]
                if marker == 0xE1 && payload.starts(with: JPEGMetadata.xmpPrefix) {
                    if baseXMP == nil { baseXMP = String(decoding: payload.dropFirst(JPEGMetadata.xmpPrefix.count), as: UTF8.self) }
                    continue
                }
                let replaced = marker == 0xE2 && (payload.starts(with: mpfSignature) || payload.starts(with: isoNamespace))
                if !replaced { applications += base[range] }
            } else {
                picture += bytes(of: piece, in: base, keepingApplicationSegments: true)
            }
        }
        let xmp = try segment(0xE1, JPEGMetadata.xmpPrefix + Array(primaryXMP(merging: baseXMP, mapLength: mapOut.count).utf8))
        let iso = try segment(0xE2, isoNamespace + [0, 0, 0, 0])
        let mpfAt = 2 + applications.count + xmp.count + iso.count
        let mpfLength = 4 + MPFIndex.payload(primarySize: 0, secondSize: 0, secondOffset: 0).count
        let primarySize = mpfAt + mpfLength + picture.count
        // Offsets in the MP index count from the MP header, 8 bytes into the segment (FF E2, length, "MPF\0").
        let header = mpfAt + 8
        guard primarySize + mapOut.count <= Int(UInt32.max) else {
            throw .encodingFailed(format: .jpeg, message: "an Ultra HDR JPEG over 4 GiB cannot be indexed")
        }
        let mpf = try segment(0xE2, MPFIndex.payload(primarySize: primarySize, secondSize: mapOut.count, secondOffset: primarySize - header))
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(primarySize + mapOut.count)
        output += applications + xmp + iso + mpf + picture + mapOut
        return output
    }

    /// The primary image's XMP: `base` (the photo's own packet) without any
    /// earlier directory, with a description of the gain map's version and
    /// the GContainer directory (the primary, then the map and its length)
    /// added; that description alone when there is no packet, or when the
    /// packet binds RDF to another prefix or the two would not fit one segment.
    static func primaryXMP(merging base: String?, mapLength: Int) -> String {
        let description = directoryDescription(mapLength: mapLength)
        let alone = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(rdfNamespace)">"# + description + "</rdf:RDF></x:xmpmeta>"
        guard let base, base.utf8.count <= 0xFFFF, let kept = XMPPacket.removingGainMapDirectory(base),
            XMPText.prefix(boundTo: rdfNamespace, in: kept) == "rdf", let merged = XMPPacket.adding(description: description, to: kept),
            merged.utf8.count + JPEGMetadata.xmpPrefix.count <= 0xFFFF - 2
        else { return alone }
        return merged
    }

    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The `rdf:Description` naming the gain map: `hdrgm:Version` and the directory.
    private static func directoryDescription(mapLength: Int) -> String {
        """
        <rdf:Description rdf:about="" xmlns:Container="\(XMPPacket.containerNamespace)" \
        xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmlns:hdrgm="\(GainMapParameters.ultraHDRNamespace)" hdrgm:Version="1.0">\
        <Container:Directory><rdf:Seq>\
        <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>\
        <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="\(mapLength)"/></rdf:li>\
        </rdf:Seq></Container:Directory></rdf:Description>
        """
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        guard payload.count <= 0xFFFF - 2 else {
            throw .encodingFailed(format: .jpeg, message: "a \(payload.count)-byte segment does not fit a JPEG marker segment")
        }
        return JPEGMetadata.segmentBytes(marker: marker, payload: payload)
    }

    private static func bytes(of piece: JPEGLayout.Piece, in jpeg: [UInt8], keepingApplicationSegments: Bool) -> ArraySlice<UInt8> {
        switch piece {
        case .segment(let marker, let range):
            return keepingApplicationSegments || !(0xE0...0xEF).contains(marker) ? jpeg[range] : []
        case .standalone(_, let range), .entropy(let range), .end(let range):
            return jpeg[range]
        }
    }
}
