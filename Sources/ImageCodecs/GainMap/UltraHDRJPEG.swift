/// An Ultra HDR JPEG taken apart: the photo's own JPEG (the base picture an
/// SDR display shows), the gain map's JPEG after it, and how the map
/// applies (``ImageCore/GainMap``). Ultra HDR v1 as Android 14+ writes it:
/// the map indexed by an MPF segment (CIPA DC-007) and by a GContainer
/// directory in the XMP, its parameters as `hdrgm:` XMP in the map's own
/// JPEG, and from 2025 as ISO 21496-1 binary metadata beside them.
///
/// Everything in the file is a claim: the map's offset and length are
/// checked against the file, the map must be a JPEG no larger than the
/// photo, and its parameters are range-checked. A claim that fails makes
/// ``find(in:)`` answer ``Lookup/unusable(_:)`` with the reason: the photo
/// is still shown, flat.
///
/// ```swift
/// if case .present(let ultraHDR) = UltraHDRJPEG.find(in: bytes) {
///     print(ultraHDR.gainMap.parameters.alternateHeadroom, ultraHDR.map.count)   // stops, the map's bytes
/// }
/// ```
public struct UltraHDRJPEG: Hashable, Sendable {
    /// What ``find(in:)`` found.
    public enum Lookup: Hashable, Sendable {
        /// No gain map is claimed (a plain JPEG).
        case absent
        /// A gain map, whole.
        case present(UltraHDRJPEG)
        /// A gain map is claimed but cannot be used: why (the photo is fine without it).
        case unusable(String)
    }

    /// How the map applies, its size and channels.
    public let gainMap: GainMap
    /// Where the photo's own JPEG is in the file (from its start to its EOI).
    public let primary: Range<Int>
    /// Where the gain map's JPEG is in the file.
    public let map: Range<Int>

