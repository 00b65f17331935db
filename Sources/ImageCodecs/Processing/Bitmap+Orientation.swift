import CResample

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
        // Every byte is written below.
        var output = [UInt8](decoderOutputCount: targetStride * target.height)
        let stored = size
        let sourceStride = bytesPerRow
        let map = OrientationMap(gathering: orientation, stored: stored, storedBytesPerRow: sourceStride, bytesPerPixel: bpp)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                guard let from = source.baseAddress, let to = destination.baseAddress, !target.isEmpty else { return }
                pd_orient_pixels(from, to, targetStride, target.width, target.height, Int32(bpp), map.start, map.stepX, map.stepY)
            }
        }
        return Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: targetStride, pixelFormat: pixelFormat, pixels: output)
    }
}
