import Foundation

/// Location taken out of an XMP packet, for a policy that keeps XMP but not
/// location (``ImageCore/MetadataPolicy/keepsEverythingElse`` without
/// ``ImageCore/MetadataPolicy/keepsLocation``; the built-in policies keep both or neither).
///
/// The properties removed, as attributes or as elements, with whatever
/// namespace prefix the writer bound (the local names are what matter):
/// EXIF's `GPS*` (`exif:GPSLatitude`...), Photoshop's `City`, `State` and
/// `Country`, IPTC Core's `Location` and `CountryCode`, IPTC Extension's
/// `LocationCreated` and `LocationShown`.
enum XMPPacket {
    /// `packet` (an APP1 XMP payload, prefix included, or a bare packet)
    /// without location properties, unless `keep`; and whether it had any.
    /// The local names in `keeping` stay (a position just written).
    static func removingLocation(_ packet: [UInt8], unless keep: Bool, keeping: Set<String> = []) -> (packet: [UInt8], hadLocation: Bool) {
        guard !keep else { return (packet, false) }
        var text = String(decoding: packet, as: UTF8.self)
        let kept = keeping.isEmpty ? "" : "(?!(?:" + keeping.sorted().joined(separator: "|") + #")\b)"#
        let names = #"(?:"# + kept + #"GPS[A-Za-z0-9]*|City|State|Country|CountryCode|Location|LocationCreated|LocationShown)"#
        let attribute = try! Regex(#"\s+[A-Za-z0-9_]+:"# + names + #"\s*=\s*(?:"[^"]*"|'[^']*')"#)
        let selfClosing = try! Regex(#"<([A-Za-z0-9_]+):"# + names + #"\b[^>]*/>"#)
        let element = try! Regex(#"(?s)<([A-Za-z0-9_]+:"# + names + #")\b[^>]*>.*?</\1\s*>"#)
        var changed = false
        for pattern in [element, selfClosing, attribute] {
            let replaced = text.replacing(pattern, with: "")
            if replaced != text {
                changed = true
                text = replaced
            }
        }
        return changed ? (Array(text.utf8), true) : (packet, false)
    }
}

extension XMPPacket {
    /// The GContainer namespace: the directory of an Ultra HDR (or Motion
    /// Photo) file's pictures.
    static let containerNamespace = "http://ns.google.com/photos/1.0/container/"

    /// `text` without what makes a photo's XMP name a gain map: the
    /// GContainer `Directory` element and every `hdrgm:` property (under
    /// whatever prefixes the packet binds to those namespaces); `nil` when
    /// nothing else is left (Android's Ultra HDR packet holds only these).
    static func removingGainMapDirectory(_ text: String) -> String? {
        // Scanned byte by byte: a regular expression with a backreference took ~80 ms a packet.
        var bytes = Array(text.utf8)
        if let container = XMPText.prefix(boundTo: containerNamespace, in: text) {
            bytes = XMLBytes.removingElements(prefix: container, localName: "Directory", from: bytes)
        }
        if let hdrgm = XMPText.prefix(boundTo: GainMapParameters.ultraHDRNamespace, in: text) {
            bytes = XMLBytes.removingAttributes(prefix: hdrgm, from: XMLBytes.removingElements(prefix: hdrgm, localName: nil, from: bytes))
        }
        let kept = String(decoding: bytes, as: UTF8.self)
        return holdsProperties(kept) ? kept : nil
    }

    /// Whether a packet holds any property: an attribute or an element
    /// outside the frame (`x:`, `rdf:`, `xml:`, namespace declarations).
    static func holdsProperties(_ text: String) -> Bool {
        let frame: Set<Substring> = ["x", "rdf", "xml", "xmlns"]
        for match in text.matches(of: #/[\s<]([A-Za-z_][A-Za-z0-9_.-]*):[A-Za-z_][A-Za-z0-9_.-]*/#) where !frame.contains(match.output.1) {
            return true
        }
        return false
    }

    /// `description` (an `rdf:Description` element) added to `text`'s
    /// `rdf:RDF`, beside what is there; `nil` when the packet has no RDF
    /// element to add it to.
    static func adding(description: String, to text: String) -> String? {
        guard let end = text.ranges(of: #/</([A-Za-z0-9_.-]+:)?RDF\s*>/#).last else { return nil }
        return String(text[..<end.lowerBound]) + description + String(text[end.lowerBound...])
    }
}
