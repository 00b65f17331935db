import Foundation

extension ThumbHash {
    /// Encodes pixels of at most 100×100 into a ThumbHash, exactly as the
    /// reference `rgbaToThumbHash` does.
    ///
    /// Grey and RGB bitmaps count as opaque. Larger images must be fitted
    /// into 100×100 first (`ThumbHash(summarizing:)` in ImageCodecs does
    /// that from a decode at a fraction of the size).
    ///
    /// - Throws: ``PlaceholderError/unsuitablePixels(_:)`` for a bitmap
    ///   wider or taller than ``maxEncodedDimension``.
    public init(pixels bitmap: Bitmap) throws(PlaceholderError) {
        let w = bitmap.width
        let h = bitmap.height
        guard w <= Self.maxEncodedDimension, h <= Self.maxEncodedDimension else {
            throw .unsuitablePixels("a ThumbHash is made from at most 100x100 pixels, got \(w)x\(h); fit the image first")
        }
        let rgba = Self.straightRGBA(bitmap)
        self.bytes = Self.encode(width: w, height: h, rgba: rgba)
    }

    /// The bitmap's pixels as tightly packed RGBA.
    static func straightRGBA(_ bitmap: Bitmap) -> [UInt8] {
        let w = bitmap.width
        let h = bitmap.height
        var rgba = [UInt8](repeating: 255, count: w * h * 4)
        bitmap.withUnsafeBytes { source in
            for y in 0..<h {
                let row = y * bitmap.bytesPerRow
                for x in 0..<w {
                    let o = (y * w + x) * 4
                    switch bitmap.pixelFormat {
                    case .gray8:
                        let v = source[row + x]
                        rgba[o] = v
                        rgba[o + 1] = v
                        rgba[o + 2] = v
                    case .rgb8:
                        rgba[o] = source[row + x * 3]
                        rgba[o + 1] = source[row + x * 3 + 1]
                        rgba[o + 2] = source[row + x * 3 + 2]
                    case .rgba8:
                        rgba[o] = source[row + x * 4]
                        rgba[o + 1] = source[row + x * 4 + 1]
                        rgba[o + 2] = source[row + x * 4 + 2]
                        rgba[o + 3] = source[row + x * 4 + 3]
                    }
                }
            }
        }
        return rgba
    }

    /// The reference encoder. Every expression keeps the reference's order
    /// of operations, so the doubles, and hence the rounded bytes, agree.
    static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8] {
        let n = w * h
        var avgR = 0.0
        var avgG = 0.0
        var avgB = 0.0
        var avgA = 0.0
        rgba.withUnsafeBufferPointer { px in
            var j = 0
            for _ in 0..<n {
                let alpha = Double(px[j + 3]) / 255
                avgR += alpha / 255 * Double(px[j])
                avgG += alpha / 255 * Double(px[j + 1])
                avgB += alpha / 255 * Double(px[j + 2])
                avgA += alpha
                j += 4
            }
        }
        if avgA != 0 {
            avgR /= avgA
            avgG /= avgA
            avgB /= avgA
        }
        let hasAlpha = avgA < Double(n)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let longer = Double(max(w, h))
        let lx = max(1, roundHalfUp(lLimit * Double(w) / longer))
        let ly = max(1, roundHalfUp(lLimit * Double(h) / longer))

        // RGBA to LPQA, composited over the average colour.
        var l = [Double](repeating: 0, count: n)
        var p = [Double](repeating: 0, count: n)
        var q = [Double](repeating: 0, count: n)
        var a = [Double](repeating: 0, count: n)
        rgba.withUnsafeBufferPointer { px in
            var j = 0
            for i in 0..<n {
                let alpha = Double(px[j + 3]) / 255
                let r = avgR * (1 - alpha) + alpha / 255 * Double(px[j])
                let g = avgG * (1 - alpha) + alpha / 255 * Double(px[j + 1])
                let b = avgB * (1 - alpha) + alpha / 255 * Double(px[j + 2])
                l[i] = (r + g + b) / 3
                p[i] = (r + g) / 2 - b
                q[i] = r - g
                a[i] = alpha
                j += 4
            }
        }

        let (lDC, lAC, lScale) = encodeChannel(l, w: w, h: h, nx: max(3, lx), ny: max(3, ly))
        let (pDC, pAC, pScale) = encodeChannel(p, w: w, h: h, nx: 3, ny: 3)
        let (qDC, qAC, qScale) = encodeChannel(q, w: w, h: h, nx: 3, ny: 3)
        let alphaTerms = hasAlpha ? encodeChannel(a, w: w, h: h, nx: 5, ny: 5) : nil

        let isLandscape = w > h
        let header24 =
            roundHalfUp(63 * lDC) | (roundHalfUp(31.5 + 31.5 * pDC) << 6) | (roundHalfUp(31.5 + 31.5 * qDC) << 12)
            | (roundHalfUp(31 * lScale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 =
            (isLandscape ? ly : lx) | (roundHalfUp(63 * pScale) << 3) | (roundHalfUp(63 * qScale) << 9)
            | ((isLandscape ? 1 : 0) << 15)
        // The reference stores into a Uint8Array, which keeps the low 8 bits.
        var hash = [header24, header24 >> 8, header24 >> 16, header16, header16 >> 8].map { UInt8(truncatingIfNeeded: $0) }
        if let alphaTerms {
            hash.append(UInt8(truncatingIfNeeded: roundHalfUp(15 * alphaTerms.dc) | (roundHalfUp(15 * alphaTerms.scale) << 4)))
        }
        let acStart = hash.count
        var acIndex = 0
        var channels = [lAC, pAC, qAC]
        if let alphaTerms { channels.append(alphaTerms.ac) }
        for ac in channels {
            for f in ac {
                let slot = acStart + (acIndex >> 1)
                if slot == hash.count { hash.append(0) }
                hash[slot] |= UInt8(truncatingIfNeeded: roundHalfUp(15 * f) << ((acIndex & 1) << 2))
                acIndex += 1
            }
        }
        return hash
    }

    /// The DCT of one channel: its DC term, its AC terms normalised to
    /// 0...1 and the scale that undoes the normalisation.
    private static func encodeChannel(_ channel: [Double], w: Int, h: Int, nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0
        var scale = 0.0
        var ac: [Double] = []
        var fx = [Double](repeating: 0, count: w)
        var fy = [Double](repeating: 0, count: h)
        channel.withUnsafeBufferPointer { values in
            for cy in 0..<ny {
                for y in 0..<h { fy[y] = ReferenceCosine.cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5)) }
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = ReferenceCosine.cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fyy = fy[y]
                        let row = y * w
                        for x in 0..<w { f += values[x + row] * fx[x] * fyy }
                    }
                    f /= Double(w * h)
                    if cx != 0 || cy != 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
        }
        if scale != 0 {
            for i in ac.indices { ac[i] = 0.5 + 0.5 / scale * ac[i] }
        }
        return (dc, ac, scale)
    }
}
