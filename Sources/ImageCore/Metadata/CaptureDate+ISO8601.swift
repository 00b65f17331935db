extension CaptureDate {
    /// Parses the ISO 8601 dates videos record: `2024-05-01T10:20:30Z`
    /// (QuickTime's `creation_time`, with or without fractions of a
    /// second) and `2024-05-01T12:20:30+0200` or `+02:00`
    /// (`com.apple.quicktime.creationdate`). A date with no zone keeps
    /// none. Returns `nil` for any other form; at most 40 bytes are looked at.
    ///
    /// ```swift
    /// let date = CaptureDate(iso8601: "2024-05-01T12:20:30+0200")   // utcOffsetSeconds 7200
    /// ```
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8.prefix(41))
        guard bytes.count >= 19, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            let digits = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > digits else { return nil }
        }
        var offset: Int?
        if index < bytes.count {
            switch bytes[index] {
            case 0x5A:
                offset = 0
                index += 1
            case 0x2B, 0x2D:
                let sign = bytes[index] == 0x2D ? -1 : 1
                let colon = index + 3 < bytes.count && bytes[index + 3] == 0x3A
                guard let hours = number(index + 1..<index + 3), let minutes = colon ? number(index + 4..<index + 6) : number(index + 3..<index + 5),
                    hours <= 14, minutes < 60
                else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
                index += colon ? 6 : 5
            default: return nil
            }
        }
        guard index == bytes.count else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetSeconds: offset)
    }
}
