import Foundation

extension XMPPacket {
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let dublinCoreNamespace = "http://purl.org/dc/elements/1.1/"
    static let lightroomNamespace = "http://ns.adobe.com/lightroom/1.0/"
    static let digiKamNamespace = "http://www.digikam.org/ns/1.0/"
    static let darktableNamespace = "http://darktable.sf.net/"

    /// A packet holding nothing yet, for a file or a sidecar that has none.
    static let empty = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about=""></rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    /// The marks `text` records (see ``ImageCore/PhotoAnnotations``).
    static func annotations(in text: String) -> PhotoAnnotations {
        var marks = PhotoAnnotations()
        if let prefix = XMPText.prefix(boundTo: basicNamespace, in: text) {
            marks.rating = XMPText.values("Rating", prefix: prefix, in: text)?.first.flatMap { Double($0) }.flatMap { $0.isFinite ? Int($0) : nil }
            if let label = XMPText.values("Label", prefix: prefix, in: text)?.first.map(unescaped), !label.isEmpty {
                if let color = PhotoAnnotations.ColorLabel(name: label) { marks.colorLabel = color } else { marks.label = String(label.prefix(64)) }
            }
        }
        if let prefix = XMPText.prefix(boundTo: digiKamNamespace, in: text) {
            if marks.colorLabel == nil, let number = XMPText.values("ColorLabel", prefix: prefix, in: text)?.first.flatMap({ Int($0) }),
                (1...9).contains(number)
            {
                marks.colorLabel = PhotoAnnotations.ColorLabel.allCases[number - 1]
            }
            marks.pick = XMPText.values("PickLabel", prefix: prefix, in: text)?.first.flatMap { Int($0) }.flatMap(PhotoAnnotations.Pick.init)
        }
        if marks.colorLabel == nil, let prefix = XMPText.prefix(boundTo: darktableNamespace, in: text),
            let number = XMPText.values("colorlabels", prefix: prefix, in: text)?.first.flatMap({ Int($0) })
        {
            marks.colorLabel = PhotoAnnotations.ColorLabel.allCases.first { $0.darktableNumber == number }
        }
        if let prefix = XMPText.prefix(boundTo: dublinCoreNamespace, in: text) { marks.tags = items("subject", prefix: prefix, in: text) }
        if let prefix = XMPText.prefix(boundTo: lightroomNamespace, in: text) {
            marks.hierarchicalTags = items("hierarchicalSubject", prefix: prefix, in: text)
        }
        if marks.hierarchicalTags.isEmpty, let prefix = XMPText.prefix(boundTo: digiKamNamespace, in: text) {
            marks.hierarchicalTags = items("TagsList", prefix: prefix, in: text).map { $0.replacingOccurrences(of: "/", with: "|") }
        }
        return marks
    }

