package import ImageCore

/// The marks a command changes (`--rating`, `--label`, `--tag`,
/// `--untag`), as photo-meta and photo-album read them.
package struct MarkChange: Sendable {
    /// The new rating: −1 rejected, 0 none, 1…5 stars.
    package var rating: Int?
    /// The new label; `.some(nil)`: the label cleared (`--label none`).
    package var label: String??
    /// Tags added, in order.
    package var added: [String] = []
    /// Tags removed.
    package var removed: [String] = []
    /// Whether the marks go to a sidecar rather than into the file (photo-meta's `--sidecar`).
    package var toSidecar = false

    /// No change.
    package init() {}

    /// Whether nothing changes.
    package var isEmpty: Bool { rating == nil && label == nil && added.isEmpty && removed.isEmpty }

    /// The help text's lines for the flags.
    package static let help = """
        --rating: -1 rejected, 0 none, 1...5 stars; --label: red, orange, yellow, green, blue, purple, gray,
        black, white, any other text, or none; --tag adds a keyword (A|B|C: a path of levels), --untag removes one
        """

    /// Reads `flag` when it is one of the marks' (taking its value from
    /// `reader`); `false` for any other flag.
    package mutating func read(_ flag: String, from reader: inout ArgumentReader) throws(CLIError) -> Bool {
        switch flag {
        case "--rating":
            rating = try reader.number(for: flag, in: -1...5)
        case "--label":
            let name = try reader.value(for: flag)
            guard name.utf8.count <= 64, !name.isEmpty else { throw CLIError("--label takes a name of at most 64 bytes") }
            label = name.lowercased() == "none" ? .some(nil) : .some(name)
        case "--tag", "--untag":
            let tag = try reader.value(for: flag)
            guard tag.utf8.count <= 256, tag.contains(where: { $0 != " " }) else { throw CLIError("\(flag) takes a tag of 1 to 256 bytes") }
            if flag == "--tag" { added.append(tag) } else { removed.append(tag) }
        default:
            return false
        }
        return true
    }

    /// `marks` with these changes: a rating of 0 clears it; a colour name
    /// is a colour label; a tag with `|` is a path of levels.
    package func applied(to marks: PhotoAnnotations) -> PhotoAnnotations {
        var marks = marks
        if let rating { marks.rating = rating == 0 ? nil : rating }
        if let label { marks.setLabel(named: label) }
        for tag in added { marks.addTag(tag) }
        for tag in removed { marks.removeTag(tag) }
        return marks
    }
}
