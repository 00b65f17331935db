/// The EXIF block of a TIFF-based camera raw file (DNG, CR2, NEF, ARW,
/// PEF, ORF, RW2 and most others), read in Swift from the file's first
/// bytes: the file is itself a TIFF structure whose first IFD holds the
/// camera and orientation and points at the EXIF and GPS IFDs.
enum CameraRAWHeader {
    /// How many leading bytes are read for the header: the IFDs and their
    /// values sit at a raw file's start (the sensor data and previews after
    /// them); a value past this bound is treated as absent.
    static let headerBytes = 1 << 20

    /// Whether `bytes` start a TIFF structure, and the byte order:
    /// `II*\0` and `MM\0*`, and the variants of Olympus (`IIRO`, `IIRS`,
    /// `MMOR`) and Panasonic (`IIU\0`), whose IFDs are TIFF's.
    static func tiffMagic(_ bytes: [UInt8]) -> (bigEndian: Bool, isStandard: Bool)? {
        guard bytes.count >= 4 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00): return (false, true)
        case (0x4D, 0x4D, 0x00, 0x2A): return (true, true)
        case (0x49, 0x49, 0x52, 0x4F), (0x49, 0x49, 0x52, 0x53), (0x49, 0x49, 0x55, 0x00): return (false, false)
        case (0x4D, 0x4D, 0x4F, 0x52): return (true, false)
        default: return nil
        }
    }

    /// The kinds of tag a raw file's block is rebuilt with: everything a
    /// photo's EXIF says of its shot, but none of the raw structure (strip
    /// offsets, sub-IFDs of previews and sensor data, the DNG colour tags),
    /// so the block is small and can travel in a JPEG made from the file.
    static let keptKinds = MetadataPolicy(keepsLocation: true, keepsCaptureDate: true, keepsCamera: true, keepsIdentifying: true)

    /// The file's EXIF block rebuilt with ``keptKinds``; `nil` when the
    /// file is not TIFF-based (RAF, CR3) or its header cannot be read.
    static func exif(of source: any ByteSource) -> ExifMetadata? {
        guard var head = try? source.bytes(at: 0, length: min(source.count, headerBytes)), let magic = tiffMagic(head) else { return nil }
        if !magic.isStandard {
            // The IFDs are TIFF's; only the magic differs.
            head.replaceSubrange(2..<4, with: magic.bigEndian ? [0x00, 0x2A] : [0x2A, 0x00])
        }
        return ExifMetadata(bytes: head)?.rewritten(under: keptKinds).exif
    }
}
