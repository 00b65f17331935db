/// A bitmap box-averaged to about ``targetPixels`` pixels, in the
/// measures a crop strategy scores: what ``ImageCore/CropStrategy/attention`` and
/// ``ImageCore/CropStrategy/entropy`` look at instead of the whole image.
struct CropAnalysis {
    /// The analysis image's size.
    let width: Int
    let height: Int
    /// Source pixels per analysis pixel, across and down: equal, unless
    /// the bitmap is so thin that square blocks would leave more than
    /// ``maximumPixels`` of them.
    let scaleX: Int
    let scaleY: Int
    /// sRGB values in 0...1, alpha premultiplied (transparent is black,
    /// as libvips premultiplies before it looks), row-major.
    private(set) var red: [Float]
    private(set) var green: [Float]
    private(set) var blue: [Float]

    /// About this many analysis pixels: about 95x63 for a 3:2 photo.
    static let targetPixels = 6_000
    /// Never more than this many, whatever the bitmap's shape (a
    /// 1x100,000 strip is summarised in 1x6,000 blocks of 16 or 17).
    static let maximumPixels = 4 * targetPixels

    /// Averages `bitmap` over `scaleX`x`scaleY` blocks; the right and
    /// bottom remainders (less than one block) are left out.
    ///
    /// The sample positions stay inside the bitmap: the last sample of a
    /// block is at most `(samples - 1) * stride < scale` past its start, and
    /// blocks end at `width * scaleX <= bitmap.width` (rows likewise).
    init(_ bitmap: Bitmap) {
        let (fullWidth, fullHeight) = (max(1, bitmap.width), max(1, bitmap.height))
        let ideal = Int((Double(fullWidth) * Double(fullHeight) / Double(Self.targetPixels)).squareRoot())
        var scaleX = max(1, min(fullWidth, ideal))
        var scaleY = max(1, min(fullHeight, ideal))
        // A thin bitmap caps one side's block; the other side's grows instead.
        let across = fullHeight / scaleY
        if (fullWidth / scaleX) * across > Self.maximumPixels {
            scaleX = min(fullWidth, (fullWidth * across + Self.targetPixels - 1) / Self.targetPixels)
        }
        let down = fullWidth / scaleX
        if down * (fullHeight / scaleY) > Self.maximumPixels {
            scaleY = min(fullHeight, (fullHeight * down + Self.targetPixels - 1) / Self.targetPixels)
        }
        let width = max(1, fullWidth / scaleX)
        let height = max(1, fullHeight / scaleY)
        self.width = width
        self.height = height
        self.scaleX = scaleX
        self.scaleY = scaleY
        // A block is summarised by at most 8x8 of its pixels, evenly spread:
        // a 9.6 MP fill then costs about 390,000 reads, not 9.6 million.
        let strideX = max(1, scaleX / 8)
        let samplesX = (scaleX + strideX - 1) / strideX
        let strideY = max(1, scaleY / 8)
        let samplesY = (scaleY + strideY - 1) / strideY
        var sums = [Int](repeating: 0, count: width * 3)
        var red = [Float](repeating: 0, count: width * height)
        var green = red
        var blue = red
        let bpp = bitmap.pixelFormat.bytesPerPixel
        let format = bitmap.pixelFormat
        let sampleWeight = Float(samplesX * samplesY) * 255
        let bytesPerRow = bitmap.bytesPerRow
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                for i in sums.indices { sums[i] = 0 }
                for step in 0..<samplesY {
                    let rowStart = (row * scaleY + step * strideY) * bytesPerRow
                    for column in 0..<width {
                        var offset = rowStart + column * scaleX * bpp
                        var (r, g, b) = (0, 0, 0)
                        for _ in 0..<samplesX {
                            switch format {
                            case .gray8:
                                let v = Int(pixels[offset])
                                (r, g, b) = (r + v, g + v, b + v)
                            case .rgb8:
                                (r, g, b) = (r + Int(pixels[offset]), g + Int(pixels[offset + 1]), b + Int(pixels[offset + 2]))
                            case .rgba8:
                                let alpha = Int(pixels[offset + 3])
                                r += Int(pixels[offset]) * alpha / 255
                                g += Int(pixels[offset + 1]) * alpha / 255
                                b += Int(pixels[offset + 2]) * alpha / 255
                            }
                            offset += strideX * bpp
                        }
                        sums[column * 3] += r
                        sums[column * 3 + 1] += g
                        sums[column * 3 + 2] += b
                    }
                }
                for column in 0..<width {
                    let index = row * width + column
                    red[index] = Float(sums[column * 3]) / sampleWeight
                    green[index] = Float(sums[column * 3 + 1]) / sampleWeight
                    blue[index] = Float(sums[column * 3 + 2]) / sampleWeight
                }
            }
        }
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The analysis window a crop of `size` source pixels covers, at
    /// least 1x1 and at most the analysis image.
    func window(for size: PixelSize) -> (width: Int, height: Int) {
        let w = Int((Double(size.width) / Double(scaleX)).rounded())
        let h = Int((Double(size.height) / Double(scaleY)).rounded())
        return (min(width, max(1, w)), min(height, max(1, h)))
    }

    /// The source rectangle for the window at analysis (`left`, `top`):
    /// the window's travel mapped onto the crop's travel in `source`, so
    /// the first and last positions land on the source's edges.
    func sourceRect(left: Int, top: Int, window: (width: Int, height: Int), crop: PixelSize, source: PixelSize) -> PixelRect {
        func place(_ position: Int, travel: Int, sourceTravel: Int) -> Int {
            guard travel > 0, sourceTravel > 0 else { return max(0, sourceTravel / 2) }
            let mapped = (Double(position) * Double(sourceTravel) / Double(travel)).rounded()
            return min(sourceTravel, max(0, Int(mapped)))
        }
        let x = place(left, travel: width - window.width, sourceTravel: source.width - crop.width)
        let y = place(top, travel: height - window.height, sourceTravel: source.height - crop.height)
        return PixelRect(x: x, y: y, width: crop.width, height: crop.height)
    }
}
