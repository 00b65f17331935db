import Foundation

/// Videos as AVCHD camcorders (Sony, Panasonic) write them: the position,
/// the time and the camera inside the H.264 stream itself, an SEI
/// `user_data_unregistered` message with UUID
/// 17ee8c60-f84d-11d9-8cd6-0800200c9a66 and "MDPM" (ExifTool's H264.pm
/// reads it with `-ee`), before each key frame. Made from ffmpeg's test
/// pattern: the raw stream is written by x264 (or x265), the SEI units put
/// in, and ffmpeg muxes the result without touching it.
public enum CamcorderVideos {
    /// The UUID that opens AVCHD's camcorder metadata.
    public static let mdpmUUID: [UInt8] = [0x17, 0xee, 0x8c, 0x60, 0xf8, 0x4d, 0x11, 0xd9, 0x8c, 0xd6, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66]

    /// The position written: 48°51'30"N 2°17'40"E (48.858333, 2.294444).
    public static let latitude = 48.0 + 51.0 / 60 + 30.0 / 3600
    public static let longitude = 2.0 + 17.0 / 60 + 40.0 / 3600

    /// The codecs the SEI is written for.
    public enum Codec: Sendable {
        case h264, hevc
    }

    /// MDPM's payload: the UUID, "MDPM", the entry count, then 5-byte
    /// entries in rising tag order (GPS version, latitude ref and degrees,
    /// minutes, seconds as 16-bit rationals, longitude likewise, the maker).
    static func mdpmPayload() -> [UInt8] {
        func rational(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff), 0, 1] }
        let entries: [(UInt8, [UInt8])] = [
            (0xb0, [2, 2, 0, 0]), (0xb1, Array("N".utf8) + [0, 0, 0]), (0xb2, rational(48)), (0xb3, rational(51)), (0xb4, rational(30)),
            (0xb5, Array("E".utf8) + [0, 0, 0]), (0xb6, rational(2)), (0xb7, rational(17)), (0xb8, rational(40)),
            (0xe0, [0x01, 0x08, 0x00, 0x00]),
        ]
        return mdpmUUID + Array("MDPM".utf8) + [UInt8(entries.count)] + entries.flatMap { [$0.0] + $0.1 }
    }

    /// An SEI NAL unit (no start code) holding one user_data_unregistered
    /// message with `payload`, escaped; `payloadSize` overrides the size
    /// written (a hostile unit says more than it holds).
    public static func seiUnit(_ codec: Codec, payload: [UInt8], payloadSize: Int? = nil) -> [UInt8] {
        var rbsp: [UInt8] = [5]
        var size = payloadSize ?? payload.count
        while size >= 255 {
            rbsp.append(0xff)
            size -= 255
        }
        rbsp.append(UInt8(size))
        rbsp += payload + [0x80]
        let header: [UInt8] = codec == .h264 ? [0x06] : [39 << 1, 0x01]
        return header + escaped(rbsp)
    }

    /// The MDPM SEI unit of `codec`.
    public static func mdpmUnit(_ codec: Codec) -> [UInt8] { seiUnit(codec, payload: mdpmPayload()) }

    /// `rbsp` with an emulation prevention byte before any byte of 0 to 3 that follows two zeros.
    static func escaped(_ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 3 {
                out.append(3)
                zeros = 0
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// The Annex B stream with `unit` (after a four-byte start code) put
    /// before every key-frame slice (H.264 IDR; HEVC IDR and CRA).
    public static func inserting(_ unit: [UInt8], beforeKeyFramesOf stream: [UInt8], codec: Codec) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        var previousAccessUnitHadIt = false
        while index < stream.count {
            // A start code: 00 00 01, or 00 00 00 01.
            let long = index + 4 <= stream.count && stream[index..<(index + 4)].elementsEqual([0, 0, 0, 1])
            let short = index + 3 <= stream.count && stream[index..<(index + 3)].elementsEqual([0, 0, 1])
            if long || short {
                let headerAt = index + (long ? 4 : 3)
                if headerAt < stream.count {
                    let type = codec == .h264 ? Int(stream[headerAt] & 0x1f) : Int(stream[headerAt] >> 1) & 0x3f
                    let isKey = codec == .h264 ? type == 5 : (16...21).contains(type)
                    let isSlice = codec == .h264 ? (1...5).contains(type) : type < 32
                    if isKey && !previousAccessUnitHadIt { out += [0, 0, 0, 1] + unit }
                    previousAccessUnitHadIt = isKey
                    if isSlice && !isKey { previousAccessUnitHadIt = false }
                }
            }
            out.append(stream[index])
            index += 1
        }
        return out
    }

    /// `seconds` of the test pattern in `container` (`mpegts` or `mp4`),
    /// its key frames each preceded by `unit` (the MDPM one by default).
    public static func make(
        _ name: String, codec: Codec = .h264, container: String = "mpegts", seconds: Double = 2, unit: [UInt8]? = nil, sound: Bool = true
    ) throws -> String {
        let raw = try TestVideos.make(
            "\(name).raw.\(codec == .h264 ? "264" : "265")",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", String(seconds),
            ]
                // No B-frames: a raw stream carries no timestamps, and muxed again its frames get them in decoding
                // order, which is the order they are shown in only without B-frames.
                + (codec == .h264
                    ? ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "0", "-preset", "veryfast", "-f", "h264"]
                    : [
                        "-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error:keyint=30:bframes=0", "-preset", "ultrafast", "-f", "hevc",
                    ]))
        let stream = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        let marked = TestVideos.folder.appendingPathComponent("\(name).marked.\(codec == .h264 ? "264" : "265")")
        try Data(inserting(unit ?? mdpmUnit(codec), beforeKeyFramesOf: stream, codec: codec)).write(to: marked)
        let input = ["-f", codec == .h264 ? "h264" : "hevc", "-framerate", "30", "-i", marked.path]
        let audio = sound ? ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", String(seconds)] : []
        let codecs = ["-map", "0:v"] + (sound ? ["-map", "1:a", "-c:a", "aac"] : []) + ["-c:v", "copy"]
        // ffmpeg 5.1 gives a raw stream's packets no timestamps MPEG-TS takes: through MP4 first (the SEI units ride along).
        let mp4 = try TestVideos.make("\(name).intermediate.mp4", input + audio + codecs + ["-f", "mp4"])
        guard container != "mp4" else { return mp4 }
        return try TestVideos.make(name, ["-i", mp4, "-c", "copy", "-f", container])
    }

    /// Whether `bytes` hold the MDPM UUID anywhere (it has no two zeros in a row, so escaping never splits it).
    public static func holdsMDPM(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= mdpmUUID.count else { return false }
        let first = mdpmUUID[0]
        var index = 0
        while let found = bytes[index...].firstIndex(of: first) {
            if found + mdpmUUID.count <= bytes.count, bytes[found..<(found + mdpmUUID.count)].elementsEqual(mdpmUUID) { return true }
            index = found + 1
        }
        return false
    }
}
