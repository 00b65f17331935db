import Foundation

extension ExifMetadata {
    /// The camera, lens, exposure and GPS position this block records
    /// (see ``ExifDetails`` for what is left out as implausible). Parsed
    /// each time it is read: keep the result.
    public var details: ExifDetails {
        guard let reader = TIFFReader(tiffData) else { return ExifDetails() }
        let primary = reader.entries(ofIFDAt: reader.firstIFDOffset)
        let exif = reader.subIFD(0x8769, in: primary)
        var details = ExifDetails()
        details.cameraMake = reader.text(0x010F, in: primary)
        details.cameraModel = reader.text(0x0110, in: primary)
        details.lensMake = reader.text(0xA433, in: exif)
        details.lensModel = reader.text(0xA434, in: exif)
        details.exposureTime = reader.rationals(0x829A, in: exif).first
        details.fNumber = reader.rationals(0x829D, in: exif).first.map(\.value).flatMap { $0 > 0 ? $0 : nil }
        details.isoSpeed = reader.unsigned(0x8827, in: exif).flatMap { $0 > 0 ? $0 : nil }
        details.focalLength = reader.rationals(0x920A, in: exif).first.map(\.value).flatMap { $0 > 0 ? $0 : nil }
        details.focalLengthIn35mmFilm = reader.unsigned(0xA405, in: exif).flatMap { $0 > 0 ? $0 : nil }
        details.location = reader.location(in: reader.subIFD(0x8825, in: primary))
        details.bodySerialNumber = reader.text(0xA431, in: exif)
        details.imageUniqueID = reader.text(0xA420, in: exif)
        details.captureSubseconds = reader.text(0x9291, in: exif).flatMap(Self.subseconds)
        details.imageDescription = reader.text(0x010E, in: primary).flatMap { Self.isStockDescription($0) ? nil : $0 }
        return details
    }

    /// Whether a camera wrote `text` as every photo's description: its
    /// maker's stock words, not a person's caption.
    static func isStockDescription(_ text: String) -> Bool {
        let stock = [
            "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "DCIM", "KODAK DIGITAL STILL CAMERA", "MINOLTA DIGITAL CAMERA",
            "SAMSUNG DIGITAL CAMERA", "PENTAX DIGITAL CAMERA", "DSC", "DEFAULT", "SONY DIGITAL CAMERA", "IMG",
        ]
        let folded = text.uppercased().trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        return folded.isEmpty || stock.contains(folded) || folded.hasPrefix("CREATOR: GD-JPEG")
    }

    /// `"123"` as 0.123: digits only (at most 9 read), anything else `nil`.
    static func subseconds(_ text: String) -> Double? {
        let digits = text.prefix(9)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double("0." + digits) else { return nil }
        return value
    }
}

extension TIFFReader {
    /// The entries of the IFD a pointer tag in `entries` points at (the
    /// Exif or GPS IFD); empty when there is none.
    func subIFD(_ tag: UInt16, in entries: [Entry]) -> [Entry] {
        guard let pointer = entries.first(where: { $0.tag == tag }), let field = integerField(pointer) else { return [] }
        return self.entries(ofIFDAt: integer(at: field.offset, width: field.width))
    }

    /// An ASCII tag's text, without surrounding spaces, cut to 128
    /// characters; `nil` when absent or empty.
    func text(_ tag: UInt16, in entries: [Entry]) -> String? {
        guard let text = entries.first(where: { $0.tag == tag }).flatMap(ascii) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(128))
    }

    /// A SHORT or LONG tag's first value.
    func unsigned(_ tag: UInt16, in entries: [Entry]) -> Int? {
        guard let entry = entries.first(where: { $0.tag == tag }), let field = integerField(entry) else { return nil }
        return integer(at: field.offset, width: field.width)
    }

    /// The first values (at most 8) of a RATIONAL tag, stopping at the
    /// first zero denominator or at the end of the data.
    func rationals(_ tag: UInt16, in entries: [Entry]) -> [ExifRational] {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 5, entry.count >= 1 else { return [] }
        // Eight bytes each: always stored at the offset the value field holds.
        let start = integer(at: entry.valueFieldOffset, width: 4)
        var values: [ExifRational] = []
        for index in 0..<min(entry.count, 8) {
            let offset = start + index * 8
            guard offset >= 8, offset <= data.count - 8 else { break }
            guard let value = ExifRational(UInt32(integer(at: offset, width: 4)), UInt32(integer(at: offset + 4, width: 4))) else { break }
            values.append(value)
        }
        return values
    }

    /// A tag's first value as a number, whatever numeric type it has
    /// (BYTE, SHORT, LONG, their signed forms, RATIONAL, SRATIONAL, FLOAT,
    /// DOUBLE); `nil` when absent, not numeric, outside the data, a zero
    /// denominator or not finite.
    func number(_ tag: UInt16, in entries: [Entry]) -> Double? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.count >= 1 else { return nil }
        let width: Int
        switch entry.type {
        case 1, 6: width = 1
        case 3, 8: width = 2
        case 4, 9, 11: width = 4
        case 5, 10, 12: width = 8
        default: return nil
        }
        // Up to four bytes sit in the value field; more at the offset it holds.
        let at = width <= 4 ? entry.valueFieldOffset : integer(at: entry.valueFieldOffset, width: 4)
        guard at >= 0, at <= data.count - width else { return nil }
        func signed(_ value: Int, bits: Int) -> Int { value >= 1 << (bits - 1) ? value - (1 << bits) : value }
        let value: Double
        switch entry.type {
        case 1, 3, 4: value = Double(integer(at: at, width: width))
        case 6, 8, 9: value = Double(signed(integer(at: at, width: width), bits: width * 8))
        case 5, 10:
            let top = integer(at: at, width: 4)
            let bottom = integer(at: at + 4, width: 4)
            let isSigned = entry.type == 10
            let denominator = isSigned ? signed(bottom, bits: 32) : bottom
            guard denominator != 0 else { return nil }
            value = Double(isSigned ? signed(top, bits: 32) : top) / Double(denominator)
        case 11: value = Double(Float(bitPattern: UInt32(integer(at: at, width: 4))))
        default: value = Double(bitPattern: UInt64(bitPattern: Int64(integer(at: at, width: 8))))
        }
        return value.isFinite ? value : nil
    }

    /// The GPS IFD's position: degrees, minutes and seconds with their
    /// hemisphere letters, and the altitude with its below-sea-level flag.
    func location(in gps: [Entry]) -> GeoLocation? {
        func degrees(_ tag: UInt16, reference: UInt16, negative: String) -> Double? {
            let parts = rationals(tag, in: gps)
            guard parts.count == 3 else { return nil }
            let value = parts[0].value + parts[1].value / 60 + parts[2].value / 3600
            return text(reference, in: gps)?.uppercased() == negative ? -value : value
        }
        guard let latitude = degrees(0x0002, reference: 0x0001, negative: "S"),
            let longitude = degrees(0x0004, reference: 0x0003, negative: "W")
        else { return nil }
        // GPSAltitudeRef is a BYTE: 1 means below sea level.
        let below = gps.first(where: { $0.tag == 0x0005 && $0.type == 1 }).map { integer(at: $0.valueFieldOffset, width: 1) == 1 } ?? false
        let altitude = rationals(0x0006, in: gps).first.map { below ? -$0.value : $0.value }
        return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}
