/// Follows a JPEG's bytes as they arrive and says when a preview is due.
///
/// A preview is due when the file is progressive (its frame is `SOF2`), a
/// scan has just ended (the next `SOS` marker arrived: every byte before
/// it belongs to complete scans), and at least a tenth of the declared
/// length arrived since the last preview. The first scan of a progressive
/// JPEG (the DC coefficients, the whole picture at 1/8 of its detail) ends
/// after 5 to 10% of the file, so the first preview comes that early.
///
/// The bytes are a claim: markers are found by walking the segments by
/// their declared lengths (so an `FF DA` inside EXIF data is not a scan),
/// and anything that is not a well-formed progressive JPEG stops the
/// previews, never the download.
package struct ProgressiveScans {
    /// The body so far.
    package private(set) var bytes: [UInt8] = []
    /// The declared length; no previews without one.
    private(set) var expected = 0
    /// Where the marker walk is.
    private var position = 2
    private var inEntropyData = false
    private var isProgressive = false
    private var stopped = false
    private var scans = 0
    private var lastPreview = 0
    package private(set) var previews = 0

    /// Starts over for an answer whose body is `expected` bytes long (0:
    /// undeclared, no previews).
    package init(expected: Int = 0) { self.expected = max(0, expected) }

    /// Appends a chunk; returns the length of the prefix a preview should
    /// decode, when one is due.
    package mutating func append(_ chunk: [UInt8]) -> Int? {
        bytes += chunk
        guard !stopped, expected > 0 else { return nil }
        if bytes.count >= 2, position == 2, !(bytes[0] == 0xFF && bytes[1] == 0xD8) {
            stopped = true
            return nil
        }
        var due: Int?
        while let boundary = nextScanStart() {
            scans += 1
            // The second SOS ends the first scan; each later one ends another.
            guard scans >= 2, isProgressive else { continue }
            if previews == 0 || boundary - lastPreview >= expected / 10 {
                due = boundary
                lastPreview = boundary
                previews += 1
            }
        }
        return due
    }

    /// Walks markers up to the next `SOS`, returning its offset; `nil` when
    /// the bytes so far end first (or the walk stopped).
    private mutating func nextScanStart() -> Int? {
        while !stopped, position + 1 < bytes.count {
            if inEntropyData {
                guard bytes[position] == 0xFF else {
                    position += 1
                    continue
                }
                let next = bytes[position + 1]
                // Stuffed zero, a restart marker, or fill bytes: still the scan.
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                    position += next == 0xFF ? 1 : 2
                    continue
                }
                inEntropyData = false
            }
            guard bytes[position] == 0xFF else {
                stopped = true
                return nil
            }
            let marker = bytes[position + 1]
            if marker == 0xFF {
                position += 1
                continue
            }
            if marker == 0xD9 {  // EOI: the whole image is here; the final one comes next.
                stopped = true
                return nil
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                position += 2
                continue
            }
            guard position + 3 < bytes.count else { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2 else {
                stopped = true
                return nil
            }
            if marker == 0xC2 { isProgressive = true }
            if [0xC0, 0xC1, 0xC3].contains(marker) { stopped = true }  // not progressive: no previews
            let start = position
            if marker == 0xDA {
                guard start + 2 + length <= bytes.count else { return nil }
                position = start + 2 + length
                inEntropyData = true
                return start
            }
            position = start + 2 + length
        }
        return nil
    }
}

/// The bytes of a progressive JPEG up to the end of a scan, while it downloads.
struct PreviewBytes: Sendable {
    /// Complete scans, from the start of the file.
    let prefix: [UInt8]
    /// The body's declared length.
    let expected: Int
}
