import SystemSupport

/// The layout of a JPEG file as its markers lay it out: every marker
/// segment, the entropy-coded data between them, and anything after EOI.
/// Read without decoding anything (a `memchr` over the entropy-coded data
/// to find the next marker), so a metadata rewrite of a 4 MB photo costs
/// about a millisecond.
struct JPEGLayout {
    /// One piece of the file, in order.
    enum Piece: Equatable {
        /// A marker with a length (`FF xx LL LL ...`): APPn, COM, DQT, DHT, SOFn, SOS...
        case segment(marker: UInt8, range: Range<Int>)
        /// A marker with no length (RSTn, TEM).
        case standalone(marker: UInt8, range: Range<Int>)
        /// Entropy-coded data after a SOS segment.
        case entropy(Range<Int>)
        /// The EOI marker.
        case end(Range<Int>)
    }

    let pieces: [Piece]
    /// Bytes after EOI (multi-picture JPEGs' other images, vendors' trailers).
    let trailing: Range<Int>

    /// The scans' cost, as the decoder's budget counts it (see pd_jpeg.h).
    var scanCount = 0

    init(_ jpeg: [UInt8]) throws(ImageCodecError) {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .corrupt(format: .jpeg, message: "missing SOI marker") }
        var pieces: [Piece] = []
        var offset = 2
        var scans = 0
        var ended: Int?
        let result: Result<Void, ImageCodecError> = jpeg.withUnsafeBufferPointer { buffer in
            while offset < buffer.count {
                guard buffer[offset] == 0xFF else {
                    return .failure(.corrupt(format: .jpeg, message: "expected a marker at byte \(offset)"))
                }
                // Fill bytes before a marker.
                var markerAt = offset
                while markerAt + 1 < buffer.count, buffer[markerAt + 1] == 0xFF { markerAt += 1 }
                guard markerAt + 1 < buffer.count else { return .failure(.truncated(format: .jpeg, detail: "the data ends inside a marker")) }
                let marker = buffer[markerAt + 1]
                switch marker {
                case 0xD9:
                    pieces.append(.end(offset..<markerAt + 2))
                    ended = markerAt + 2
                    return .success(())
                case 0xD0...0xD7, 0x01:
                    pieces.append(.standalone(marker: marker, range: offset..<markerAt + 2))
                    offset = markerAt + 2
                    continue
                case 0x00, 0xD8:
                    return .failure(.corrupt(format: .jpeg, message: "marker 0x\(String(marker, radix: 16)) where a segment should start"))
                default:
                    break
                }
                guard markerAt + 4 <= buffer.count else { return .failure(.truncated(format: .jpeg, detail: "the data ends inside a marker segment")) }
                let length = Int(buffer[markerAt + 2]) << 8 | Int(buffer[markerAt + 3])
                guard length >= 2, markerAt + 2 + length <= buffer.count else {
                    return .failure(.truncated(format: .jpeg, detail: "marker 0x\(String(marker, radix: 16)) runs past the end of the data"))
                }
                let end = markerAt + 2 + length
                pieces.append(.segment(marker: marker, range: offset..<end))
                offset = end
                guard marker == 0xDA else { continue }
                scans += 1
                // Entropy-coded data: up to the next 0xFF that is neither stuffing (FF 00) nor a restart.
                var cursor = offset
                while true {
                    guard let found = SystemSupport.firstIndex(of: 0xFF, in: buffer, from: cursor), found + 1 < buffer.count else {
                        // A file cut short in its last scan (some cameras write no EOI): kept as it is.
                        pieces.append(.entropy(offset..<buffer.count))
                        return .success(())
                    }
                    let next = buffer[found + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                        cursor = found + (next == 0xFF ? 1 : 2)
                        continue
                    }
                    if found > offset { pieces.append(.entropy(offset..<found)) }
                    offset = found
                    break
                }
            }
            return .failure(.truncated(format: .jpeg, detail: "the data ends before EOI"))
        }
        try result.get()
        self.pieces = pieces
        let end = ended ?? jpeg.count
        trailing = end..<jpeg.count
        scanCount = scans
    }
}

extension JPEGLayout {
    /// Refuses a file whose scans would cost more than the decoder allows
    /// (the budget of pd_jpeg.h: 500 scans, 100 visits of each block, 20
    /// decodes of each coefficient), counted from the frame and scan
    /// headers without decoding anything: for paths that hand the file to
    /// TurboJPEG whole (a lossless transform), where libjpeg's progress
    /// monitor cannot be installed.
    func checkScanBudget(_ jpeg: [UInt8]) throws(ImageCodecError) {
        var blocksByComponent: [UInt8: Int] = [:]
        var progressive = false
        var blockVisits = 0
        var coefficientVisits = 0
        var scans = 0
        for piece in pieces {
            guard case .segment(let marker, let range) = piece else { continue }
            let payload = jpeg[(range.lowerBound + 4)..<range.upperBound]
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard blocksByComponent.isEmpty, payload.count >= 6 else { continue }
                let base = payload.startIndex
                let height = Int(payload[base + 1]) << 8 | Int(payload[base + 2])
                let width = Int(payload[base + 3]) << 8 | Int(payload[base + 4])
                let count = Int(payload[base + 5])
                guard payload.count >= 6 + 3 * count else { continue }
                let factors = (0..<count).map { index -> (id: UInt8, h: Int, v: Int) in
                    let at = base + 6 + 3 * index
                    return (payload[at], max(1, Int(payload[at + 1] >> 4)), max(1, Int(payload[at + 1] & 0x0F)))
                }
                let maxH = factors.map(\.h).max() ?? 1
                let maxV = factors.map(\.v).max() ?? 1
                for factor in factors {
                    let columns = ((width * factor.h + maxH - 1) / maxH + 7) / 8
                    let rows = ((height * factor.v + maxV - 1) / maxV + 7) / 8
                    blocksByComponent[factor.id] = columns * rows
                }
                progressive = marker == 0xC2 || marker == 0xCA
            case 0xDA:
                scans += 1
                guard scans <= 500 else { throw .corrupt(format: .jpeg, message: "the JPEG has more than 500 scans") }
                guard let count = payload.first.map(Int.init), payload.count >= 1 + 2 * count + 3 else { continue }
                let base = payload.startIndex
                let blocks = (0..<count).reduce(0) { $0 + (blocksByComponent[payload[base + 1 + 2 * $1]] ?? 0) }
                let spectralStart = Int(payload[base + 1 + 2 * count])
                let spectralEnd = Int(payload[base + 2 + 2 * count])
                let band = progressive ? max(1, spectralEnd - spectralStart + 1) : 64
                blockVisits += blocks
                coefficientVisits += blocks * band
            default:
                break
            }
        }
        let total = blocksByComponent.values.reduce(0, +)
        if blockVisits > total * 100 { throw .corrupt(format: .jpeg, message: "the JPEG's scans visit each block more than 100 times") }
        if coefficientVisits > total * 64 * 20 {
            throw .corrupt(format: .jpeg, message: "the JPEG's scans decode each coefficient more than 20 times")
        }
    }
}
