import Foundation

extension CropAnalysis {
    /// libvips' entropy crop on the analysis image: slices are taken off
    /// whichever side (left or right, then top or bottom) has the lower
    /// entropy of its luminance histogram, in about 8 steps, until the
    /// window remains.
    func entropyWindow(_ window: (width: Int, height: Int)) -> (left: Int, top: Int) {
        let luma = (0..<(width * height)).map { i -> UInt8 in
            let value: Float = 0.299 * red[i] + 0.587 * green[i] + 0.114 * blue[i]
            return UInt8(min(255, max(0, value * 255 + 0.5)))
        }
        func entropy(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Double {
            var histogram = [Int](repeating: 0, count: 256)
            for row in y..<(y + h) {
                for column in x..<(x + w) { histogram[Int(luma[row * width + column])] += 1 }
            }
            let total = Double(w * h)
            return histogram.reduce(0.0) { sum, count in
                guard count > 0 else { return sum }
                let p = Double(count) / total
                return sum - p * log2(p)
            }
        }
        var (left, top, w, h) = (0, 0, width, height)
        let step = max(1, max((width - window.width + 7) / 8, (height - window.height + 7) / 8))
        while w > window.width || h > window.height {
            let sliceWidth = min(w - window.width, step)
            if sliceWidth > 0 {
                let leftScore = entropy(left, top, sliceWidth, h)
                let rightScore = entropy(left + w - sliceWidth, top, sliceWidth, h)
                w -= sliceWidth
                if leftScore < rightScore { left += sliceWidth }
            }
            let sliceHeight = min(h - window.height, step)
            if sliceHeight > 0 {
                let topScore = entropy(left, top, w, sliceHeight)
                let bottomScore = entropy(left, top + h - sliceHeight, w, sliceHeight)
                h -= sliceHeight
                if topScore < bottomScore { top += sliceHeight }
            }
        }
        return (left, top)
    }
}
