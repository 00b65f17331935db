import Foundation

extension CropAnalysis {
    /// How much each analysis pixel draws the eye: edges (the Laplacian of
    /// lightness), how rare and far its colour is among the image's
    /// colours (a saturated object on a dull ground, or a dark figure on a
    /// bright one), and skin tones (smartcrop.js's test, the
    /// one libvips and sharp use). Edges and colour are each divided by
    /// their image-wide mean, so a photo busy all over weighs its detail
    /// less than one where a single thing is sharp.
    func attention() -> [Float] {
        let count = width * height
        var lightness = [Float](repeating: 0, count: count)
        var aStar = lightness
        var bStar = lightness
        var skin = lightness
        for i in 0..<count {
            let (r, g, b) = (red[i], green[i], blue[i])
            (lightness[i], aStar[i], bStar[i]) = Self.lab(r, g, b)
            skin[i] = Self.skinScore(r, g, b)
        }
        var edges = [Float](repeating: 0, count: count)
        for y in 0..<height {
            let up = max(0, y - 1) * width
            let down = min(height - 1, y + 1) * width
            for x in 0..<width {
                let here = y * width + x
                let left = y * width + max(0, x - 1)
                let right = y * width + min(width - 1, x + 1)
                edges[here] = abs(4 * lightness[here] - lightness[left] - lightness[right] - lightness[up + x] - lightness[down + x])
            }
        }
        let n = Float(count)
        // Only colour well above the image's average rarity counts:
        // otherwise the larger of two plain halves (sky and grass) would
        // outweigh a small bright subject by its area alone.
        let rarity = colourRarity(lightness: lightness, aStar: aStar, bStar: bStar)
        let threshold = 1.5 * rarity.reduce(0, +) / n
        let rare = rarity.map { max(0, $0 - threshold) }
        // Each cue carries the same weight in all, however much of it the
        // photo has: one sharp horizon cannot outweigh the only bright
        // object. The floors keep a flat photo's faint noise, or a few
        // skin-coloured pixels, from being blown up to a whole cue.
        let edgeScale = 1 / max(edges.reduce(0, +), n)
        let rareScale = 1 / max(rare.reduce(0, +), n)
        let skinScale = 1 / max(skin.reduce(0, +), n / 50)
        var score = [Float](repeating: 0, count: count)
        for i in 0..<count {
            score[i] = edges[i] * edgeScale + rare[i] * rareScale + skin[i] * skinScale
        }
        return score
    }

    /// Histogram contrast (Cheng et al., 2011): each colour's CIELAB
    /// distance to every other colour in the image, weighted by how many
    /// pixels have that other colour. A colour few pixels share, far from
    /// the rest, scores high; half a photo's sky or grass scores low.
    /// Colours are binned 12 levels per sRGB channel, so the sum runs over
    /// the occupied bins (a few hundred), not over pixel pairs.
    func colourRarity(lightness: [Float], aStar: [Float], bStar: [Float]) -> [Float] {
        let count = width * height
        let levels = 12
        var binOf = [Int](repeating: 0, count: count)
        var members = [Int](repeating: 0, count: levels * levels * levels)
        var sums = [(l: Float, a: Float, b: Float)](repeating: (0, 0, 0), count: members.count)
        for i in 0..<count {
            func level(_ value: Float) -> Int { min(levels - 1, max(0, Int(value * Float(levels - 1) + 0.5))) }
            let bin = (level(red[i]) * levels + level(green[i])) * levels + level(blue[i])
            binOf[i] = bin
            members[bin] += 1
            sums[bin] = (sums[bin].l + lightness[i], sums[bin].a + aStar[i], sums[bin].b + bStar[i])
        }
        let occupied = members.indices.filter { members[$0] > 0 }.map { bin in
            let n = Float(members[bin])
            return (bin: bin, weight: n / Float(count), l: sums[bin].l / n, a: sums[bin].a / n, b: sums[bin].b / n)
        }
        var rarity = [Float](repeating: 0, count: members.count)
        for colour in occupied {
            var total: Float = 0
            for other in occupied {
                let (dl, da, db) = (colour.l - other.l, colour.a - other.a, colour.b - other.b)
                total += other.weight * (dl * dl + da * da + db * db).squareRoot()
            }
            rarity[colour.bin] = total
        }
        return binOf.map { rarity[$0] }
    }

