/// What people mark a photo with to sort and pick before they share: a
/// star rating, a colour label, a pick flag and tags, as XMP records them
/// for the photo apps that read each other's files (Lightroom, digiKam,
/// darktable, Bridge). Read and written by ImageCodecs, in the file or in
/// a sidecar (`IMG_0001.jpg.xmp`).
///
/// | field | XMP property |
/// |---|---|
/// | ``rating`` | `xmp:Rating` (−1 rejected, 0 none, 1…5 stars) |
/// | ``colorLabel`` | `xmp:Label` (Lightroom's colour names); `digiKam:ColorLabel` and `darktable:colorlabels` where the packet has them |
/// | ``label`` | `xmp:Label` when it is not a colour name ("Approved", "To Do") |
/// | ``pick`` | `digiKam:PickLabel` |
/// | ``tags`` | `dc:subject` |
/// | ``hierarchicalTags`` | `lr:hierarchicalSubject` (`Places|France|Paris`); `digiKam:TagsList` (`Places/France/Paris`) where the packet has it |
///
/// ```swift
/// var marks = PhotoAnnotations()
/// marks.rating = 4
/// marks.colorLabel = .green
/// marks.tags = ["Paris", "holiday"]
/// ```
public struct PhotoAnnotations: Hashable, Sendable {
    /// A colour label. digiKam has nine, darktable five, Lightroom five;
    /// each is written in every vocabulary that has it.
    public enum ColorLabel: String, CaseIterable, Hashable, Sendable {
        /// Red (digiKam 1, darktable 0, Lightroom "Red").
        case red
        /// Orange (digiKam 2).
        case orange
        /// Yellow (digiKam 3, darktable 1, Lightroom "Yellow").
        case yellow
        /// Green (digiKam 4, darktable 2, Lightroom "Green").
        case green
        /// Blue (digiKam 5, darktable 3, Lightroom "Blue").
        case blue
        /// Purple, digiKam's magenta (digiKam 6, darktable 4, Lightroom "Purple").
        case purple
        /// Gray (digiKam 7).
        case gray
        /// Black (digiKam 8).
        case black
        /// White (digiKam 9).
        case white

        /// The name Lightroom writes in `xmp:Label`.
        public var lightroomName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

        /// digiKam's `ColorLabel` number (1 red … 9 white).
        public var digiKamNumber: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

        /// darktable's `colorlabels` number (0 red, 1 yellow, 2 green, 3 blue, 4 purple); `nil` for the others.
        public var darktableNumber: Int? { [.red: 0, .yellow: 1, .green: 2, .blue: 3, .purple: 4][self] }

        /// The label a name means: Lightroom's, the raw values, "magenta" and "grey".
        public init?(name: String) {
            let lowered = name.lowercased()
            switch lowered {
            case "magenta": self = .purple
            case "grey": self = .gray
            default: self.init(rawValue: lowered)
            }
        }
    }

    /// digiKam's pick label.
    public enum Pick: Int, Hashable, Sendable {
        /// Rejected (1).
        case rejected = 1
        /// Pending (2).
        case pending = 2
        /// Accepted (3).
        case accepted = 3
    }

    /// Stars, −1 (rejected) to 5; `nil`: none recorded.
    public var rating: Int? {
        didSet { if let rating, !(-1...5).contains(rating) { self.rating = oldValue } }
    }
    /// The colour label.
    public var colorLabel: ColorLabel?
    /// A text label that is not a colour ("Approved"); at most 64 characters.
    public var label: String?
    /// digiKam's pick flag.
    public var pick: Pick?
    /// Keywords (`dc:subject`), in order, each at most 256 characters.
    public var tags: [String] = []
    /// Keyword paths (`lr:hierarchicalSubject`), levels joined by `|`.
    public var hierarchicalTags: [String] = []

    /// No marks.
    public init() {}

    /// Whether nothing is marked.
    public var isEmpty: Bool { self == PhotoAnnotations() }

    /// Sets the label by name: a colour's name ("green", Lightroom's
    /// "Green", "magenta") sets ``colorLabel``, any other text ``label``;
    /// `nil` clears both.
    public mutating func setLabel(named name: String?) {
        colorLabel = name.flatMap(ColorLabel.init(name:))
        label = colorLabel == nil ? name.map { String($0.prefix(64)) } : nil
    }

    /// Adds a tag: its last level to ``tags`` (`Paris`), and a path of
    /// levels (`Places|France|Paris`) to ``hierarchicalTags`` too, as
    /// Lightroom and digiKam write a keyword; nothing already there twice.
    public mutating func addTag(_ tag: String) {
        let leaf = tag.split(separator: "|").last.map { String($0).trimmingCharacters(in: " ") } ?? tag
        if !leaf.isEmpty, !tags.contains(leaf) { tags.append(String(leaf.prefix(256))) }
        if tag.contains("|"), !hierarchicalTags.contains(tag) { hierarchicalTags.append(tag) }
    }

    /// Removes a tag: a keyword (and every path that ends with it), or a
    /// path (and its last level as a keyword).
    public mutating func removeTag(_ tag: String) {
        let leaf = tag.split(separator: "|").last.map(String.init) ?? tag
        tags.removeAll { $0 == leaf || $0 == tag }
        hierarchicalTags.removeAll { $0 == tag || $0.hasSuffix("|" + tag) }
    }
}

extension String {
    /// The string without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
