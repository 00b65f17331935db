extension MultipartForm {
    /// One part of a `multipart/form-data` body.
    public struct Part: Hashable, Sendable {
        /// The field name.
        public let name: String
        /// The file name, for a file part.
        public let filename: String?
        /// The part's bytes (text is UTF-8).
        public let data: [UInt8]
    }

    /// The parts of a `multipart/form-data` body, in order: for tests and
    /// dry runs that look at what a provider would send. `nil` when
    /// `contentType` names no boundary; a malformed body yields the parts
    /// before the damage.
    ///
    /// ```swift
    /// let parts = MultipartForm.parts(of: request.body, contentType: form.contentType) ?? []
    /// let status = parts.first { $0.name == "status" }.map { String(decoding: $0.data, as: UTF8.self) }
    /// ```
    public static func parts(of body: [UInt8], contentType: String) -> [Part]? {
        guard let boundary = contentType.components(separatedBy: "boundary=").dropFirst().last?.trimmingQuotes, !boundary.isEmpty else {
            return nil
        }
        let delimiter = Array("\r\n--\(boundary)".utf8)
        let headEnd = Array("\r\n\r\n".utf8)
        var parts: [Part] = []
        var rest = body[...]
        guard let first = rest.firstRange(of: Array("--\(boundary)".utf8)) else { return [] }
        rest = rest[first.upperBound...]
        while let end = rest.firstRange(of: headEnd), let next = rest[end.upperBound...].firstRange(of: delimiter) {
            let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            if let name = Self.parameter("name", in: head) {
                parts.append(Part(name: name, filename: Self.parameter("filename", in: head), data: Array(rest[end.upperBound..<next.lowerBound])))
            }
            rest = rest[next.upperBound...]
        }
        return parts
    }

    /// The value of `key="..."` in a part's headers.
    private static func parameter(_ key: String, in head: String) -> String? {
        for piece in head.components(separatedBy: ";") {
            let trimmed = piece.drop { $0 == " " || $0 == "\r" || $0 == "\n" }
            guard trimmed.hasPrefix("\(key)=\"") else { continue }
            return String(trimmed.dropFirst(key.count + 2).prefix { $0 != "\"" })
        }
        return nil
    }
}

extension String {
    /// The string without the double quotes around it, if it has them.
    fileprivate var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
