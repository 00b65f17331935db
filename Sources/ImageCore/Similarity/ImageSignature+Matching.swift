extension ImageSignature {
    /// How two signatures compare once their thumbnails are aligned.
    public struct Match: Hashable, Sendable {
        /// How many of the hashes' bits differ (0…64).
        public let hashDistance: Int
        /// The thumbnails' normalised correlation at the best alignment
        /// found (1: the same picture up to brightness and contrast).
        public let correlation: Double
        /// How many of the 64 blocks (8×8) differ at that alignment: in
        /// luma after brightness and contrast are evened out, or in colour.
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
    /// The best aligned correlation at 16×16 below which a pair is not
    /// looked at closer (copies align at 0.95 or more there).
    static let minimumCoarseCorrelation16 = 0.85
    /// The same at 32×32, before the alignment is refined at full size.
    static let minimumCoarseCorrelation32 = 0.9
    /// Blocks per side compared after alignment.
    static let blocksPerSide = 8
    /// The correlation of unaligned thumbnails above which no crop is looked for.
    static let alignedEnough = 0.97
    /// A block's mean absolute difference (in standard deviations) above
    /// which it differs.
    static let blockTolerance = 0.44
    /// A block's mean colour difference (|ΔCb| + |ΔCr|, in 8-bit steps)
    /// above which it differs: another hue, not a recompression's smear or
    /// a tenth less contrast.
    static let chromaTolerance = 32.0

    /// Compares this signature with `other`: their hashes, then their
    /// thumbnails aligned, each tried as a crop of the other (up to 8% of
    /// each side, anywhere), and compared block by block.
    public func match(_ other: ImageSignature) -> Match {
        Self.match(Prepared(self), Prepared(other))
    }

    /// A signature's planes as matching reads them, made once for a photo
    /// compared with many (an index's query).
    struct Prepared: Sendable {
        let signature: ImageSignature
        /// The 64×64 luma, and normalised.
        let plane: [Double]
        let normalized: [Double]
        /// The luma at 16×16, and normalised.
        let scaled16: [Double]
        let normalized16: [Double]
        /// The luma at 32×32, and normalised: made up front for a photo
        /// compared with many, else when a comparison gets that far (most
        /// of an index's candidates are dismissed before).
        let at32: (scaled: [Double], normalized: [Double])?

        init(_ signature: ImageSignature, upTo32 eager: Bool = true) {
            self.signature = signature
            plane = signature.thumbnail.map(Double.init)
            normalized = ImageSignature.normalized(plane)
            let side = ImageSignature.side
            scaled16 = ImageSignature.areaAverage(signature.thumbnail, width: side, height: side, side: 16).map(Double.init)
            normalized16 = ImageSignature.normalized(scaled16)
            at32 = eager ? Self.planes32(of: signature) : nil
        }

        /// The luma at 32×32, and normalised.
        var planes32: (scaled: [Double], normalized: [Double]) { at32 ?? Self.planes32(of: signature) }

        static func planes32(of signature: ImageSignature) -> (scaled: [Double], normalized: [Double]) {
            let side = ImageSignature.side
            let scaled = ImageSignature.areaAverage(signature.thumbnail, width: side, height: side, side: side / 2).map(Double.init)
            return (scaled, ImageSignature.normalized(scaled))
        }
    }

    /// ``match(_:)`` of two prepared signatures.
    static func match(_ mine: Prepared, _ theirs: Prepared) -> Match {
        let (a, b, correlation, crop) = aligned(mine, theirs)
        var chromaMine = mine.signature.chroma.map(Double.init)
        var chromaTheirs = theirs.signature.chroma.map(Double.init)
        if let crop {
            let planeCount = Self.chromaSide * Self.chromaSide
            let cropped = { (planes: [Double]) in
                Self.sample(Array(planes[..<planeCount]), side: Self.chromaSide, window: crop.window)
                    + Self.sample(Array(planes[planeCount...]), side: Self.chromaSide, window: crop.window)
            }
            if crop.isMine { chromaMine = cropped(chromaMine) } else { chromaTheirs = cropped(chromaTheirs) }
        }
        let luma = Self.differingBlockFlags(a, b)
        let colour = Self.differingChromaFlags(chromaMine, chromaTheirs)
        let differing = zip(luma, colour).filter { $0 || $1 }.count
        return Match(hashDistance: mine.signature.hashDistance(to: theirs.signature), correlation: correlation, differingBlocks: differing)
    }

    /// The thumbnail at 16×16, normalised (mean 0, deviation 1): what
    /// ``mayMatch(_:_:)`` compares.
    var roughPlane: [Float] {
        Self.normalized(Self.areaAverage(thumbnail, width: Self.side, height: Self.side, side: 16).map(Double.init)).map(Float.init)
    }

    /// Whether two signatures' ``roughPlane``s correlate enough for them to
    /// be one photo: what ``match(_:)`` requires of any pair it does not
    /// find aligned at full size (and a pair aligned there correlates far
    /// above it at 16×16), so an index tries it first.
    static func mayMatch(_ a: [Float], _ b: [Float]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return true }
        var sum: Float = 0
        var flat = true
        for index in a.indices {
            sum += a[index] * b[index]
            if a[index] != 0 || b[index] != 0 { flat = false }
        }
        return flat || Double(sum) / Double(a.count) >= minimumRoughCorrelation - 0.01
    }

    /// A crop found by ``aligned(_:_:)``: which signature's frame was cut
    /// down (`isMine`) and the window kept, as fractions of that frame.
    typealias Crop = (isMine: Bool, window: (x: Double, y: Double, width: Double, height: Double))

    /// The two thumbnails normalised at the best alignment found (one
    /// resampled inside the other), their correlation there, and the crop
    /// (`nil`: the whole frames).
    static func aligned(_ mine: Prepared, _ theirs: Prepared) -> (a: [Double], b: [Double], correlation: Double, crop: Crop?) {
        let (normalizedMine, normalizedTheirs) = (mine.normalized, theirs.normalized)
        // Most copies are the whole frame resized or recompressed: no crop to look for.
        let whole = Self.correlation(normalizedMine, normalizedTheirs)
        if whole >= Self.alignedEnough, Self.differingBlocks(normalizedMine, normalizedTheirs) <= Match.allowedDifferingBlocks {
            return (normalizedMine, normalizedTheirs, whole, nil)
        }
        // Unrelated pictures are told at 16×16, before any crop is looked for (an 8% crop still correlates at 0.66 there).
        guard Self.correlation(mine.normalized16, theirs.normalized16) >= Self.minimumRoughCorrelation else {
            return (normalizedMine, normalizedTheirs, whole, nil)
        }
        // The crops are tried at 16×16, then at 32×32, the best one refined at full size; a pair that
        // aligns badly at a coarse size is dismissed there (most candidates of a large index are such).
        var best = (correlation: -2.0, mine: true, window: (x: 0.0, y: 0.0, width: 1.0, height: 1.0))
        for (side, enough) in [(16, Self.minimumCoarseCorrelation16), (Self.side / 2, Self.minimumCoarseCorrelation32)] {
            let pairs: [([Double], [Double], Bool)]
            if side == 16 {
                pairs = [(mine.scaled16, theirs.normalized16, true), (theirs.scaled16, mine.normalized16, false)]
            } else {
                let (mine32, theirs32) = (mine.planes32, theirs.planes32)
                pairs = [(mine32.scaled, theirs32.normalized, true), (theirs32.scaled, mine32.normalized, false)]
            }
            best.correlation = -2
            for (source, target, isMine) in pairs {
                for window in side == 16 ? Self.coarseWindows : Self.fineWindows {
                    let correlation = Self.sampledCorrelation(source, side: side, window: window, target: target)
                    if correlation > best.correlation { best = (correlation, isMine, window) }
                }
            }
            guard best.correlation >= enough else { return (normalizedMine, normalizedTheirs, whole, nil) }
        }
        let (source, target) = best.mine ? (mine.plane, normalizedTheirs) : (theirs.plane, normalizedMine)
        let refined = Self.refine(source, against: target, from: best.window)
        guard refined.correlation > whole else { return (normalizedMine, normalizedTheirs, whole, nil) }
        let a = Self.normalized(refined.sample)
        return best.mine ? (a, target, refined.correlation, (true, refined.window)) : (target, a, refined.correlation, (false, refined.window))
    }

    /// The best window near `start` by coordinate descent on its four
    /// edges (steps of 1%, then 0.5% and 0.25% of the frame), and its sample.
    static func refine(
        _ source: [Double], against target: [Double], from start: (x: Double, y: Double, width: Double, height: Double)
    ) -> (correlation: Double, sample: [Double], window: (x: Double, y: Double, width: Double, height: Double)) {
        let found = descend(source, side: side, against: target, from: start, steps: [0.01, 0.005, 0.0025])
        return (found.correlation, sample(source, window: found.window), found.window)
    }

    /// Coordinate descent on a window's four edges over `source` (`side` ×
    /// `side`), by each of `steps` in turn (at most 8 rounds each), from `start`.
    static func descend(
        _ source: [Double], side: Int, against target: [Double], from start: (x: Double, y: Double, width: Double, height: Double), steps: [Double]
    ) -> (correlation: Double, window: (x: Double, y: Double, width: Double, height: Double)) {
        var window = start
        var best = sampledCorrelation(source, side: side, window: window, target: target)
        for step in steps {
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
                    let score = sampledCorrelation(source, side: side, window: candidate, target: target)
                    if score > best {
                        best = score
                        window = candidate
                        improved = true
                    }
                }
            }
        }
        return (best, window)
    }

    /// The correlation of `plane` (`side` × `side`) sampled inside `window`
    /// and normalised, with the normalised `target`: what
    /// `correlation(normalized(sample(plane, side:, window:)), target)`
    /// gives, in one pass and without a plane in between (the target's
    /// mean is 0, so only the sample's sums are needed).
    static func sampledCorrelation(
        _ plane: [Double], side n: Int, window: (x: Double, y: Double, width: Double, height: Double), target: [Double]
    ) -> Double {
        let (xs, ys) = (taps(start: window.x, length: window.width, side: n), taps(start: window.y, length: window.height, side: n))
        var (sum, squares, cross) = (0.0, 0.0, 0.0)
        var targetFlat = true
        for j in 0..<n {
            let (y0, y1, fy) = ys[j]
            for i in 0..<n {
                let (x0, x1, fx) = xs[i]
                let top = plane[y0 * n + x0] * (1 - fx) + plane[y0 * n + x1] * fx
                let bottom = plane[y1 * n + x0] * (1 - fx) + plane[y1 * n + x1] * fx
                let value = top * (1 - fy) + bottom * fy
                let t = target[j * n + i]
                sum += value
                squares += value * value
                cross += value * t
                if t != 0 { targetFlat = false }
            }
        }
        let count = Double(n * n)
        let mean = sum / count
        let variance = max(0, squares / count - mean * mean)
        // As normalized(_:): a sample flatter than a grey level is all zeros.
        guard variance >= 1 else { return targetFlat ? 1 : 0 }
        return cross / count / variance.squareRoot()
    }

    /// The windows tried at 32×32: every crop fraction at every position.
    static let fineWindows = windows(fractions: cropFractions)
    /// The windows tried at 16×16, where 4% of a side is less than a pixel:
    /// the whole frame and the largest crop.
    static let coarseWindows = windows(fractions: [1.0, 0.92])

    /// Every window of `fractions` at each of ``cropPositions``: `(x, y, width, height)` as fractions of the frame.
    static func windows(fractions: [Double]) -> [(x: Double, y: Double, width: Double, height: Double)] {
        var spans: [(start: Double, length: Double)] = []
        for fraction in fractions {
            for position in fraction == 1 ? [0.0] : cropPositions { spans.append(((1 - fraction) * position, fraction)) }
        }
        var windows: [(Double, Double, Double, Double)] = []
        for horizontal in spans {
            for vertical in spans { windows.append((horizontal.start, vertical.start, horizontal.length, vertical.length)) }
        }
        return windows
    }

    /// Where each of `n` output pixels samples a side of `n` pixels whose
    /// window starts at `start` and spans `length` (fractions of the side):
    /// the two source pixels and the weight of the second, clamped to the side.
    static func taps(start: Double, length: Double, side n: Int) -> [(lower: Int, upper: Int, fraction: Double)] {
        (0..<n).map { i in
            let position = min(max((start + (Double(i) + 0.5) / Double(n) * length) * Double(n) - 0.5, 0), Double(n - 1))
            let lower = Int(position)
            return (lower, min(lower + 1, n - 1), position - Double(lower))
        }
    }

    /// `plane` (`side` × `side`) inside `window`, resampled bilinearly to `side` × `side`.
    static func sample(_ plane: [Double], side n: Int = side, window: (x: Double, y: Double, width: Double, height: Double)) -> [Double] {
        var output = [Double](repeating: 0, count: n * n)
        let (xs, ys) = (taps(start: window.x, length: window.width, side: n), taps(start: window.y, length: window.height, side: n))
        for j in 0..<n {
            let (y0, y1, fy) = ys[j]
            for i in 0..<n {
                let (x0, x1, fx) = xs[i]
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
        differingBlockFlags(a, b).filter { $0 }.count
    }

    /// Whether each of the 8×8 blocks (row by row) of two normalised luma
    /// planes differs by more than ``blockTolerance`` on average.
    static func differingBlockFlags(_ a: [Double], _ b: [Double]) -> [Bool] {
        blockMeans(a, b, side: side).map { $0 > blockTolerance }
    }

    /// Whether each of the 8×8 blocks of two chroma signatures (Cb then Cr)
    /// differs in colour by more than ``chromaTolerance`` on average.
    /// `b`'s saturation is first fitted to `a`'s (a scale of 0.8 to 1.25
    /// around grey, least squares), as a change of contrast or saturation
    /// scales every colour alike.
    static func differingChromaFlags(_ a: [Double], _ b: [Double]) -> [Bool] {
        let count = chromaSide * chromaSide
        var (cross, square) = (0.0, 0.0)
        for index in a.indices {
            cross += (a[index] - 128) * (b[index] - 128)
            square += (b[index] - 128) * (b[index] - 128)
        }
        let scale = square > 0 ? min(max(cross / square, 0.8), 1.25) : 1
        let b = b.map { 128 + ($0 - 128) * scale }
        let cb = blockMeans(Array(a[..<count]), Array(b[..<count]), side: chromaSide)
        let cr = blockMeans(Array(a[count...]), Array(b[count...]), side: chromaSide)
        return zip(cb, cr).map { $0 + $1 > chromaTolerance }
    }

    /// The mean absolute difference of two `side` × `side` planes in each
    /// of ``blocksPerSide`` × ``blocksPerSide`` blocks, row by row.
    static func blockMeans(_ a: [Double], _ b: [Double], side n: Int) -> [Double] {
        let block = n / blocksPerSide
        var means: [Double] = []
        means.reserveCapacity(blocksPerSide * blocksPerSide)
        for by in 0..<blocksPerSide {
            for bx in 0..<blocksPerSide {
                var sum = 0.0
                for y in (by * block)..<((by + 1) * block) {
                    for x in (bx * block)..<((bx + 1) * block) { sum += abs(a[y * n + x] - b[y * n + x]) }
                }
                means.append(sum / Double(block * block))
            }
        }
        return means
    }
}
