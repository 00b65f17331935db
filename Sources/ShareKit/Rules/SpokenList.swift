extension Array where Element == String {
    /// The items as a sentence offers choices: "a chat", "a chat or
    /// Favorites", "Qzone, QQ Favorites or My Computer".
    package var spokenAlternatives: String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + self[count - 1]
    }
}
