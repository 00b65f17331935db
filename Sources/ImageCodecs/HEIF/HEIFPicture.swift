import CHeif

/// A picture libheif decoded, in libheif's buffer, read out row by row as
/// 8-bit RGB(A): whole (``bitmap()``) or streamed into a rendition
/// (``HEIFRowSource``), so a 12 MP HEIC is not copied whole before it is
/// resampled. HDR pictures (PQ, HLG) are tone-mapped to sRGB as they are read.
final class HEIFPicture {
    private let image: OpaquePointer
    private let plane: UnsafePointer<UInt8>
    private let stride: Int
    /// 10- and 12-bit samples: two little-endian bytes each.
    private let deep: Bool
    /// The largest sample value of a deep picture.
    private let maximum: UInt32
    /// How HDR samples become sRGB; `nil` for SDR pictures.
    let toneMap: HDRToneMap?
    let size: PixelSize
    let pixelFormat: PixelFormat

    /// Takes ownership of `image`; `nil` (releasing it) when it has no
    /// interleaved plane. `hdr` are the picture's HDR code points, if any.
    init?(_ image: OpaquePointer, alpha: Bool, deep: Bool, hdr: (primaries: Int, transfer: Int)? = nil) {
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            heif_image_release(image)
            return nil
        }
        self.image = image
        self.plane = plane
        self.stride = Int(stride)
        self.deep = deep
        let bits = deep ? Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved)) : 8
        maximum = UInt32((1 << min(max(bits, 8), 16)) - 1)
        if let hdr {
            var level = heif_content_light_level()
            if heif_image_has_content_light_level(image) != 0 { heif_image_get_content_light_level(image, &level) }
            let stated = level.max_content_light_level > 0 ? Double(level.max_content_light_level) : nil
            toneMap = HDRToneMap(transfer: hdr.transfer, primaries: hdr.primaries, bits: min(max(bits, 8), 16), peak: stated)
        } else {
            toneMap = nil
        }
        size = PixelSize(width: width, height: height)
        pixelFormat = alpha ? .rgba8 : .rgb8
    }

    deinit { heif_image_release(image) }

    /// Bytes in one output row.
    var rowBytes: Int { size.width * pixelFormat.bytesPerPixel }

    /// Writes row `row` as 8-bit samples to `destination` (``rowBytes`` bytes);
    /// deep samples are rounded to the nearest 8-bit level.
    func copyRow(_ row: Int, into destination: UnsafeMutablePointer<UInt8>) {
        let source = plane + row * stride
        if let toneMap {
            copyToneMappedRow(source, into: destination, toneMap)
            return
        }
        guard deep else {
            destination.update(from: source, count: rowBytes)
            return
        }
        for index in 0..<rowBytes {
            let value = UInt32(source[index * 2]) | UInt32(source[index * 2 + 1]) << 8
            destination[index] = UInt8((min(value, maximum) * 255 + maximum / 2) / maximum)
        }
    }

    /// Row `source` through `toneMap` (alpha is only rounded to 8 bits).
    private func copyToneMappedRow(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, _ toneMap: HDRToneMap) {
        let channels = pixelFormat.bytesPerPixel
        @inline(__always) func sample(_ index: Int) -> Int {
            deep ? Int(source[index * 2]) | Int(source[index * 2 + 1]) << 8 : Int(source[index])
        }
        toneMap.map(size.width, channels: channels, into: destination, sample: sample)
        guard channels == 4 else { return }
        for x in 0..<size.width {
            let alpha = UInt32(min(sample(x * 4 + 3), Int(maximum)))
            destination[x * 4 + 3] = UInt8((alpha * 255 + maximum / 2) / maximum)
        }
    }

    /// For an HDR picture, a gain map that restores it over its tone-mapped
    /// SDR rendition: log2 gains (``HDRToneMap/logGains(_:channels:into:sample:)``)
    /// averaged over `factor` x `factor` blocks (partial blocks at the
    /// edges included), in ISO 21496-1 terms: one channel, boosts from the
    /// smallest to the largest gain, gamma 1, offsets 1/64, the SDR base's
    /// headroom 0 and the content's as the alternate. `nil` for SDR pictures.
    func gainMap(blocks factor: Int) -> (parameters: GainMapParameters, map: Bitmap)? {
        guard let toneMap, factor >= 1 else { return nil }
        let output = PixelSize(width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
        var sums = [Float](repeating: 0, count: output.width * output.height)
        var counts = [Float](repeating: 0, count: output.width * output.height)
        var gains = [Float](repeating: 0, count: size.width)
        let channels = pixelFormat.bytesPerPixel
        gains.withUnsafeMutableBufferPointer { gains in
            for row in 0..<size.height {
                let source = plane + row * stride
                toneMap.logGains(size.width, channels: channels, into: gains.baseAddress!) { index in
                    deep ? Int(source[index * 2]) | Int(source[index * 2 + 1]) << 8 : Int(source[index])
                }
                let base = (row / factor) * output.width
                for x in 0..<size.width {
                    sums[base + x / factor] += gains[x]
                    counts[base + x / factor] += 1
                }
            }
        }
        let averages = zip(sums, counts).map { $0 / max($1, 1) }
        let low = Double(averages.min() ?? 0)
        let high = max(Double(averages.max() ?? 0), low + 1.0 / 64)
        guard
            let parameters = try? GainMapParameters(
                channels: [.init(minimumBoost: low, maximumBoost: high, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], baseHeadroom: 0,
                alternateHeadroom: max(toneMap.headroomStops, 1.0 / 64))
        else { return nil }
        let span = Float(high - low)
        let levels = averages.map { UInt8(min(max(((Double($0) - low) / Double(span) * 255).rounded(), 0), 255)) }
        return (parameters, Bitmap(uncheckedWidth: output.width, height: output.height, bytesPerRow: output.width, pixelFormat: .gray8, pixels: levels))
    }

    /// The whole picture, or every `factor` x `factor` block averaged into one
    /// pixel (the shrink-on-load step for HEIF, which has no scaled decode).
    func bitmap(shrinkingBy factor: Int = 1) -> Bitmap {
        let output = outputSize(shrinkingBy: factor)
        let rowBytes = output.width * pixelFormat.bytesPerPixel
        var pixels = [UInt8](decoderOutputCount: rowBytes * output.height)
        var scratch = [UInt8](repeating: 0, count: self.rowBytes * factor)
        pixels.withUnsafeMutableBufferPointer { pixels in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for row in 0..<output.height { shrunkRow(row, factor: factor, into: pixels.baseAddress! + row * rowBytes, scratch: scratch.baseAddress!) }
            }
        }
        return Bitmap(uncheckedWidth: output.width, height: output.height, bytesPerRow: rowBytes, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// The size after shrinking by `factor` (partial blocks at the edges are dropped).
    func outputSize(shrinkingBy factor: Int) -> PixelSize {
        PixelSize(width: max(size.width / factor, 1), height: max(size.height / factor, 1))
    }

    /// The largest block size (at most 8) that keeps at least `required`
    /// pixels; 1 for pictures with alpha, whose straight-alpha average would fringe.
    func shrinkFactor(keeping required: PixelSize) -> Int {
        guard pixelFormat == .rgb8, required.width > 0, required.height > 0 else { return 1 }
        return max(1, min(8, size.width / required.width, size.height / required.height))
    }

    /// Output row `row` of a shrink by `factor`: `factor` source rows
    /// averaged in blocks. `scratch` holds `factor` source rows.
    func shrunkRow(_ row: Int, factor: Int, into destination: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>) {
        guard factor > 1 else {
            copyRow(row, into: destination)
            return
        }
        let sourceRowBytes = rowBytes
        for line in 0..<factor { copyRow(row * factor + line, into: scratch + line * sourceRowBytes) }
        let channels = pixelFormat.bytesPerPixel
        let width = size.width / factor
        let area = UInt32(factor * factor)
        for x in 0..<width {
            for channel in 0..<channels {
                var sum: UInt32 = 0
                for line in 0..<factor {
                    let start = scratch + line * sourceRowBytes + x * factor * channels + channel
                    for column in 0..<factor { sum += UInt32(start[column * channels]) }
                }
                destination[x * channels + channel] = UInt8((sum + area / 2) / area)
            }
        }
    }
}

/// Hands a decoded HEIF picture to the streaming resampler a batch of rows at a time.
final class HEIFRowSource: RowSource {
    /// Kept alive: the picture's context reads from it.
    private let file: HEIFFile
    private let picture: HEIFPicture
    private let factor: Int
    private var scratch: [UInt8]
    private var nextRow = 0

    /// Rows of `picture`, shrunk by `factor` x `factor` blocks.
    init(file: HEIFFile, picture: HEIFPicture, factor: Int) {
        self.file = file
        self.picture = picture
        self.factor = factor
        scratch = [UInt8](repeating: 0, count: picture.rowBytes * factor)
        size = picture.outputSize(shrinkingBy: factor)
    }

    let size: PixelSize
    var pixelFormat: PixelFormat { picture.pixelFormat }

    func read(into rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(ImageCodecError) {
        for index in 0..<count {
            guard nextRow < size.height, let row = rows[index] else {
                throw .corrupt(format: file.format, message: "a rendition asked for row \(nextRow) of \(size.height)")
            }
            scratch.withUnsafeMutableBufferPointer { picture.shrunkRow(nextRow, factor: factor, into: row, scratch: $0.baseAddress!) }
            nextRow += 1
        }
    }

    func finish() throws(ImageCodecError) -> [String] { [] }
}
