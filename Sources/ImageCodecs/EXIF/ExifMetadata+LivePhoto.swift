extension ExifMetadata {
    /// The Live Photo identifier an iPhone writes into its maker note, the
    /// same UUID the paired video carries as
    /// `com.apple.quicktime.content.identifier`; `nil` when the block has no
    /// Apple maker note, or the note no identifier (a still that is not
    /// half of a Live Photo).
    ///
    /// The maker note is read as exiftool reads it: `Apple iOS` and a NUL,
    /// two version bytes, the byte order (`MM` or `II`), then an IFD whose
    /// offsets count from the note's start; tag `0x0011` (exiftool's
    /// `MediaGroupUUID`, formerly `ContentIdentifier`) holds the text. Every
    /// offset is checked against the note and the note against the block.
    ///
    /// ```swift
    /// if let identifier = try ExifMetadata(readingFileAt: "IMG_0042.HEIC")?.livePhotoIdentifier {
    ///     print("half of a Live Photo:", identifier)
    /// }
    /// ```
    public var livePhotoIdentifier: LivePhotoIdentifier? {
        guard let apple = appleMakerNote else { return nil }
        return apple.text(0x0011, in: apple.entries(ofIFDAt: apple.firstIFDOffset)).flatMap(LivePhotoIdentifier.init)
    }

    /// The burst an iPhone says the shot belongs to: its maker note's
    /// `BurstUUID` (tag `0x000B`), the same text in every frame of one
    /// burst; `nil` without an Apple maker note or outside a burst.
    ///
    /// ```swift
    /// let burst = try ExifMetadata(readingFileAt: "IMG_0043.HEIC")?.appleBurstIdentifier
    /// ```
    public var appleBurstIdentifier: String? {
        guard let apple = appleMakerNote, let text = apple.text(0x000B, in: apple.entries(ofIFDAt: apple.firstIFDOffset)) else { return nil }
        return Self.isBurstIdentifier(text) ? text.uppercased() : nil
    }

    /// Whether `text` has a burst id's shape: 8 to 64 hex digits and dashes
    /// (a UUID's text); anything else in that tag is not one.
    package static func isBurstIdentifier(_ text: String) -> Bool {
        (8...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The headroom, in stops, an iPhone's maker note gives its HDR gain
    /// map (tags 33 and 48, by Apple's formula:
    /// ``ImageCore/GainMapParameters/appleHeadroom(maker33:maker48:)``); `nil`
    /// when there is no Apple maker note, either tag is missing or not a
    /// number, or the values are out of range.
    public var appleHDRHeadroom: Double? {
        guard let apple = appleMakerNote else { return nil }
        let entries = apple.entries(ofIFDAt: apple.firstIFDOffset)
        guard let maker33 = apple.number(0x0021, in: entries), let maker48 = apple.number(0x0030, in: entries) else { return nil }
        return try? GainMapParameters.appleHeadroom(maker33: maker33, maker48: maker48)
    }

    /// The Apple maker note, read as exiftool reads it: `Apple iOS` and a
    /// NUL, two version bytes, the byte order (`MM` or `II`), then an IFD
    /// whose offsets count from the note's start. Every offset is checked
    /// against the note and the note against the block.
    private var appleMakerNote: TIFFReader? {
        guard let reader = TIFFReader(tiffData) else { return nil }
        let exif = reader.subIFD(0x8769, in: reader.entries(ofIFDAt: reader.firstIFDOffset))
        // MakerNote: UNDEFINED bytes, always stored at an offset (an Apple note is longer than 4 bytes).
        guard let entry = exif.first(where: { $0.tag == 0x927C }), entry.type == 7, (16...(1 << 20)).contains(entry.count) else { return nil }
        let start = reader.integer(at: entry.valueFieldOffset, width: 4)
        guard start >= 8, start <= reader.data.count - entry.count else { return nil }
        let note = Array(reader.data[start..<start + entry.count])
        guard note.starts(with: Self.appleMakerNotePrefix) else { return nil }
        let bigEndian: Bool
        switch (note[12], note[13]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        return TIFFReader(makerNote: note, bigEndian: bigEndian, firstIFDOffset: 14)
    }

    /// How an iPhone's maker note starts: `Apple iOS`, a NUL.
    static let appleMakerNotePrefix: [UInt8] = Array("Apple iOS\0".utf8)
}
