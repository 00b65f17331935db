extension ExifMetadata {
    /// A minimal EXIF block holding an orientation and, optionally, a
    /// capture date, as a camera capture or an edited image needs.
    ///
    /// ```swift
    /// let exif = ExifMetadata(orientation: .right)
    /// let jpeg = try bitmap.encoded(as: .jpeg, options: EncodeOptions(exif: exif))
    /// ```
    public init(orientation: ImageOrientation, captureDate: CaptureDate? = nil) {
        // Little-endian TIFF: header, IFD0 (Orientation [+ ExifIFD pointer]),
        // then, with a date, an Exif IFD holding DateTimeOriginal.
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]
        func append16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func append32(_ value: Int) {
            append16(value & 0xFFFF)
            append16(value >> 16 & 0xFFFF)
        }
        let hasDate = captureDate != nil
        append16(hasDate ? 2 : 1)
        append16(0x0112)
        append16(3)
        append32(1)
        append16(Int(orientation.rawValue))
        append16(0)
        if let captureDate {
            let dateText = captureDate.exifDateTime
            let offsetText = captureDate.exifOffset
            let exifIFDOffset = 8 + 2 + 2 * 12 + 4
            append16(0x8769)
            append16(4)
            append32(1)
            append32(exifIFDOffset)
            append32(0)
            let entryCount = offsetText == nil ? 1 : 2
            let dataOffset = exifIFDOffset + 2 + entryCount * 12 + 4
            append16(entryCount)
            append16(0x9003)
            append16(2)
            append32(20)
            append32(dataOffset)
            if offsetText != nil {
                append16(0x9011)
                append16(2)
                append32(7)
                append32(dataOffset + 20)
            }
            append32(0)
            bytes += Array(dateText.utf8) + [0]
            if let offsetText { bytes += Array(offsetText.utf8) + [0] }
        } else {
            append32(0)
        }
        // The block is well formed by construction, so parsing cannot fail.
        self = ExifMetadata(bytes: bytes)!
    }
}
