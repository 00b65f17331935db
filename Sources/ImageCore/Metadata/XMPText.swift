import Foundation

/// Properties read from an XMP packet's text by name, as attributes or as
/// elements, with whatever namespace prefix the writer bound: the one way
/// PhotoDeck reads XMP (Motion Photos' `GCamera`, gain maps' `hdrgm`).
/// Values are short by rule (at most 64 characters each, at most 16 items
/// in a sequence): anything longer is not a value these readers use.
package enum XMPText {
    /// The value of the first property whose local name is `name`, under
    /// any prefix: an attribute (`GCamera:MicroVideo="1"`) or a simple
    /// element (`<GCamera:MicroVideo>1</GCamera:MicroVideo>`), trimmed.
    package static func property(_ name: String, in text: String) -> String? {
        property(name, prefix: #"[A-Za-z0-9_.-]+"#, in: text)
    }

    /// The values of `prefix:name`: one for an attribute or a simple
    /// element, the items in order for an element holding an `rdf:Seq`
    /// (per-channel values); `nil` when the property is not there.
    package static func values(_ name: String, prefix: String, in text: String) -> [String]? {
        let quoted = NSRegularExpression.escapedPattern(for: prefix)
        // A sequence first: its element would also read as a simple one with no text.
        if let pattern = try? Regex(
            #"(?s)<"# + quoted + ":" + name + #">\s*<[A-Za-z0-9_.-]+:(?:Seq|Bag|Alt)\b[^>]{0,256}>(.{0,4096}?)</[A-Za-z0-9_.-]+:(?:Seq|Bag|Alt)>"#),
            let match = text.firstMatch(of: pattern), let items = match.output[1].substring
        {
            let values = String(items).matches(of: #/<[A-Za-z0-9_.-]+:li\b[^>]{0,256}>\s*([^<]{0,64}?)\s*</[A-Za-z0-9_.-]+:li>/#).prefix(16).map {
                String($0.output.1)
            }
            return values.isEmpty ? nil : values
        }
        return property(name, prefix: quoted, in: text).map { [$0] }
    }

    /// The prefix the packet binds to the namespace `uri` (`xmlns:hdrgm="…"`).
    package static func prefix(boundTo uri: String, in text: String) -> String? {
        let quoted = NSRegularExpression.escapedPattern(for: uri)
        guard let pattern = try? Regex(#"xmlns:([A-Za-z0-9_.-]{1,64})\s*=\s*["']"# + quoted + #"["']"#),
            let match = text.firstMatch(of: pattern), let prefix = match.output[1].substring
        else { return nil }
        return String(prefix)
    }

    private static func property(_ name: String, prefix: String, in text: String) -> String? {
        guard
            let pattern = try? Regex(
                #"[\s<]"# + prefix + ":" + name + #"(?:\s*=\s*(?:"([^"]{0,64})"|'([^']{0,64})')|>\s*([^<]{0,64}?)\s*<)"#),
            let match = text.firstMatch(of: pattern)
        else { return nil }
        for group in 1...3 {
            if let found = match.output[group].substring { return String(found).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
