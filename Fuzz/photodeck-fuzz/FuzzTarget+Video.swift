// The video target: a container read from a file, its header probed and
// a poster frame decoded small, under tight limits.

import Foundation
import VideoCodecs

extension FuzzTarget {
    func runVideoTarget(_ bytes: [UInt8]) {
        let path = Self.scratchFile
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        let limits = VideoLimits(
            maxPixelCount: 4_000_000, maxDimension: 4_096, maxDurationSeconds: 3_600, maxStreams: 8, maxProbeBytes: 1 << 20,
            maxFrameReadBytes: 4 << 20, maxFramesDecoded: 64)
        _ = try? VideoInfo(probingFileAt: path, limits: limits)
        _ = try? VideoPosterFrame(ofFileAt: path, fitting: PixelSize(width: 32, height: 32), limits: limits)
        _ = try? VideoPosterFrame(ofFileAt: path, at: .seconds(1), fitting: PixelSize(width: 16, height: 16), limits: limits)
        // The same bytes as a range after a prefix, as a Motion Photo's video sits after its JPEG.
        let prefixed = [UInt8](repeating: 0xFF, count: 17) + bytes
        guard FileManager.default.createFile(atPath: path, contents: Data(prefixed)) else { return }
        _ = try? VideoInfo(probingFileAt: path, range: 17..<prefixed.count, limits: limits)
    }
}