    /// `text` (or a new packet, when `nil`) recording `marks` in place of the
    /// ones it recorded: each property of ``ImageCore/PhotoAnnotations`` removed
    /// and written anew, every other property left byte for byte (darktable's
    /// history, Lightroom's `crs:` settings). digiKam's colour label and tag
    /// list and darktable's colour labels are written where the packet has
    /// their namespace already.
    static func recording(_ marks: PhotoAnnotations, in text: String?) -> String {
        var packet = text ?? empty
        let hadDigiKam = XMPText.prefix(boundTo: digiKamNamespace, in: packet) != nil
        let hadDarktable = XMPText.prefix(boundTo: darktableNamespace, in: packet) != nil
        var attributes: [String] = []
        var elements: [String] = []
        // xmp:Rating and xmp:Label.
        let basic = prefix(for: basicNamespace, preferring: "xmp", in: &packet)
        packet = removing(basic, ["Rating", "Label"], from: packet)
        if let rating = marks.rating { attributes.append(#"\#(basic):Rating="\#(rating)""#) }
        if let label = marks.colorLabel?.lightroomName ?? marks.label { attributes.append(#"\#(basic):Label="\#(escaped(label))""#) }
        // dc:subject and lr:hierarchicalSubject.
        let dc = prefix(for: dublinCoreNamespace, preferring: "dc", in: &packet)
        packet = removing(dc, ["subject"], from: packet)
        if !marks.tags.isEmpty { elements.append(list("Bag", dc + ":subject", marks.tags, in: packet)) }
        if !marks.hierarchicalTags.isEmpty || XMPText.prefix(boundTo: lightroomNamespace, in: packet) != nil {
            let lr = prefix(for: lightroomNamespace, preferring: "lr", in: &packet)
            packet = removing(lr, ["hierarchicalSubject"], from: packet)
            if !marks.hierarchicalTags.isEmpty { elements.append(list("Bag", lr + ":hierarchicalSubject", marks.hierarchicalTags, in: packet)) }
        }
        if hadDigiKam || marks.pick != nil {
            let digiKam = prefix(for: digiKamNamespace, preferring: "digiKam", in: &packet)
            packet = removing(digiKam, ["PickLabel"] + (hadDigiKam ? ["ColorLabel", "TagsList"] : []), from: packet)
            if let pick = marks.pick { attributes.append(#"\#(digiKam):PickLabel="\#(pick.rawValue)""#) }
            if hadDigiKam {
                attributes.append(#"\#(digiKam):ColorLabel="\#(marks.colorLabel?.digiKamNumber ?? 0)""#)
                let paths = marks.hierarchicalTags.map { $0.replacingOccurrences(of: "|", with: "/") }
                if !paths.isEmpty { elements.append(list("Seq", digiKam + ":TagsList", paths, in: packet)) }
            }
        }
        if hadDarktable {
            let darktable = prefix(for: darktableNamespace, preferring: "darktable", in: &packet)
            packet = removing(darktable, ["colorlabels"], from: packet)
            if let number = marks.colorLabel?.darktableNumber { elements.append(list("Seq", darktable + ":colorlabels", ["\(number)"], in: packet)) }
        }
        return inserting(attributes: attributes, elements: elements, into: packet)
    }

    // MARK: Writing pieces

    /// The prefix `namespace` is bound to in `packet`, binding `preferred`
    /// (or a numbered variant not bound elsewhere) on the first description when it is not.
    private static func prefix(for namespace: String, preferring preferred: String, in packet: inout String) -> String {
        if let bound = XMPText.prefix(boundTo: namespace, in: packet) { return bound }
        var name = preferred
        var number = 1
        while packet.contains("xmlns:\(name)=") {
            number += 1
            name = "\(preferred)\(number)"
        }
        packet = inserting(attributes: [#"xmlns:\#(name)="\#(namespace)""#], elements: [], into: packet)
        return name
    }

    /// `packet` without the properties `prefix:name`, as attributes or elements.
    private static func removing(_ prefix: String, _ names: [String], from packet: String) -> String {
        var bytes = Array(packet.utf8)
        for name in names {
            bytes = XMLBytes.removingAttributes(prefix: prefix, localName: name, from: XMLBytes.removingElements(prefix: prefix, localName: name, from: bytes))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An `rdf:Bag` or `rdf:Seq` property element.
    private static func list(_ kind: String, _ qualified: String, _ values: [String], in packet: String) -> String {
        let rdf = XMPText.prefix(boundTo: rdfNamespace, in: packet) ?? "rdf"
        let items = values.map { "<\(rdf):li>\(escaped($0))</\(rdf):li>" }.joined()
        return "<\(qualified)><\(rdf):\(kind)>\(items)</\(rdf):\(kind)></\(qualified)>"
    }

    /// `packet` with `attributes` added to its first `rdf:Description` start
    /// tag and `elements` as its first children (an empty tag opened up).
    private static func inserting(attributes: [String], elements: [String], into packet: String) -> String {
        guard !attributes.isEmpty || !elements.isEmpty else { return packet }
        let rdf = XMPText.prefix(boundTo: rdfNamespace, in: packet) ?? "rdf"
        guard let start = packet.range(of: "<\(rdf):Description"), let close = tagClose(in: packet, from: start.upperBound) else {
            // No description to add to: one of our own inside rdf:RDF.
            let description = "<\(rdf):Description \(rdf):about=\"\" " + attributes.joined(separator: " ") + ">" + elements.joined() + "</\(rdf):Description>"
            return adding(description: description, to: packet) ?? packet
        }
        let isEmpty = packet[packet.index(before: close)] == "/"
        let tagEnd = isEmpty ? packet.index(before: close) : close
        var result = String(packet[..<tagEnd])
        if !attributes.isEmpty { result += " " + attributes.joined(separator: " ") }
        if isEmpty {
            result += ">" + elements.joined() + "</\(rdf):Description>"
        } else {
            result += ">" + elements.joined()
        }
        return result + String(packet[packet.index(after: close)...])
    }

    /// The `>` closing the tag whose attributes start at `from`, skipping quoted values.
    private static func tagClose(in text: String, from start: String.Index) -> String.Index? {
        var quote: Character?
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    // MARK: Reading pieces

    /// The items of a `prefix:name` Bag, Seq or Alt (at most 1,000, each at most 256 characters), unescaped.
    static func items(_ name: String, prefix: String, in text: String) -> [String] {
        let qualified = NSRegularExpression.escapedPattern(for: prefix) + ":" + name
        guard let pattern = try? Regex(#"(?s)<"# + qualified + #"\b[^>]{0,256}>(.*?)</"# + qualified + #"\s*>"#), let match = text.firstMatch(of: pattern),
            let body = match.output[1].substring
        else { return [] }
        return String(body).matches(of: #/<[A-Za-z0-9_.-]+:li\b[^>]{0,256}>([^<]{0,256})</[A-Za-z0-9_.-]+:li>/#).prefix(1000).map {
            unescaped(String($0.output.1)).trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&apos;")
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
