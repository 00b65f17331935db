/// How sharp and how well exposed a picture is: what chooses the cover of
/// a burst, where every frame shows the same thing and the one in focus,
/// without blur from a moving hand, is the one to show.
///
/// Sharpness is the variance of the luma's Laplacian (a 4-neighbour
/// kernel) over the variance of the luma itself: edges in focus make it
/// large, blur makes it small, and a darker frame of the same focus scores
/// the same (exposure is judged on its own, to break ties). Measure
/// frames of one burst at one size, large enough to see focus (a 1024-pixel
/// decode; a 100-pixel placeholder has lost it): the value depends on the
/// size and on what the picture shows, so it ranks frames of one scene and
/// means nothing across scenes.
///
/// ```swift
/// let frames = bitmaps.map(ImageSharpness.init(measuring:))
/// let cover = frames.indices.max { frames[$1].isBetterCover(than: frames[$0]) }
/// ```
public struct ImageSharpness: Hashable, Sendable {
    /// The variance of the Laplacian of the luma (0…255), over the pixels
    /// that have four neighbours.
    public let laplacianVariance: Double
    /// The mean luma, 0…255.
    public let meanLuma: Double
    /// The share of pixels at 2 or below or 253 or above: shadows and
    /// highlights with nothing left in them.
    public let clippedFraction: Double
    /// The variance of the luma: the picture's contrast.
    public let lumaVariance: Double

    /// The Laplacian's variance over the luma's (0 for a flat picture):
    /// what frames are ranked by, whatever their exposure.
    public var relativeSharpness: Double { lumaVariance >= 1 ? laplacianVariance / lumaVariance : 0 }

    /// Measures `bitmap` (grey, RGB or RGBA; alpha ignored) as it is.
    public init(measuring bitmap: Bitmap) {
        let luma = ImageSignature.planes(of: bitmap, includingChroma: false).luma
        let (width, height) = (bitmap.width, bitmap.height)
        var sum = 0.0
        var squares = 0.0
        var count = 0
        if width >= 3, height >= 3 {
            for y in 1..<(height - 1) {
                let row = y * width
                for x in 1..<(width - 1) {
                    let centre = Int(luma[row + x])
                    let value = Int(luma[row + x - 1]) + Int(luma[row + x + 1]) + Int(luma[row - width + x]) + Int(luma[row + width + x]) - 4 * centre
                    sum += Double(value)
                    squares += Double(value * value)
                    count += 1
                }
            }
        }
        let mean = count > 0 ? sum / Double(count) : 0
        laplacianVariance = count > 0 ? max(0, squares / Double(count) - mean * mean) : 0
        var total = 0
        var totalSquares = 0
        var clipped = 0
        for value in luma {
            total += Int(value)
            totalSquares += Int(value) * Int(value)
            if value <= 2 || value >= 253 { clipped += 1 }
        }
        let pixels = Double(max(luma.count, 1))
        meanLuma = Double(total) / pixels
        lumaVariance = max(0, Double(totalSquares) / pixels - meanLuma * meanLuma)
        clippedFraction = Double(clipped) / pixels
    }

    /// Measures kept from an earlier ``init(measuring:)`` (a stored value
    /// is a claim): `nil` unless each is finite and in its range (variance
    /// 0 to 16 × 255², mean 0…255, share 0…1, luma variance 0 to 255²).
    public init?(laplacianVariance: Double, meanLuma: Double, clippedFraction: Double, lumaVariance: Double) {
        guard laplacianVariance.isFinite, (0...(16 * 255 * 255)).contains(laplacianVariance), meanLuma.isFinite, (0...255).contains(meanLuma),
            clippedFraction.isFinite, (0...1).contains(clippedFraction), lumaVariance.isFinite, (0...(255 * 255)).contains(lumaVariance)
        else { return nil }
        self.laplacianVariance = laplacianVariance
        self.meanLuma = meanLuma
        self.clippedFraction = clippedFraction
        self.lumaVariance = lumaVariance
    }

    /// How well exposed, 1 at best: lowered by the mean's distance from
    /// mid-grey (118) and by every clipped pixel.
    public var exposureScore: Double {
        1 - abs(meanLuma - 118) / 118 - clippedFraction
    }

    /// Relative sharpness within this ratio of another's is a tie, decided by exposure.
    public static let tieRatio = 0.9

    /// Whether this frame makes a better cover than `other`: relatively
    /// sharper by more than ``tieRatio`` allows, else (a tie) better exposed.
    public func isBetterCover(than other: ImageSharpness) -> Bool {
        let (mine, theirs) = (relativeSharpness, other.relativeSharpness)
        if theirs < mine * Self.tieRatio { return true }
        if mine < theirs * Self.tieRatio { return false }
        if exposureScore != other.exposureScore { return exposureScore > other.exposureScore }
        return mine > theirs
    }
}