    /// CIELAB (D65) of an sRGB colour in 0...1 (decoded through the
    /// byte table: an average's fraction of a level does not matter here).
    static func lab(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        func linear(_ v: Float) -> Float { BlurHashMath.linearTable[Int(min(255, max(0, v * 255 + 0.5)))] }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        func f(_ t: Float) -> Float { t > 0.008856 ? cbrtf(t) : 7.787 * t + 16 / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// smartcrop.js's skin test: the colour's direction close to skin's
    /// (0.78, 0.57, 0.44) and its lightness in 0.2...1; 0 when not skin,
    /// up to 1.
    static func skinScore(_ r: Float, _ g: Float, _ b: Float) -> Float {
        let magnitude = (r * r + g * g + b * b).squareRoot()
        guard magnitude > 0 else { return 0 }
        let (dr, dg, db) = (r / magnitude - 0.78, g / magnitude - 0.57, b / magnitude - 0.44)
        let likeness = 1 - (dr * dr + dg * dg + db * db).squareRoot()
        let lightness = (max(r, g, b) + min(r, g, b)) / 2
        guard likeness > 0.8, lightness >= 0.2 else { return 0 }
        return (likeness - 0.8) / 0.2
    }

    /// The window position holding the most `score`: each window's sum
    /// plus that of its middle (the window less 12% at each side), so a
    /// subject sits inside the crop rather than on its edge, less a small
    /// pull towards the centre that settles near-ties there.
    func bestWindow(_ score: [Float], window: (width: Int, height: Int)) -> (left: Int, top: Int) {
        let table = SummedArea(score, width: width, height: height)
        let (travelX, travelY) = (width - window.width, height - window.height)
        let insetX = window.width * 12 / 100
        let insetY = window.height * 12 / 100
        let total = max(table.sum(x: 0, y: 0, width: width, height: height), .leastNormalMagnitude)
        var best = (left: travelX / 2, top: travelY / 2)
        var bestScore = -Float.infinity
        for top in 0...travelY {
            for left in 0...travelX {
                let whole = table.sum(x: left, y: top, width: window.width, height: window.height)
                let middle = table.sum(x: left + insetX, y: top + insetY, width: window.width - 2 * insetX, height: window.height - 2 * insetY)
                let offX = travelX > 0 ? abs(Float(2 * left - travelX)) / Float(travelX) : 0
                let offY = travelY > 0 ? abs(Float(2 * top - travelY)) / Float(travelY) : 0
                let value = (whole + middle) / total - 0.05 * max(offX, offY)
                if value > bestScore {
                    bestScore = value
                    best = (left, top)
                }
            }
        }
        return best
    }
}

/// A summed-area table: any rectangle's sum in four lookups.
struct SummedArea {
    private let table: [Double]
    private let stride: Int

    init(_ values: [Float], width: Int, height: Int) {
        stride = width + 1
        var table = [Double](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row: Double = 0
            for x in 0..<width {
                row += Double(values[y * width + x])
                table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row
            }
        }
        self.table = table
    }

    /// The sum over the rectangle; 0 when it is empty.
    func sum(x: Int, y: Int, width: Int, height: Int) -> Float {
        guard width > 0, height > 0 else { return 0 }
        let (x1, y1) = (x + width, y + height)
        return Float(table[y1 * stride + x1] - table[y * stride + x1] - table[y1 * stride + x] + table[y * stride + x])
    }
}
