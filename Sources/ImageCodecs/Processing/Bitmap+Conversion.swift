extension Bitmap {
    /// The bitmap in another pixel format: gray expands to RGB, colour to
    /// gray uses Rec. 601 luma, alpha is dropped (not flattened; see
    /// ``flattened(onto:)``) or added as opaque.
    public func converted(to format: PixelFormat) -> Bitmap {
        guard format != pixelFormat else { return self }
        let sourceBPP = pixelFormat.bytesPerPixel
        let targetBPP = format.bytesPerPixel
        var output = [UInt8](repeating: 255, count: width * height * targetBPP)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var s = y * bytesPerRow
                    var t = y * width * targetBPP
                    for _ in 0..<width {
                        switch (pixelFormat, format) {
                        case (.gray8, _):
                            target[t] = source[s]
                            target[t + 1] = source[s]
                            target[t + 2] = source[s]
                        case (_, .gray8):
                            let luma = 299 * Int(source[s]) + 587 * Int(source[s + 1]) + 114 * Int(source[s + 2])
                            target[t] = UInt8((luma + 500) / 1000)
                        default:
                            target[t] = source[s]
                            target[t + 1] = source[s + 1]
                            target[t + 2] = source[s + 2]
                        }
                        s += sourceBPP
                        t += targetBPP
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * targetBPP, pixelFormat: format, pixels: output)
    }

    /// An RGB bitmap with transparent pixels composited onto `background`.
    /// Bitmaps without alpha are only converted.
    public func flattened(onto background: (red: UInt8, green: UInt8, blue: UInt8)) -> Bitmap {
        guard pixelFormat == .rgba8 else { return converted(to: .rgb8) }
        var output = [UInt8](repeating: 0, count: width * height * 3)
        let backdrop = [Int(background.red), Int(background.green), Int(background.blue)]
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var s = y * bytesPerRow
                    var t = y * width * 3
                    for _ in 0..<width {
                        let alpha = Int(source[s + 3])
                        for channel in 0..<3 {
                            let blended = Int(source[s + channel]) * alpha + backdrop[channel] * (255 - alpha)
                            target[t + channel] = UInt8((blended + 127) / 255)
                        }
                        s += 4
                        t += 3
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8, pixels: output)
    }

    /// The pixels inside `origin` + `size`, clamped to the bitmap.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` when the rectangle
    ///   does not overlap the bitmap.
    public func cropped(x: Int, y: Int, size cropSize: PixelSize) throws(ImageCodecError) -> Bitmap {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(width, x + cropSize.width)
        let bottom = min(height, y + cropSize.height)
        guard right > left, bottom > top else {
            throw .invalidArgument("crop \(cropSize) at (\(x), \(y)) lies outside the \(size) bitmap")
        }
        let bpp = pixelFormat.bytesPerPixel
        let rowLength = (right - left) * bpp
        var output = [UInt8]()
        output.reserveCapacity(rowLength * (bottom - top))
        for row in top..<bottom {
            let start = row * bytesPerRow + left * bpp
            output.append(contentsOf: pixels[start..<start + rowLength])
        }
        return Bitmap(uncheckedWidth: right - left, height: bottom - top, bytesPerRow: rowLength, pixelFormat: pixelFormat, pixels: output)
    }

    /// The centred `cropSize` part of the bitmap (clamped to its size).
    public func centerCropped(to cropSize: PixelSize) -> Bitmap {
        let target = PixelSize(width: min(width, max(1, cropSize.width)), height: min(height, max(1, cropSize.height)))
        // Cannot fail: the rectangle is inside the bitmap by construction.
        return (try? cropped(x: (width - target.width) / 2, y: (height - target.height) / 2, size: target)) ?? self
    }
}

extension Bitmap {
    /// The pixel bytes without row padding (the array itself when there is none):
    /// what C encoders that take `width * bytesPerPixel` rows need.
    package var tightlyPackedPixels: [UInt8] {
        let rowBytes = width * pixelFormat.bytesPerPixel
        guard bytesPerRow != rowBytes else { return pixels.count == rowBytes * height ? pixels : Array(pixels.prefix(rowBytes * height)) }
        var packed = [UInt8]()
        packed.reserveCapacity(rowBytes * height)
        for row in 0..<height { packed += pixels[(row * bytesPerRow)..<(row * bytesPerRow + rowBytes)] }
        return packed
    }
}
