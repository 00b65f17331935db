import Foundation

extension ExifMetadata {
    /// The three dates ExifTool calls `AllDates`, each with its offset tag:
    /// (date tag, its IFD, its offset tag).
    static let editedDates: [(tag: UInt16, directory: TIFFEditor.Directory, offsetTag: UInt16)] = [
        (0x9003, .exif, 0x9011),  // DateTimeOriginal, OffsetTimeOriginal
        (0x9004, .exif, 0x9012),  // CreateDate (DateTimeDigitized), OffsetTimeDigitized
        (0x0132, .primary, 0x9010),  // ModifyDate (DateTime), OffsetTime
    ]

    /// `exif` (or, when `nil`, a new block) with `edit` applied: the dates,
    /// their offsets and the GPS tags changed, every other tag, the maker
    /// note and the thumbnail kept byte for byte (see ``TIFFEditor``).
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` when the
    ///   edit cannot apply (a shift of a photo with no date, an instant kept
    ///   for a date with no offset, a result outside the years 1…9999), and
    ///   ``ImageCore/ImageCodecError/corrupt(format:message:)`` for a block
    ///   whose TIFF header cannot be read.
    static func applying(_ edit: MetadataEdit, to exif: ExifMetadata?) throws(ImageCodecError) -> ExifMetadata {
        guard var editor = TIFFEditor(exif?.tiffData) else { throw .corrupt(format: .jpeg, message: "an EXIF block without a TIFF header") }
        if let change = edit.date { try editor.change(dates: change) }
        switch edit.place {
        case .set(let place):
            try editor.remove(.gps)
            try editor.update(.gps, setting: editor.gpsFields(place, at: editor.captureDate()))
        case .remove:
            try editor.remove(.gps)
        case nil: break
        }
        guard let edited = ExifMetadata(bytes: editor.data) else { throw .corrupt(format: .jpeg, message: "the edited EXIF block did not read back") }
        return edited
    }
}

extension TIFFEditor {
    /// The dates of ``ExifMetadata/editedDates`` as the block records them
    /// (a date that does not parse reads as absent), each with its own
    /// offset or, failing that, `OffsetTimeOriginal`.
    func dates() -> [CaptureDate?] {
        let reader = TIFFReader(data)!
        let primary = reader.entries(ofIFDAt: reader.firstIFDOffset)
        let exif = offset(of: .exif).map { reader.entries(ofIFDAt: $0) } ?? []
        let original = exif.first { $0.tag == 0x9011 }.flatMap(reader.ascii)
        return ExifMetadata.editedDates.map { date in
            let entries = date.directory == .primary ? primary : exif
            guard let text = entries.first(where: { $0.tag == date.tag }).flatMap(reader.ascii) else { return nil }
            let offset = exif.first { $0.tag == date.offsetTag }.flatMap(reader.ascii) ?? original
            return CaptureDate(exifDateTime: text, offset: offset)
        }
    }

    /// The capture date after an edit: `DateTimeOriginal`, else the others.
    func captureDate() -> CaptureDate? { dates().lazy.compactMap { $0 }.first }

    /// Applies a date change to the three dates and their offsets.
    mutating func change(dates change: MetadataEdit.DateChange) throws(ImageCodecError) {
        let current = dates()
        var changed: [CaptureDate?]
        switch change {
        case .set(let date):
            // Without an offset, each date keeps the one it records.
            changed = current.map { old in date.utcOffsetSeconds == nil ? date.withOffset(old?.utcOffsetSeconds) : date }
        case .shift(let seconds):
            guard current.contains(where: { $0 != nil }) else { throw .invalidArgument("the photo records no date to shift") }
            changed = []
            for date in current {
                guard let date else {
                    changed.append(nil)
                    continue
                }
                guard let moved = date.shifted(by: seconds) else { throw .invalidArgument("a shift of \(seconds) s takes \(date) outside the years 1…9999") }
                changed.append(moved)
            }
        case .zone(let zone, let keeping):
            guard current.contains(where: { $0 != nil }) else { throw .invalidArgument("the photo records no date to move to \(zone.identifier)") }
            changed = []
            for date in current {
                guard let date else {
                    changed.append(nil)
                    continue
                }
                guard let moved = date.inZone(zone, keeping: keeping) else {
                    throw .invalidArgument(
                        keeping == .keepingInstant && date.utcOffsetSeconds == nil
                            ? "\(date) records no offset, so its instant is unknown: keep the clock instead"
                            : "\(date) in \(zone.identifier) falls outside the years 1…9999")
                }
                changed.append(moved)
            }
        }
        var exifFields: [Field] = []
        var primaryFields: [Field] = []
        for (date, slot) in zip(changed, ExifMetadata.editedDates) {
            guard let date else { continue }
            let text = ascii(slot.tag, date.exifDateTime)
            if slot.directory == .primary { primaryFields.append(text) } else { exifFields.append(text) }
            if let offset = date.exifOffset { exifFields.append(ascii(slot.offsetTag, offset)) }
        }
        try update(.primary, setting: primaryFields)
        try update(.exif, setting: exifFields)
    }

    /// The GPS IFD's fields for `place`: version 2.3, the position in
    /// degrees, minutes and seconds (to a millionth of a second of arc),
    /// the altitude when known, and the time stamps in UTC when `date`
    /// records its offset.
    func gpsFields(_ place: GeoLocation, at date: CaptureDate?) -> [Field] {
        func dms(_ degrees: Double) -> [(UInt32, UInt32)] {
            // Whole millionths of a second of arc, so that no part rounds up to 60.
            let micro = Int((abs(degrees) * 3_600_000_000).rounded())
            return [(UInt32(micro / 3_600_000_000), 1), (UInt32(micro / 60_000_000 % 60), 1), (UInt32(micro % 60_000_000), 1_000_000)]
        }
        var fields = [
            byteField(0x0000, [2, 3, 0, 0]),
            ascii(0x0001, place.latitude < 0 ? "S" : "N"), rationals(0x0002, dms(place.latitude)),
            ascii(0x0003, place.longitude < 0 ? "W" : "E"), rationals(0x0004, dms(place.longitude)),
        ]
        if let altitude = place.altitude, abs(altitude) < 1_000_000 {
            fields.append(byteField(0x0005, [altitude < 0 ? 1 : 0]))
            fields.append(rationals(0x0006, [(UInt32((abs(altitude) * 1000).rounded()), 1000)]))
        }
        if let utc = date?.utc {
            fields.append(rationals(0x0007, [(UInt32(utc.hour), 1), (UInt32(utc.minute), 1), (UInt32(utc.second), 1)]))
            fields.append(ascii(0x001D, String(utc.exifDateTime.prefix(10))))
        }
        return fields
    }
}
