extension GeoLocation {
    /// The most text ``appears(in:)`` reads; a longer text is not looked
    /// at whole, so it counts as holding a position (a caller that must not
    /// let one out drops it).
    public static let maxScannedLength = 4_096

    /// Whether `text` holds a position in any of the forms people and
    /// devices write one: ISO 6709 (`+48.8583+002.2944/`, degrees-minutes
    /// `+4851.50+00217.67`), a pair of decimal degrees (`48.8583, 2.2944`,
    /// `-33.8568 151.2153`), degrees with hemisphere letters (`48°51'30"N
    /// 2°17'40"E`, `N48.8583 E2.2944`, `48.8583N 2.2944E`). For a value kept
    /// by name (a track's `handler_name`, a camera's `make`) that must still
    /// not carry a place out: a false alarm costs one tag, a miss the
    /// place. Text over ``maxScannedLength`` UTF-8 bytes counts as holding one.
    ///
    /// ```swift
    /// let plain = GeoLocation.appears(in: "Core Media Video")                  // false
    /// let placed = GeoLocation.appears(in: "VideoHandler +48.8583+002.2944/")  // true
    /// ```
    public static func appears(in text: String) -> Bool {
        guard text.utf8.count <= maxScannedLength else { return true }
        let tokens = PositionToken.scan(text)
        for (index, token) in tokens.enumerated() {
            guard case .number(let first) = token else { continue }
            // ISO 6709: signed latitude of 2, 4 or 6 whole digits, then signed longitude of 3, 5 or 7, adjacent.
            if first.signed, first.adjacentToNext, index + 1 < tokens.count, case .number(let second) = tokens[index + 1], second.signed,
                [(2, 3), (4, 5), (6, 7)].contains(where: { $0 == (first.wholeDigits, second.wholeDigits) })
            {
                return true
            }
            // Two decimal degrees in range, each with 3 or more decimals, with at most separators and labels between.
            if first.decimals >= 3, abs(first.value) <= 90 {
                var next = index + 1
                while next < tokens.count, next <= index + 3, tokens[next].isBetweenCoordinates { next += 1 }
                if next < tokens.count, case .number(let second) = tokens[next], second.decimals >= 3, abs(second.value) <= 180 { return true }
            }
        }
        // Hemisphere letters beside degrees: N or S and E or W, each next to a number (or after a degree sign).
        var latitude = false
        var longitude = false
        for (index, token) in tokens.enumerated() {
            guard case .hemisphere(let letter) = token else { continue }
            let before = index > 0 ? tokens[index - 1] : nil
            let after = index + 1 < tokens.count ? tokens[index + 1] : nil
            let besideDegrees = [before, after].contains { token in
                switch token {
                case .number(let number)?: return number.decimals > 0 || number.degreeSigned
                case .degrees?: return true
                default: return false
                }
            }
            guard besideDegrees else { continue }
            if letter == "N" || letter == "S" { latitude = true } else { longitude = true }
        }
        return latitude && longitude
    }
}

/// The pieces of a text ``GeoLocation/appears(in:)`` reads.
private enum PositionToken {
    struct Number {
        var value: Double
        var wholeDigits: Int
        var decimals: Int
        /// Whether it had a + or - sign.
        var signed: Bool
        /// Whether the next token starts right after it (ISO 6709 has no spaces).
        var adjacentToNext: Bool
        /// Whether a degree sign (°, º) follows it.
        var degreeSigned: Bool
    }

    case number(Number)
    /// A lone N, S, E or W (not part of a word).
    case hemisphere(Character)
    /// A comma, semicolon, slash, colon or equals sign between two numbers (spaces are skipped).
    case separator
    /// A word that names a coordinate: lat, latitude, lon, lng, long, longitude.
    case label
    /// Minutes and seconds marks, which continue a degrees-minutes-seconds run.
    case degrees
    /// Anything else: a word, another symbol.
    case other

    /// Whether the token may stand between a latitude and its longitude.
    var isBetweenCoordinates: Bool {
        switch self {
        case .separator, .label: true
        default: false
        }
    }

    static let labels: Set<String> = ["lat", "latitude", "lon", "lng", "long", "longitude"]

    static func scan(_ text: String) -> [PositionToken] {
        let characters = Array(text)
        var tokens: [PositionToken] = []
        var index = 0
        func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                if case .number(var number)? = tokens.last, number.adjacentToNext {
                    number.adjacentToNext = false
                    tokens[tokens.count - 1] = .number(number)
                }
                index += 1
                continue
            }
            let signed = (character == "+" || character == "-") && index + 1 < characters.count && isDigit(characters[index + 1])
            if signed || isDigit(character) {
                var end = index + (signed ? 1 : 0)
                var whole = 0
                while end < characters.count, isDigit(characters[end]), whole < 12 {
                    end += 1
                    whole += 1
                }
                var decimals = 0
                if end + 1 < characters.count, characters[end] == "." || characters[end] == ",", isDigit(characters[end + 1]),
                    characters[end] == "." || whole <= 3
                {
                    end += 1
                    while end < characters.count, isDigit(characters[end]), decimals < 12 {
                        end += 1
                        decimals += 1
                    }
                }
                let literal = String(characters[index..<end]).replacingOccurrences(of: ",", with: ".")
                let degreeSigned = end < characters.count && (characters[end] == "°" || characters[end] == "º")
                tokens.append(
                    .number(
                        Number(
                            value: Double(literal) ?? 0, wholeDigits: whole, decimals: decimals, signed: signed, adjacentToNext: true,
                            degreeSigned: degreeSigned)))
                index = end
                continue
            }
            if character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter, end - index < 16 { end += 1 }
                let word = String(characters[index..<end])
                if word.count == 1, "NSEW".contains(character) {
                    tokens.append(.hemisphere(character))
                } else {
                    tokens.append(labels.contains(word.lowercased()) ? .label : .other)
                }
                index = end
                continue
            }
            if ",;/:=".contains(character) {
                tokens.append(.separator)
            } else if "°º'′\"″".contains(character) {
                tokens.append(.degrees)
            } else {
                tokens.append(.other)
            }
            index += 1
        }
        return tokens
    }
}
