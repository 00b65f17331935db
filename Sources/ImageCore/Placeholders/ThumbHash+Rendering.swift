import Foundation

extension ThumbHash {
    /// Draws the placeholder the hash describes: an RGBA bitmap whose longer
    /// side is 32 pixels and whose shape follows ``approximateAspectRatio``,
    /// exactly as the reference `thumbHashToRGBA` draws it. Scale it up
    /// with a smooth filter to show it.
    public func rendered() -> Bitmap {
        let layout = try! Layout(bytes)  // checked in init
        let hasAlpha = layout.hasAlpha
        let lx = layout.lx
        let ly = layout.ly
        let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double((header24 >> 6) & 63) / 31.5 - 1
        let qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31
        let pScale = Double((header16 >> 3) & 63) / 63
        let qScale = Double((header16 >> 9) & 63) / 63
        let aDC = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
        let aScale = Double(bytes[5] >> 4) / 15

        let acStart = hasAlpha ? 6 : 5
        var acIndex = 0
        func decodeChannel(_ nx: Int, _ ny: Int, _ scale: Double) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy != 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let nibble = (Int(bytes[acStart + (acIndex >> 1)]) >> ((acIndex & 1) << 2)) & 15
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    acIndex += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = decodeChannel(lx, ly, lScale)
        let pAC = decodeChannel(3, 3, pScale * 1.25)
        let qAC = decodeChannel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? decodeChannel(5, 5, aScale) : []

        let ratio = approximateAspectRatio
        let w = max(1, roundHalfUp(ratio > 1 ? 32 : 32 * ratio))
        let h = max(1, roundHalfUp(ratio > 1 ? 32 / ratio : 32))
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let nxCount = max(lx, hasAlpha ? 5 : 3)
        let nyCount = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: nxCount)
        var fy = [Double](repeating: 0, count: nyCount)
        var i = 0
        for y in 0..<h {
            for cy in 0..<nyCount { fy[cy] = ReferenceCosine.cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
            for x in 0..<w {
                var l = lDC
                var p = pDC
                var q = qDC
                var a = aDC
                for cx in 0..<nxCount { fx[cx] = ReferenceCosine.cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }

                var j = 0
                for cy in 0..<ly {
                    let fy2 = fy[cy] * 2
                    var cx = cy != 0 ? 0 : 1
                    while cx * ly < lx * (ly - cy) {
                        l += lAC[j] * fx[cx] * fy2
                        cx += 1
                        j += 1
                    }
                }
                j = 0
                for cy in 0..<3 {
                    let fy2 = fy[cy] * 2
                    var cx = cy != 0 ? 0 : 1
                    while cx < 3 - cy {
                        let f = fx[cx] * fy2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        cx += 1
                        j += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        let fy2 = fy[cy] * 2
                        var cx = cy != 0 ? 0 : 1
                        while cx < 5 - cy {
                            a += aAC[j] * fx[cx] * fy2
                            cx += 1
                            j += 1
                        }
                    }
                }
                let b = l - 2 / 3 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                // A Uint8Array store truncates, as these conversions do.
                rgba[i] = UInt8(max(0, 255 * min(1, r)))
                rgba[i + 1] = UInt8(max(0, 255 * min(1, g)))
                rgba[i + 2] = UInt8(max(0, 255 * min(1, b)))
                rgba[i + 3] = UInt8(max(0, 255 * min(1, a)))
                i += 4
            }
        }
        return Bitmap(uncheckedWidth: w, height: h, bytesPerRow: w * 4, pixelFormat: .rgba8, pixels: rgba)
    }
}
