import ImageCodecs

/// Hostile JPEGs made at test time: a progressive file with thousands of
/// extra scans, each cheap to store and expensive to decode (libjpeg visits
/// every block of every scan), the classic JPEG denial of service.
public enum HostileJPEG {
    /// What could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A progressive JPEG of a flat `side` x `side` picture whose scan
    /// `repeating` (by default the last: luma AC refinement, coefficients 1
    /// to 63; 0 is the first, DC of all components) is repeated `extraScans`
    /// more times before EOI. Each copy is a few dozen bytes.
    public static func manyScans(side: Int = 2048, extraScans: Int = 3_000, repeating index: Int? = nil) throws -> [UInt8] {
        let flat = try Bitmap(width: side, height: side, pixelFormat: .rgb8, pixels: [UInt8](repeating: 120, count: side * side * 3))
        let jpeg = try flat.encoded(as: .jpeg, options: EncodeOptions(quality: 90, isProgressive: true))
        let scans = scanRanges(in: jpeg)
        guard scans.count > 1, jpeg.suffix(2).elementsEqual([0xFF, 0xD9]) else {
            throw Failure(description: "TurboJPEG wrote no progressive scans")
        }
        let scan = Array(jpeg[scans[index ?? scans.count - 1]])
        var result = Array(jpeg.dropLast(2))
        result.reserveCapacity(result.count + scan.count * extraScans + 2)
        for _ in 0..<extraScans { result += scan }
        return result + [0xFF, 0xD9]
    }

    /// The byte ranges of each scan: its SOS segment and entropy-coded data,
    /// up to the next marker that is not a stuffed byte or a restart.
    public static func scanRanges(in jpeg: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 2
        while offset + 4 <= jpeg.count {
            guard jpeg[offset] == 0xFF else { return ranges }
            let marker = jpeg[offset + 1]
            if marker == 0xD9 { break }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            var end = offset + 2 + length
            if marker == 0xDA {
                while end + 1 < jpeg.count, !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1])) { end += 1 }
                ranges.append(offset..<end)
            }
            offset = end
        }
        return ranges
    }
}
