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
        let apple = TIFFReader(makerNote: note, bigEndian: bigEndian, firstIFDOffset: 14)
        return apple.text(0x0011, in: apple.entries(ofIFDAt: apple.firstIFDOffset)).flatMap(LivePhotoIdentifier.init)
    }

    /// How an iPhone's maker note starts: `Apple iOS`, a NUL.
    static let appleMakerNotePrefix: [UInt8] = Array("Apple iOS\0".utf8)
}
