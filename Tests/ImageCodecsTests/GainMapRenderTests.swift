import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Rendering a photo with its gain map for an HDR display, against a
/// reference computed independently with numpy (float64, written here from
/// ISO 21496-1's equations, not from the Swift code).
@Suite("Gain maps rendered for a display's headroom")
struct GainMapRenderTests {
    /// What the numpy reference computes: the base through sRGB's transfer
    /// function, the map sampled bilinearly with pixel centres aligned,
    /// ISO 21496-1's boost and weight (and the base as it is at weight 0).
    static let reference = """
        import json, sys
        import numpy as np
        p = json.load(open(sys.argv[1]))
        w, h, mw, mh, mc = p['width'], p['height'], p['mapWidth'], p['mapHeight'], p['mapChannels']
        base = np.fromfile(sys.argv[2], dtype=np.uint8).reshape(h, w, 3).astype(np.float64) / 255
        sdr = np.where(base <= 0.04045, base / 12.92, ((base + 0.055) / 1.055) ** 2.4)
        g = np.fromfile(sys.argv[3], dtype=np.uint8).reshape(mh, mw, mc).astype(np.float64) / 255
        def axis(n, m):
            pos = np.clip((np.arange(n) + 0.5) * m / n - 0.5, 0, m - 1)
            lo = np.floor(pos).astype(int)
            return lo, np.minimum(lo + 1, m - 1), pos - lo
        y0, y1, fy = axis(h, mh)
        x0, x1, fx = axis(w, mw)
        fx = fx[None, :, None]; fy = fy[:, None, None]
        top = g[y0][:, x0] + (g[y0][:, x1] - g[y0][:, x0]) * fx
        bottom = g[y1][:, x0] + (g[y1][:, x1] - g[y1][:, x0]) * fx
        gv = top + (bottom - top) * fy
        if mc == 1: gv = np.repeat(gv, 3, axis=2)
        ch = p['channels']
        if len(ch) == 1: ch = ch * 3
        lo_b, hi_b = p['baseHeadroom'], p['alternateHeadroom']
        weight = float(np.clip((np.log2(p['headroom']) - lo_b) / (hi_b - lo_b), 0, 1))
        out = np.empty_like(sdr)
        for c in range(3):
            k = ch[c]
            shaped = gv[:, :, c] ** (1 / k['gamma'])
            stops = k['min'] + (k['max'] - k['min']) * shaped
            out[:, :, c] = (sdr[:, :, c] + k['baseOffset']) * np.exp2(stops * weight) - k['alternateOffset']
        if weight == 0: out = sdr  # ISO 21496-1: at a weight of 0 the base is shown as it is
        np.maximum(out, 0).astype(np.float64).tofile(sys.argv[4])
        """

