/// A decoder that can hand over rows a batch at a time, so that renditions
/// resample while decoding instead of holding the whole image.
protocol RowDecoding {
    /// A row source for `data` and the decisions made from its header, or
    /// `nil` when this file cannot be streamed (an interlaced PNG, a CMYK
    /// JPEG): the caller then decodes it whole. `data` must stay valid
    /// until the source is finished.
    func rowSource(for data: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode?
}

/// A row source and the plan its header produced.
struct StreamingDecode {
    let source: any RowSource
    let plan: DecodePlan
}
