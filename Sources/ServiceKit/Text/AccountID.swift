extension String {
    /// Whether the string can be an account id a service issued (an
    /// openid, a unionid): 1 to 128 ASCII letters, digits, `-` and `_`.
    /// A server's answer is a claim; anything else is refused before it is
    /// stored or used in a path.
    package var isPlausibleAccountID: Bool {
        !isEmpty && utf8.count <= 128
            && unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The string when it is a plausible account id (``isPlausibleAccountID``), else `nil`.
    package var plausibleAccountID: String? { isPlausibleAccountID ? self : nil }
}
