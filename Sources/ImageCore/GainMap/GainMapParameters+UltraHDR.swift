import Foundation

extension GainMapParameters {
    /// The namespace of Ultra HDR's and Adobe's gain map XMP (`hdrgm:`).
    public static let ultraHDRNamespace = "http://ns.adobe.com/hdr-gain-map/1.0/"

    /// The largest XMP packet ``init(ultraHDRXMP:)`` reads: 1 MiB.
    public static let maximumXMPBytes = 1 << 20

    /// Reads the `hdrgm:` properties of an XMP packet (Ultra HDR v1,
    /// Adobe's gain map specification), as attributes or elements, each
    /// one value or three (`rdf:Seq`, per channel), under whatever prefix
    /// the packet binds to ``ultraHDRNamespace``. `Version`, `GainMapMax`
    /// and `HDRCapacityMax` must be there; the rest take the format's
    /// defaults (`GainMapMin` 0, `Gamma` 1, offsets 1/64, `HDRCapacityMin`
    /// 0, `BaseRenditionIsHDR` False). Stops stay stops, as the XMP writes them.
    ///
    /// - Throws: ``GainMapError/missing(field:)`` for a required property;
    ///   ``GainMapError/invalidValue(field:value:)`` for one that is not a
    ///   number (or a Boolean), has two values or is out of range, and for
    ///   a packet over ``maximumXMPBytes``.
    public init(ultraHDRXMP text: String) throws(GainMapError) {
        // A JPEG's XMP segment holds 64 KiB; extended XMP a few more: a megabyte is not a packet.
        guard text.utf8.count <= Self.maximumXMPBytes else {
            throw .invalidValue(field: "XMP packet", value: "\(text.utf8.count) bytes, over 1 MiB")
        }
        guard let prefix = XMPText.prefix(boundTo: Self.ultraHDRNamespace, in: text) else { throw .missing(field: "hdrgm namespace") }
        guard XMPText.values("Version", prefix: prefix, in: text) != nil else { throw .missing(field: "hdrgm:Version") }

        func numbers(_ name: String, default fallback: Double?) throws(GainMapError) -> [Double] {
            guard let values = XMPText.values(name, prefix: prefix, in: text) else {
                guard let fallback else { throw .missing(field: "hdrgm:" + name) }
                return [fallback]
            }
            guard values.count == 1 || values.count == 3 else { throw .invalidValue(field: "hdrgm:" + name, value: "\(values.count) values") }
            var numbers: [Double] = []
            for value in values {
                // Decimal notation only: "nan", "inf" and hexadecimal are not what a writer means.
                guard value.utf8.count <= 32, value.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }), let number = Double(value) else {
                    throw .invalidValue(field: "hdrgm:" + name, value: String(value.prefix(32)))
                }
                numbers.append(number)
            }
            return numbers
        }

        let minimum = try numbers("GainMapMin", default: 0)
        let maximum = try numbers("GainMapMax", default: nil)
        let gamma = try numbers("Gamma", default: 1)
        let baseOffset = try numbers("OffsetSDR", default: 1.0 / 64)
        let alternateOffset = try numbers("OffsetHDR", default: 1.0 / 64)
        let capacityMinimum = try numbers("HDRCapacityMin", default: 0)
        let capacityMaximum = try numbers("HDRCapacityMax", default: nil)
        guard capacityMinimum.count == 1, capacityMaximum.count == 1 else { throw .invalidValue(field: "hdrgm:HDRCapacity", value: "per channel") }
        let baseIsHDR: Bool
        switch XMPText.values("BaseRenditionIsHDR", prefix: prefix, in: text)?.first?.lowercased() {
        case nil, "false": baseIsHDR = false
        case "true": baseIsHDR = true
        case let other?: throw .invalidValue(field: "hdrgm:BaseRenditionIsHDR", value: String(other.prefix(32)))
        }

        let perChannel = [minimum, maximum, gamma, baseOffset, alternateOffset]
        let count = perChannel.contains { $0.count == 3 } ? 3 : 1
        func at(_ values: [Double], _ index: Int) -> Double { values.count == 1 ? values[0] : values[index] }
        let channels = (0..<count).map { index in
            Channel(
                minimumBoost: at(minimum, index), maximumBoost: at(maximum, index), gamma: at(gamma, index), baseOffset: at(baseOffset, index),
                alternateOffset: at(alternateOffset, index))
        }
        // ISO's terms: the base is made for HDRCapacityMin's headroom, unless it is the HDR picture.
        let (base, alternate) = baseIsHDR ? (capacityMaximum[0], capacityMinimum[0]) : (capacityMinimum[0], capacityMaximum[0])
        try self.init(channels: channels, baseHeadroom: base, alternateHeadroom: alternate)
    }

    /// The parameters as an XMP packet's `rdf:Description` of `hdrgm:`
    /// properties (Ultra HDR v1's gain map XMP), per-channel values as
    /// `rdf:Seq`: ``init(ultraHDRXMP:)`` reads it back exactly.
    public var ultraHDRXMP: String {
        func number(_ value: Double) -> String { "\(value)" }
        let capacityMinimum = min(baseHeadroom, alternateHeadroom)
        let capacityMaximum = max(baseHeadroom, alternateHeadroom)
        var attributes = [
            ("Version", "1.0"), ("HDRCapacityMin", number(capacityMinimum)), ("HDRCapacityMax", number(capacityMaximum)),
            ("BaseRenditionIsHDR", baseIsHDR ? "True" : "False"),
        ]
        var elements: [String] = []
        let fields: [(String, KeyPath<Channel, Double>)] = [
            ("GainMapMin", \.minimumBoost), ("GainMapMax", \.maximumBoost), ("Gamma", \.gamma), ("OffsetSDR", \.baseOffset), ("OffsetHDR", \.alternateOffset),
        ]
        for (name, field) in fields {
            if channels.count == 1 {
                attributes.append((name, number(channels[0][keyPath: field])))
            } else {
                let items = channels.map { "<rdf:li>\(number($0[keyPath: field]))</rdf:li>" }.joined()
                elements.append("<hdrgm:\(name)><rdf:Seq>\(items)</rdf:Seq></hdrgm:\(name)>")
            }
        }
        let attributeText = attributes.map { " hdrgm:\($0.0)=\"\($0.1)\"" }.joined()
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:hdrgm="\(Self.ultraHDRNamespace)"\(attributeText)>\(elements.joined())</rdf:Description>\
            </rdf:RDF></x:xmpmeta>
            """
    }
}
