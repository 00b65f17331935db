extension ImageSignature {
    /// How two signatures compare once their thumbnails are aligned.
    public struct Match: Hashable, Sendable {
        /// How many of the hashes' bits differ (0…64).
        public let hashDistance: Int
        /// The thumbnails' normalised correlation at the best alignment
        /// found (1: the same picture up to brightness and contrast).
        public let correlation: Double
        /// How many of the 64 blocks (8×8) differ at that alignment,
        /// after brightness and contrast are evened out.
        public let differingBlocks: Int

        /// The correlation at or above which aligned thumbnails can be one photo.
        public static let minimumCorrelation = 0.95
        /// The blocks that may differ in one photo: a corner's watermark.
        public static let allowedDifferingBlocks = 1

        /// Whether the two are one photo: aligned, they correlate at
        /// ``minimumCorrelation`` or more and differ in at most
        /// ``allowedDifferingBlocks`` block.
        public var isNearDuplicate: Bool {
            correlation >= Self.minimumCorrelation && differingBlocks <= Self.allowedDifferingBlocks
        }
    }

    /// The retained fractions of a side tried for a crop (up to 8% off).
    static let cropFractions = [1.0, 0.96, 0.92]
    /// Where a cropped window may sit, as a fraction of the slack.
    static let cropPositions = [0.0, 0.5, 1.0]
    /// The correlation at 16×16, unaligned, below which two pictures are
    /// unrelated and no crop is looked for.
    static let minimumRoughCorrelation = 0.5
    /// Blocks per side compared after alignment.
    static let blocksPerSide = 8
    /// The correlation of unaligned thumbnails above which no crop is looked for.
    static let alignedEnough = 0.97
    /// A block's mean absolute difference (in standard deviations) above
    /// which it differs.
    static let blockTolerance = 0.44

    /// Compares this signature with `other`: their hashes, then their
    /// thumbnails aligned, each tried as a crop of the other (up to 8% of
    /// each side, anywhere), and compared block by block.
    public func match(_ other: ImageSignature) -> Match {
        let (a, b, correlation) = aligned(with: other)
        return Match(hashDistance: hashDistance(to: other), correlation: correlation, differingBlocks: Self.differingBlocks(a, b))
    }

    /// The two thumbnails normalised at the best alignment found (one
    /// resampled inside the other), and their correlation there.
    func aligned(with other: ImageSignature) -> (a: [Double], b: [Double], correlation: Double) {
        let mine = thumbnail.map(Double.init)
        let theirs = other.thumbnail.map(Double.init)
        let normalizedMine = Self.normalized(mine)
        let normalizedTheirs = Self.normalized(theirs)
        // Most copies are the whole frame resized or recompressed: no crop to look for.
        let whole = Self.correlation(normalizedMine, normalizedTheirs)
        if whole >= Self.alignedEnough, Self.differingBlocks(normalizedMine, normalizedTheirs) <= Match.allowedDifferingBlocks {
            return (normalizedMine, normalizedTheirs, whole)
        }
        // Unrelated pictures are told at 16×16, before any crop is looked for (an 8% crop still correlates at 0.66 there).
        let small = { (plane: [UInt8]) in Self.normalized(Self.areaAverage(plane, width: Self.side, height: Self.side, side: 16).map(Double.init)) }
        guard Self.correlation(small(thumbnail), small(other.thumbnail)) >= Self.minimumRoughCorrelation else {
            return (normalizedMine, normalizedTheirs, whole)
        }
        // The crops are tried at 32×32, the best one refined at full size.
        let half = { (plane: [UInt8]) in Self.areaAverage(plane, width: Self.side, height: Self.side, side: Self.side / 2).map(Double.init) }
        let (mineHalf, theirsHalf) = (half(thumbnail), half(other.thumbnail))
        var best = (correlation: -2.0, mine: true, window: (x: 0.0, y: 0.0, width: 1.0, height: 1.0))
        for (source, target, isMine) in [(mineHalf, Self.normalized(theirsHalf), true), (theirsHalf, Self.normalized(mineHalf), false)] {
            for window in Self.windows() {
                let correlation = Self.correlation(Self.normalized(Self.sample(source, side: Self.side / 2, window: window)), target)
                if correlation > best.correlation { best = (correlation, isMine, window) }
            }
        }
        let (source, target) = best.mine ? (mine, normalizedTheirs) : (theirs, normalizedMine)
        let refined = Self.refine(source, against: target, from: best.window)
        guard refined.correlation > whole else { return (normalizedMine, normalizedTheirs, whole) }
        return (Self.normalized(refined.window), target, refined.correlation)
    }

    /// The best window near `start` by coordinate descent on its four
    /// edges (steps of 1%, then 0.5% and 0.25% of the frame), and its sample.
    static func refine(
        _ source: [Double], against target: [Double], from start: (x: Double, y: Double, width: Double, height: Double)
    ) -> (correlation: Double, window: [Double]) {
        var window = start
        var sampled = sample(source, window: window)
        var best = correlation(normalized(sampled), target)
        for step in [0.01, 0.005, 0.0025] {
            var improved = true
            var rounds = 0
            while improved && rounds < 8 {
                improved = false
                rounds += 1
                for (dx, dy, dw, dh) in [
                    (step, 0.0, 0.0, 0.0), (-step, 0, 0, 0), (0, step, 0, 0), (0, -step, 0, 0), (0, 0, step, 0), (0, 0, -step, 0), (0, 0, 0, step),
                    (0, 0, 0, -step),
                ] {
                    let candidate = (x: window.x + dx, y: window.y + dy, width: window.width + dw, height: window.height + dh)
                    guard candidate.x >= -0.01, candidate.y >= -0.01, candidate.width >= 0.9, candidate.height >= 0.9,
                        candidate.x + candidate.width <= 1.01, candidate.y + candidate.height <= 1.01
                    else { continue }
                    let trial = sample(source, window: candidate)
                    let score = correlation(normalized(trial), target)
                    if score > best {
                        best = score
                        sampled = trial
                        window = candidate
                        improved = true
                    }
                }
            }
        }
        return (best, sampled)
    }

    /// Every window tried: `(x, y, width, height)` as fractions of the frame.
    static func windows() -> [(x: Double, y: Double, width: Double, height: Double)] {
        var spans: [(start: Double, length: Double)] = []
        for fraction in cropFractions {
            for position in fraction == 1 ? [0.0] : cropPositions { spans.append(((1 - fraction) * position, fraction)) }
        }
        var windows: [(Double, Double, Double, Double)] = []
        for horizontal in spans {
            for vertical in spans { windows.append((horizontal.start, vertical.start, horizontal.length, vertical.length)) }
        }
        return windows
    }

    /// `plane` (`side` × `side`) inside `window`, resampled bilinearly to `side` × `side`.
    static func sample(_ plane: [Double], side n: Int = side, window: (x: Double, y: Double, width: Double, height: Double)) -> [Double] {
        var output = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            let sy = min(max((window.y + (Double(j) + 0.5) / Double(n) * window.height) * Double(n) - 0.5, 0), Double(n - 1))
            let y0 = Int(sy)
            let y1 = min(y0 + 1, n - 1)
            let fy = sy - Double(y0)
            for i in 0..<n {
                let sx = min(max((window.x + (Double(i) + 0.5) / Double(n) * window.width) * Double(n) - 0.5, 0), Double(n - 1))
                let x0 = Int(sx)
                let x1 = min(x0 + 1, n - 1)
                let fx = sx - Double(x0)
                let top = plane[y0 * n + x0] * (1 - fx) + plane[y0 * n + x1] * fx
                let bottom = plane[y1 * n + x0] * (1 - fx) + plane[y1 * n + x1] * fx
                output[j * n + i] = top * (1 - fy) + bottom * fy
            }
        }
        return output
    }

    /// `plane` shifted to mean 0 and scaled to deviation 1 (a flat plane: all 0).
    static func normalized(_ plane: [Double]) -> [Double] {
        let mean = plane.reduce(0, +) / Double(plane.count)
        let variance = plane.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(plane.count)
        // Below a grey level of deviation, there is nothing but noise to compare.
        guard variance >= 1 else { return [Double](repeating: 0, count: plane.count) }
        let scale = 1 / variance.squareRoot()
        return plane.map { ($0 - mean) * scale }
    }

    /// The correlation of two normalised planes (−1…1; 1 when both are flat).
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        var flat = true
        for index in a.indices {
            sum += a[index] * b[index]
            if a[index] != 0 || b[index] != 0 { flat = false }
        }
        return flat ? 1 : sum / Double(a.count)
    }

    /// How many of the 8×8 blocks of two normalised planes differ by more
    /// than ``blockTolerance`` on average.
    static func differingBlocks(_ a: [Double], _ b: [Double]) -> Int {
        let n = side
        let block = n / blocksPerSide
        var differing = 0
        for by in 0..<blocksPerSide {
            for bx in 0..<blocksPerSide {
                var sum = 0.0
                for y in (by * block)..<((by + 1) * block) {
                    for x in (bx * block)..<((bx + 1) * block) { sum += abs(a[y * n + x] - b[y * n + x]) }
                }
                if sum / Double(block * block) > blockTolerance { differing += 1 }
            }
        }
        return differing
    }
}
