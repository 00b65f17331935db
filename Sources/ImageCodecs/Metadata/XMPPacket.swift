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
    static func removingLocation(_ packet: [UInt8], unless keep: Bool) -> (packet: [UInt8], hadLocation: Bool) {
        guard !keep else { return (packet, false) }
        var text = String(decoding: packet, as: UTF8.self)
        let names = #"(?:GPS[A-Za-z0-9]*|City|State|Country|CountryCode|Location|LocationCreated|LocationShown)"#
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
