import Foundation

/// A picture in linear light for an HDR display: three floats a pixel (red,
/// green, blue, row by row), 1.0 the SDR white, brighter values up to the
/// headroom it was rendered for.
public struct HDRBitmap: Hashable, Sendable {
    /// Its size in pixels.
    public let size: PixelSize
    /// Linear RGB, three floats a pixel, row by row; never negative.
    public let pixels: [Float]

    /// Creates an HDR bitmap of `size` from `pixels` (three a pixel).
    public init(size: PixelSize, pixels: [Float]) {
        precondition(pixels.count == size.width * size.height * 3, "\(pixels.count) floats for \(size)")
        self.size = size
        self.pixels = pixels
    }
}

extension GainMapImage {
    /// `base` (the photo's SDR pixels as decoded, sRGB-encoded, at any size:
    /// the map is sampled over it bilinearly, pixel centres aligned) made
    /// brighter where the map says, for a display whose peak is `headroom`
    /// times the SDR white (1 for an SDR display), by ISO 21496-1:
    ///
    ///     G′ = G^(1/γ);  boost = min + (max − min)·G′ stops;
    ///     hdr = (sdr + k_base) · 2^(boost·W) − k_alternate
    ///
    /// with `sdr` the base through the sRGB transfer function and `W` the
    /// weight for the display's headroom
    /// (``ImageCore/GainMapParameters/weight(forHeadroom:)``). At a weight of 0
    /// (an SDR display, for a base made for SDR) the result is exactly the
    /// base in linear light.
    ///
    /// ```swift
    /// let page = try DecodedImage(rendering: bytes, in: box)
    /// let hdr = try map.shaped(as: page, photoSize: photoSize).hdr(base: page.bitmap, headroom: 4)   // a display two stops above SDR white
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` for a
    ///   headroom that is not a finite number of at least 1.
    public func hdr(base: Bitmap, headroom: Double) throws(ImageCodecError) -> HDRBitmap {
        guard headroom.isFinite, headroom >= 1, headroom <= 1e9 else { throw .invalidArgument("a display headroom of \(headroom) (1 is SDR)") }
        let parameters = gainMap.parameters
        let weight = parameters.weight(forHeadroom: log2(headroom))
        let rgb = base.pixelFormat == .rgb8 ? base : base.converted(to: .rgb8)
        let linear = Self.sRGBToLinear
        let size = rgb.size
        var output = [Float](repeating: 0, count: size.width * size.height * 3)
        if weight == 0 {
            // The base as it is, in linear light.
            rgb.withUnsafeBytes { pixels in
                for row in 0..<size.height {
                    for index in 0..<size.width * 3 { output[row * size.width * 3 + index] = linear[Int(pixels[row * rgb.bytesPerRow + index])] }
                }
            }
            return HDRBitmap(size: size, pixels: output)
        }
        let mapChannels = bitmap.pixelFormat == .gray8 ? 1 : 3
        let map = bitmap.pixelFormat == .gray8 || bitmap.pixelFormat == .rgb8 ? bitmap : bitmap.converted(to: .rgb8)
        let columns = Self.samples(count: size.width, over: map.width)
        let rows = Self.samples(count: size.height, over: map.height)
        let channels = (0..<3).map { parameters.channel($0) }
        let scale = Float(weight)
        rgb.withUnsafeBytes { pixels in
            map.withUnsafeBytes { levels in
                for row in 0..<size.height {
                    let (top, bottom, down) = rows[row]
                    for column in 0..<size.width {
                        let (left, right, across) = columns[column]
                        for channel in 0..<3 {
                            let plane = mapChannels == 1 ? 0 : channel
                            func level(_ y: Int, _ x: Int) -> Float { Float(levels[y * map.bytesPerRow + x * mapChannels + plane]) / 255 }
                            let upper = level(top, left) + (level(top, right) - level(top, left)) * across
                            let lower = level(bottom, left) + (level(bottom, right) - level(bottom, left)) * across
                            let value = upper + (lower - upper) * down
                            let parameters = channels[channel]
                            let shaped = parameters.gamma == 1 ? value : pow(value, Float(1 / parameters.gamma))
                            let stops = Float(parameters.minimumBoost) + Float(parameters.maximumBoost - parameters.minimumBoost) * shaped
                            let sdr = linear[Int(pixels[row * rgb.bytesPerRow + column * 3 + channel])]
                            let hdr = (sdr + Float(parameters.baseOffset)) * exp2(stops * scale) - Float(parameters.alternateOffset)
                            output[(row * size.width + column) * 3 + channel] = max(hdr, 0)
                        }
                    }
                }
            }
        }
        return HDRBitmap(size: size, pixels: output)
    }

    /// For each of `count` output positions, the two map positions around
    /// its centre and how far between them (pixel centres aligned, edges clamped).
    private static func samples(count: Int, over mapCount: Int) -> [(Int, Int, Float)] {
        (0..<count).map { index in
            let position = min(max((Double(index) + 0.5) * Double(mapCount) / Double(count) - 0.5, 0), Double(mapCount - 1))
            let low = Int(position.rounded(.down))
            return (low, min(low + 1, mapCount - 1), Float(position - Double(low)))
        }
    }

    /// The sRGB transfer function, inverted, for each 8-bit level.
    static let sRGBToLinear: [Float] = (0...255).map { level in
        let encoded = Double(level) / 255
        return Float(encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4))
    }
}
