/// The durations `--shift` takes: a sign, then units (`1d2h30m15s`) or a
/// clock (`H:MM` or `H:MM:SS`); at most ten thousand years either way.
enum SignedDuration {
    static func seconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= 32, bytes[0] == 0x2B || bytes[0] == 0x2D else { return nil }
        let sign = bytes[0] == 0x2D ? -1 : 1
        let body = bytes.dropFirst()
        var total = 0
        if body.contains(0x3A) {
            let parts = body.split(separator: 0x3A, omittingEmptySubsequences: false).map { Int(String(decoding: $0, as: UTF8.self)) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ ($0 ?? -1) >= 0 }), parts.dropFirst().allSatisfy({ $0! < 60 }) else { return nil }
            total = parts[0]! * 3600 + parts[1]! * 60 + (parts.count == 3 ? parts[2]! : 0)
        } else {
            var number: Int?
            var lastUnit = Int.max
            for byte in body {
                if (0x30...0x39).contains(byte) {
                    number = (number ?? 0) * 10 + Int(byte - 0x30)
                    guard number! <= 100_000_000 else { return nil }
                    continue
                }
                let unit: Int
                switch byte {
                case 0x64: unit = 86_400  // d
                case 0x68: unit = 3600  // h
                case 0x6D: unit = 60  // m
                case 0x73: unit = 1  // s
                default: return nil
                }
                // Each unit once, largest first.
                guard let value = number, unit < lastUnit else { return nil }
                total += value * unit
                lastUnit = unit
                number = nil
            }
            guard number == nil, lastUnit != Int.max else { return nil }
        }
        guard total <= 10_000 * 366 * 86_400 else { return nil }
        return sign * total
    }
}
