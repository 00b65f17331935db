/// Marks as JSON, for a store's index or journal: `{"rating":4,
/// "colorLabel":"green","tags":["Paris"]}`. What was written earlier is
/// a claim too: a field out of range or too long is dropped, not the marks.
extension PhotoAnnotations: Codable {
    /// The most tags (and hierarchical tags) read back.
    public static let maxTagCount = 1_000

    private enum CodingKeys: String, CodingKey {
        case rating, colorLabel, label, pick, tags, hierarchicalTags
    }

    /// Reads marks, dropping each field that is out of range: a rating
    /// outside −1…5, an unknown colour or pick, a label over 64 characters,
    /// tags over 256 characters (and past ``maxTagCount``).
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rating = ((try? container.decodeIfPresent(Int.self, forKey: .rating)) ?? nil).flatMap { (-1...5).contains($0) ? $0 : nil }
        colorLabel = ((try? container.decodeIfPresent(String.self, forKey: .colorLabel)) ?? nil).flatMap(ColorLabel.init(rawValue:))
        label = ((try? container.decodeIfPresent(String.self, forKey: .label)) ?? nil).flatMap { $0.count <= 64 && !$0.isEmpty ? $0 : nil }
        pick = ((try? container.decodeIfPresent(Int.self, forKey: .pick)) ?? nil).flatMap(Pick.init(rawValue:))
        tags = Self.tags((try? container.decodeIfPresent([String].self, forKey: .tags)) ?? nil)
        hierarchicalTags = Self.tags((try? container.decodeIfPresent([String].self, forKey: .hierarchicalTags)) ?? nil)
    }

    /// Writes the fields that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(rating, forKey: .rating)
        try container.encodeIfPresent(colorLabel?.rawValue, forKey: .colorLabel)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encodeIfPresent(pick?.rawValue, forKey: .pick)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        if !hierarchicalTags.isEmpty { try container.encode(hierarchicalTags, forKey: .hierarchicalTags) }
    }

    private static func tags(_ read: [String]?) -> [String] {
        (read ?? []).filter { !$0.isEmpty && $0.count <= 256 }.prefix(maxTagCount).map { $0 }
    }
}
