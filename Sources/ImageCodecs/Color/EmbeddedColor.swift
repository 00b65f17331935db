import CZlib

/// The colour description an image file carries, as found in its header:
/// an ICC profile, or the parameters to build one, and what went wrong
/// reading it (a broken profile is a warning, never a failed decode).
package struct EmbeddedColor {
    /// The profile of the stored pixels; `nil` means sRGB.
    package var profile: ColorProfile?
    /// Why a profile that was there is not used.
    package var warnings: [String] = []

    /// From ICC bytes found in the file.
    init(icc bytes: [UInt8], source: String) {
        if let profile = ColorProfile(iccData: bytes) {
            self.profile = profile
        } else {
            warnings = ["the \(source) colour profile (\(bytes.count) bytes) cannot be read; the pixels are taken as sRGB"]
        }
    }

    /// A profile already built (or none: sRGB).
    init(profile: ColorProfile? = nil, warnings: [String] = []) {
        self.profile = profile
        self.warnings = warnings
    }

    /// Pixels tagged as sRGB, or untagged.
    static let sRGB = EmbeddedColor()
}

/// JPEG `APP2` `ICC_PROFILE` segments: `"ICC_PROFILE\0"`, a sequence number
/// (from 1), the count, then up to 65,519 bytes of the profile.
package struct JPEGICCChunks {
    package static let marker: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    private(set) var chunks: [(sequence: Int, count: Int, bytes: [UInt8])] = []

    /// Adds the payload of an `APP2` segment; returns `false` when it is not an ICC chunk.
    /// No chunks yet.
    package init() {}

    @discardableResult
    package mutating func add(segment payload: [UInt8]) -> Bool {
        guard payload.count > 14, payload.starts(with: Self.marker) else { return false }
        chunks.append((Int(payload[12]), Int(payload[13]), Array(payload[14...])))
        return true
    }

    /// The profile the chunks make, in sequence order; a warning when they
    /// are inconsistent (a missing, repeated or out-of-range chunk).
    package var color: EmbeddedColor? {
        guard !chunks.isEmpty else { return nil }
        let count = chunks[0].count
        let sequences = chunks.map(\.sequence).sorted()
        guard count >= 1, chunks.allSatisfy({ $0.count == count }), sequences == Array(1...count) else {
            return EmbeddedColor(warnings: [
                "the JPEG's ICC profile chunks are inconsistent (sequence \(sequences.map(String.init).joined(separator: ",")) of \(count)); the pixels are taken as sRGB"
            ])
        }
        let bytes = chunks.sorted { $0.sequence < $1.sequence }.flatMap(\.bytes)
        return EmbeddedColor(icc: bytes, source: "JPEG")
    }
}

/// PNG's colour chunks: `iCCP` wins, then `sRGB`, then `cICP`, then
/// `cHRM` + `gAMA` (the order libpng and browsers use).
package struct PNGColorChunks {
    var iccp: [UInt8]?
    var hasSRGB = false
    var cicp: (primaries: Int, transfer: Int)?
    var gamma: Double?
    var chromaticities: ColorProfile.Chromaticities?

    /// No chunks yet.
    package init() {}

    /// Reads one chunk's body if it is a colour chunk.
    package mutating func add(type: String, body: [UInt8]) {
        switch type {
        case "iCCP" where iccp == nil: iccp = body
        case "sRGB": hasSRGB = true
        case "cICP" where body.count == 4: cicp = (Int(body[0]), Int(body[1]))
        case "gAMA" where body.count == 4:
            let value = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
            if value > 0 { gamma = Double(value) / 100_000 }
        case "cHRM" where body.count == 32:
            let values = (0..<8).map { index -> Double in
                let at = index * 4
                return Double(Int(body[at]) << 24 | Int(body[at + 1]) << 16 | Int(body[at + 2]) << 8 | Int(body[at + 3])) / 100_000
            }
            chromaticities = .init(white: (values[0], values[1]), red: (values[2], values[3]), green: (values[4], values[5]), blue: (values[6], values[7]))
        default: break
        }
    }

    /// The colour of a PNG whose pixels are grey (`isGray`) or RGB.
    package func color(isGray: Bool) -> EmbeddedColor {
        if let iccp {
            // keyword (1-79 bytes), NUL, compression method 0, zlib stream.
            guard let nul = iccp.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < iccp.count, iccp[nul + 1] == 0 else {
                return EmbeddedColor(warnings: ["the PNG iCCP chunk is malformed; the pixels are taken as sRGB"])
            }
            guard let profile = Inflate.bytes(Array(iccp[(nul + 2)...]), limit: ColorProfile.maxByteCount) else {
                return EmbeddedColor(warnings: ["the PNG iCCP profile does not decompress; the pixels are taken as sRGB"])
            }
            return EmbeddedColor(icc: profile, source: "PNG iCCP")
        }
        if hasSRGB { return .sRGB }
        if let cicp {
            let built = ColorProfile.fromCodePoints(primaries: cicp.primaries, transfer: cicp.transfer)
            return EmbeddedColor(profile: isGray ? nil : built.profile, warnings: built.warning.map { [$0] } ?? [])
        }
        guard let gamma, abs(gamma - 1 / 2.2) > 0.01 || (chromaticities != nil && chromaticities != .bt709) else { return .sRGB }
        // gAMA is the encoding exponent; the tone curve decodes with its inverse.
        if isGray { return EmbeddedColor(profile: ColorProfile.gray(transfer: .gamma(1 / gamma), name: "PNG gAMA \(gamma)")) }
        return EmbeddedColor(profile: ColorProfile.rgb(chromaticities ?? .bt709, transfer: .gamma(1 / gamma), name: "PNG gAMA \(gamma) cHRM"))
    }
}

/// zlib inflation with a cap on the output (a bomb stops at the cap).
enum Inflate {
    static func bytes(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var status: Int32 = Z_OK
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: buffer.prefix(buffer.count - Int(stream.avail_out)))
                }
                if output.count > limit { status = Z_MEM_ERROR }
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 { status = Z_BUF_ERROR }
            }
        }
        return status == Z_STREAM_END ? output : nil
    }

    /// `input` compressed as a zlib stream.
    static func deflated(_ input: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { compress2(out.baseAddress, &size, $0.baseAddress, uLong($0.count), 9) }
        }
        precondition(status == Z_OK, "zlib compress2 failed with a correctly sized buffer")
        return Array(output.prefix(Int(size)))
    }

    /// The CRC-32 of `bytes` (PNG chunks).
    static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        Array(bytes).withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
