extension Bitmap {
    /// The bitmap transformed as `orientation` says, so it displays upright.
    ///
    /// Decoding applies the file's orientation already (see
    /// ``ImageCodecs/DecodeOptions/appliesOrientation``); call this only for pixels
    /// decoded raw.
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let target = orientation.orientedSize(size)
        let bpp = pixelFormat.bytesPerPixel
        let targetStride = target.width * bpp
        var output = [UInt8](repeating: 0, count: targetStride * target.height)
        let stored = size
        let sourceStride = bytesPerRow
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                // Walk each target row, stepping through the source by a fixed
                // delta (whole rows or whole pixels) per target pixel.
                let origin = orientation.sourceCoordinate(ofDisplayX: 0, y: 0, storedSize: stored)
                let nextX = orientation.sourceCoordinate(ofDisplayX: min(1, target.width - 1), y: 0, storedSize: stored)
                let nextY = orientation.sourceCoordinate(ofDisplayX: 0, y: min(1, target.height - 1), storedSize: stored)
                let stepX = (nextX.y - origin.y) * sourceStride + (nextX.x - origin.x) * bpp
                let stepY = (nextY.y - origin.y) * sourceStride + (nextY.x - origin.x) * bpp
                let start = origin.y * sourceStride + origin.x * bpp
                for y in 0..<target.height {
                    var sourceIndex = start + y * stepY
                    var targetIndex = y * targetStride
                    for _ in 0..<target.width {
                        for channel in 0..<bpp { destination[targetIndex + channel] = source[sourceIndex + channel] }
                        sourceIndex += stepX
                        targetIndex += bpp
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: targetStride, pixelFormat: pixelFormat, pixels: output)
    }
}
