extension GeoLocation {
    /// Parses the ISO 6709 text videos carry their place in
    /// (`com.apple.quicktime.location.ISO6709`, MP4's `©xyz`): decimal
    /// degrees, signed, with an optional altitude and a closing `/` or
    /// CRS suffix, as `+35.6586+139.7454+040.000/`. Returns `nil` for
    /// text in any other form (degrees-minutes forms included) or out of
    /// range; at most 64 bytes are looked at.
    ///
    /// ```swift
    /// let place = GeoLocation(iso6709: "+48.8577+002.2950/")   // 48.85770° N, 2.29500° E
    /// ```
    public init?(iso6709 text: String) {
        let bytes = Array(text.utf8.prefix(65))
        guard bytes.count <= 64 else { return nil }
        var numbers: [Double] = []
        var index = 0
        while index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            var end = index + 1
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == 0x2E { end += 1 }
            guard end > index + 1, let value = Double(String(decoding: bytes[index..<end], as: UTF8.self)) else { return nil }
            numbers.append(value)
            index = end
        }
        // What follows the numbers may only be the terminator or a CRS tag ("CRSWGS_84/").
        guard (2...3).contains(numbers.count), index == bytes.count || bytes[index] == 0x2F || bytes[index] == 0x43 else { return nil }
        self.init(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count == 3 ? numbers[2] : nil)
    }
}
