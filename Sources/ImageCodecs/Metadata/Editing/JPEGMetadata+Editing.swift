extension JPEGMetadata {
    /// `jpeg` with `edit` written into its EXIF segment (a new one after
    /// JFIF when it has none) and into its XMP where that says the same
    /// (``XMPPacket/editing(_:with:)``); every other segment and the scans
    /// are copied as they are. An Ultra HDR JPEG is
    /// edited as its photo alone and the gain map put back.
    static func edit(_ jpeg: [UInt8], with edit: MetadataEdit) throws(ImageCodecError) -> [UInt8] {
        if edit.isEmpty { return jpeg }
        let layout = try JPEGLayout(jpeg)
        if case .present(let ultraHDR) = UltraHDRJPEG.find(in: jpeg, layout: layout) {
            return try ultraHDR.rebuilding(jpeg, policy: .keepAll) { (photo) throws(ImageCodecError) in
                RewrittenImage(bytes: try Self.edit(photo, with: edit), format: .jpeg, removed: [])
            }.bytes
        }
        var segments: [(marker: UInt8, range: Range<Int>)] = []
        for case .segment(let marker, let range) in layout.pieces { segments.append((marker, range)) }
        let exifSegment = segments.first { $0.marker == 0xE1 && jpeg[($0.range.lowerBound + 4)...].starts(with: exifPrefix) }
        var replacements: [Range<Int>: [UInt8]] = [:]
        // New segments, after SOI and a JFIF APP0, where readers look for them.
        var inserted: [UInt8] = []
        if edit.changesExif {
            var exif: ExifMetadata?
            if let exifSegment {
                guard let read = ExifMetadata(bytes: jpeg[(exifSegment.range.lowerBound + 10)..<exifSegment.range.upperBound]) else {
                    throw .corrupt(format: .jpeg, message: "its EXIF block has no readable TIFF header, so it is left as it is")
                }
                exif = read
            }
            let edited = try ExifMetadata.applying(edit, to: exif)
            guard edited.tiffData.count + 8 <= 0xFFFF else {
                throw .unsupportedFeature(format: .jpeg, feature: "an EXIF block of \(edited.tiffData.count) bytes (a JPEG segment holds 65,527)")
            }
            if let exifSegment { replacements[exifSegment.range] = app1Exif(edited) } else { inserted += app1Exif(edited) }
        }
        let xmpSegments = segments.filter { $0.marker == 0xE1 && jpeg[($0.range.lowerBound + 4)...].starts(with: xmpPrefix) }
        var packets = xmpSegments.map { (range: $0.range, payload: Array(jpeg[($0.range.lowerBound + 4)..<$0.range.upperBound])) }
        if packets.isEmpty, edit.annotations != nil { packets = [(2..<2, xmpPrefix + Array(XMPPacket.empty.utf8))] }
        for (range, payload) in packets {
            let edited = XMPPacket.editing(payload, with: edit)
            guard edited != payload || range.isEmpty else { continue }
            guard edited.count + 2 <= 0xFFFF else {
                throw .unsupportedFeature(format: .jpeg, feature: "an XMP packet grown past a JPEG segment's 65,533 bytes")
            }
            if range.isEmpty {
                inserted += segmentBytes(marker: 0xE1, payload: edited)
            } else {
                replacements[range] = segmentBytes(marker: 0xE1, payload: edited)
            }
        }
        // An MPF index counts its pictures' offsets from its own segment: a segment after it may not change size.
        if let mpf = segments.first(where: { $0.marker == 0xE2 && jpeg[($0.range.lowerBound + 4)...].starts(with: Array("MPF".utf8) + [0]) }),
            replacements.contains(where: { $0.key.lowerBound > mpf.range.lowerBound && $0.value.count != $0.key.count })
        {
            throw .unsupportedFeature(format: .jpeg, feature: "a metadata segment after its MPF index changing size (the index's offsets would break)")
        }
        var output: [UInt8] = []
        output.reserveCapacity(jpeg.count + inserted.count)
        var copied = 0
        if !inserted.isEmpty {
            let jfif = segments.first.flatMap { $0.marker == 0xE0 && jpeg[($0.range.lowerBound + 4)...].starts(with: Array("JFIF".utf8) + [0]) ? $0 : nil }
            let at = jfif?.range.upperBound ?? 2
            output += jpeg[0..<at] + inserted
            copied = at
        }
        for (range, bytes) in replacements.sorted(by: { $0.key.lowerBound < $1.key.lowerBound }) {
            output += jpeg[copied..<range.lowerBound]
            output += bytes
            copied = range.upperBound
        }
        output += jpeg[copied...]
        return output
    }
}
