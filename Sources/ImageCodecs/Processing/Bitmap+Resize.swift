extension Bitmap {
    /// The bitmap resized to `target` with a separable two-pass `filter`.
    ///
    /// Alpha is premultiplied while filtering, so transparent pixels do not
    /// bleed dark fringes into their neighbours. Arithmetic is fixed-point
    /// (22-bit weights), and large resizes use two threads.
    ///
    /// ```swift
    /// let thumbnail = bitmap.resized(to: bitmap.size.fitting(in: PixelSize(width: 320, height: 320)))
    /// ```
    ///
    /// For photos on their way to a screen, prefer
    /// ``ImageCodecs/DecodedImage/init(rendering:in:mode:options:registry:)``, which also
    /// shrinks while decoding.
    public func resized(to target: PixelSize, filter: ResamplingFilter = .lanczos3) -> Bitmap {
        precondition(!target.isEmpty, "cannot resize to an empty size \(target)")
        return Resampler.resize(self, to: target, filter: filter, boxPreshrink: false)
    }
}