    static func pattern(width: Int, height: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<(width * height * channels)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// The largest difference between PhotoDeck's render and numpy's.
    static func worstDifference(_ map: GainMapImage, base: Bitmap, headroom: Double) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let parameters = map.gainMap.parameters
        let json: [String: Any] = [
            "width": base.width, "height": base.height, "mapWidth": map.bitmap.width, "mapHeight": map.bitmap.height,
            "mapChannels": map.bitmap.pixelFormat == .gray8 ? 1 : 3, "headroom": headroom, "baseHeadroom": parameters.baseHeadroom,
            "alternateHeadroom": parameters.alternateHeadroom,
            "channels": parameters.channels.map {
                ["min": $0.minimumBoost, "max": $0.maximumBoost, "gamma": $0.gamma, "baseOffset": $0.baseOffset, "alternateOffset": $0.alternateOffset]
            },
        ]
        let paths = ["p.json", "base.raw", "map.raw", "out.raw", "ref.py"].map { folder.appendingPathComponent($0).path }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: paths[0]))
        try Data(base.pixels).write(to: URL(fileURLWithPath: paths[1]))
        try Data(map.bitmap.pixels).write(to: URL(fileURLWithPath: paths[2]))
        try Data(reference.utf8).write(to: URL(fileURLWithPath: paths[4]))
        let run = try ChildProcess.run("sh", ["-c", "/usr/bin/python3 '\(paths[4])' '\(paths[0])' '\(paths[1])' '\(paths[2])' '\(paths[3])' 2>&1"])
        #expect(run.status == 0, "numpy: \(run.output)")
        // numpy's doubles, read within the size they must have.
        let raw = try fileBytes(URL(fileURLWithPath: paths[3]), limit: base.width * base.height * 3 * 8)
        let expected = raw.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        let rendered = try map.hdr(base: base, headroom: headroom)
        #expect(expected.count == rendered.pixels.count)
        return zip(rendered.pixels, expected).map { abs(Double($0) - $1) }.max() ?? .infinity
    }

    @Test(
        "one-channel and three-channel maps (gamma, offsets, a negative minimum, half size) at three headrooms: within 1/1023 of numpy",
        arguments: [1.0, 2.0.squareRoot() * 2, 16])
    func againstNumpy(_ headroom: Double) throws {
        let base = try Bitmap(width: 64, height: 48, pixelFormat: .rgb8, pixels: Self.pattern(width: 64, height: 48, channels: 3, seed: 1))
        let grey = GainMapImage(
            gainMap: GainMap(flavour: .iso21496JPEG, parameters: try GainMapParameters(channels: [.init(maximumBoost: 3)], alternateHeadroom: 3)),
            bitmap: try Bitmap(width: 32, height: 24, pixelFormat: .gray8, pixels: Self.pattern(width: 32, height: 24, channels: 1, seed: 2)))
        let colour = GainMapImage(
            gainMap: GainMap(
                flavour: .iso21496JPEG,
                parameters: try GainMapParameters(
                    channels: [
                        .init(minimumBoost: -0.5, maximumBoost: 2.5, gamma: 2.2, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 128),
                        .init(minimumBoost: 0, maximumBoost: 3, gamma: 1, baseOffset: 0, alternateOffset: 0),
                        .init(minimumBoost: 0.25, maximumBoost: 1.5, gamma: 0.5, baseOffset: 1.0 / 32, alternateOffset: 1.0 / 64),
                    ], baseHeadroom: 0.5, alternateHeadroom: 3)),
            bitmap: try Bitmap(width: 21, height: 17, pixelFormat: .rgb8, pixels: Self.pattern(width: 21, height: 17, channels: 3, seed: 3)))
        for map in [grey, colour] {
            let worst = try Self.worstDifference(map, base: base, headroom: headroom)
            #expect(worst <= 1.0 / 1023, "\(map.bitmap.size) at headroom \(headroom): \(worst)")
        }
    }

    @Test("an SDR display (headroom 1) gets exactly the SDR decode in linear light; a bad headroom is refused")
    func sdrIsTheBase() throws {
        let base = try Bitmap(width: 16, height: 8, pixelFormat: .rgb8, pixels: Self.pattern(width: 16, height: 8, channels: 3, seed: 4))
        let map = GainMapImage(
            gainMap: GainMap(flavour: .ultraHDR, parameters: try GainMapParameters(channels: [.init(maximumBoost: 2)], alternateHeadroom: 2)),
            bitmap: try Bitmap(width: 8, height: 4, pixelFormat: .gray8, pixels: [UInt8](repeating: 255, count: 32)))
        let sdr = try map.hdr(base: base, headroom: 1)
        #expect(sdr.pixels == base.pixels.map { GainMapImage.sRGBToLinear[Int($0)] })
        // A full map at the alternate's headroom: four times as bright, to the float.
        let bright = try map.hdr(base: base, headroom: 4)
        #expect(zip(bright.pixels, sdr.pixels).allSatisfy { abs(($1 + 1.0 / 64) * 4 - 1.0 / 64 - $0) < 1e-5 })
        for bad in [0.5, .nan, .infinity, -1] {
            #expect(throws: ImageCodecError.self) { try map.hdr(base: base, headroom: bad) }
        }
    }
}