    /// The namespace that starts an ISO 21496-1 APP2 segment (then a NUL).
    static let isoNamespace = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]
    /// The signature that starts an MPF APP2 segment.
    static let mpfSignature: [UInt8] = Array("MPF".utf8) + [0]

    /// The gain map `jpeg` carries, if it claims one.
    public static func find(in jpeg: [UInt8]) -> Lookup {
        guard let layout = try? JPEGLayout(jpeg) else { return .absent }
        return find(in: jpeg, layout: layout)
    }

    /// ``find(in:)`` with the file's layout already read (a rewrite or a
    /// transform has it): the markers are walked once.
    static func find(in jpeg: [UInt8], layout: JPEGLayout) -> Lookup {
        var claims = Claims()
        for piece in layout.pieces {
            guard case .segment(let marker, let range) = piece else { continue }
            let payload = jpeg[(range.lowerBound + 4)..<range.upperBound]
            if marker == 0xE1, payload.starts(with: JPEGMetadata.xmpPrefix) {
                claims.xmp = String(decoding: payload.dropFirst(JPEGMetadata.xmpPrefix.count), as: UTF8.self)
            } else if marker == 0xE2, payload.starts(with: mpfSignature) {
                claims.mpfHeader = range.lowerBound + 4 + mpfSignature.count
            } else if marker == 0xE2, payload.starts(with: isoNamespace) {
                claims.isoVersionOnly = true
            }
        }
        let primaryEnd = layout.trailing.lowerBound
        guard let mapRange = claims.mapRange(in: jpeg, primaryEnd: primaryEnd) else {
            return claims.claimsGainMap ? .unusable("a gain map is named but no JPEG of it is found where the file says") : .absent
        }
        guard mapRange.count >= 4, jpeg[mapRange.lowerBound] == 0xFF, jpeg[mapRange.lowerBound + 1] == 0xD8 else {
            return .unusable("the gain map's bytes (\(mapRange.count) at \(mapRange.lowerBound)) do not start a JPEG")
        }
        return read(map: mapRange, in: jpeg, primary: 0..<primaryEnd)
    }

    /// Reads the map's JPEG at `range`: its header, its ISO 21496-1 segment
    /// (preferred) or its `hdrgm:` XMP.
    private static func read(map range: Range<Int>, in jpeg: [UInt8], primary: Range<Int>) -> Lookup {
        let mapBytes = Array(jpeg[range])
        let header: JPEGHeader
        let photo: JPEGHeader
        do {
            header = try JPEGHeader(reading: MemoryByteSource(mapBytes))
            // The primary's header ends at its first scan: read in place, not copied out of the file.
            photo = try JPEGHeader(reading: MemoryByteSource(jpeg))
        } catch {
            return .unusable("the gain map is not a readable JPEG: \(error)")
        }
        guard header.size.width > 0, header.size.height > 0, header.componentCount == 1 || header.componentCount == 3 else {
            return .unusable("the gain map's JPEG is \(header.size) with \(header.componentCount) channels")
        }
        guard header.size.width <= photo.size.width, header.size.height <= photo.size.height else {
            return .unusable("the gain map (\(header.size)) is larger than the photo (\(photo.size))")
        }
        var problems: [String] = []
        var parameters: GainMapParameters?
        var flavour = GainMap.Flavour.ultraHDR
        if let iso = isoPayload(in: mapBytes) {
            do {
                parameters = try GainMapParameters(iso21496: iso)
                flavour = .iso21496JPEG
            } catch {
                problems.append("ISO 21496-1 metadata: \(error)")
            }
        }
        if parameters == nil, let xmp = header.xmp {
            do {
                parameters = try GainMapParameters(ultraHDRXMP: String(decoding: xmp, as: UTF8.self))
            } catch {
                problems.append("hdrgm XMP: \(error)")
            }
        }
        guard let parameters else {
            return .unusable(problems.isEmpty ? "the gain map's JPEG has no hdrgm XMP or ISO 21496-1 metadata" : problems.joined(separator: "; "))
        }
        let gainMap = GainMap(flavour: flavour, parameters: parameters, size: header.size, channelCount: header.componentCount)
        return .present(UltraHDRJPEG(gainMap: gainMap, primary: primary, map: range))
    }

    /// The payload of the first ISO 21496-1 APP2 segment of `jpeg`, after its namespace.
    private static func isoPayload(in jpeg: [UInt8]) -> [UInt8]? {
        guard let layout = try? JPEGLayout(jpeg) else { return nil }
        for piece in layout.pieces {
            guard case .segment(0xE2, let range) = piece else { continue }
            let payload = jpeg[(range.lowerBound + 4)..<range.upperBound]
            if payload.starts(with: isoNamespace) { return Array(payload.dropFirst(isoNamespace.count)) }
        }
        return nil
    }

    /// What the primary image says about a gain map.
    private struct Claims {
        var xmp: String?
        var mpfHeader: Int?
        var isoVersionOnly = false

        /// Whether anything names a gain map (then a missing one is worth a warning).
        var claimsGainMap: Bool {
            isoVersionOnly || mpfHeader != nil || xmp.map { XMPText.prefix(boundTo: GainMapParameters.ultraHDRNamespace, in: $0) != nil } == true
        }

        /// Where the map's JPEG is: MPF's second entry, else the GContainer
        /// directory's GainMap item (right after the primary image).
        func mapRange(in jpeg: [UInt8], primaryEnd: Int) -> Range<Int>? {
            if let mpfHeader, let range = MPFIndex.secondImage(in: jpeg, header: mpfHeader) { return range }
            guard let xmp, let length = Self.directoryGainMapLength(in: xmp) else { return nil }
            guard length <= jpeg.count - primaryEnd else { return nil }
            return primaryEnd..<(primaryEnd + length)
        }

        /// The `Item:Length` of the directory's `GainMap` item.
        static func directoryGainMapLength(in xmp: String) -> Int? {
            let items = xmp.matches(of: #/<[A-Za-z0-9_.-]+:Item\b([^>]{0,1024})>/#).prefix(16).map { String($0.output.1) }
            guard let item = items.first(where: { XMPText.property("Semantic", in: $0) == "GainMap" }),
                let text = XMPText.property("Length", in: item), text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let length = Int(text), length > 0
            else { return nil }
            return length
        }
    }
}
