/// Reads a NUL-terminated C character array, as imported into Swift as a
/// tuple inside a C struct (`char message[256]`).
func string<T>(fromCCharacters tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// A pixel buffer whose bytes are not zeroed first, for a decoder that
    /// writes every byte before it reports success (TurboJPEG, libjpeg,
    /// libpng's `png_read_image` and libwebp all do; on failure the buffer is
    /// discarded). Skipping the zero fill saves a pass over memory: about 6%
    /// of a full-size 24 MP JPEG decode.
    init(decoderOutputCount count: Int) {
        self.init(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
