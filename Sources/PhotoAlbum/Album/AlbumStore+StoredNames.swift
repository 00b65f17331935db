import ImageCodecs

extension AlbumStore {
    // MARK: Stored originals' names: made once here, and read back (a claim) here

    /// The name a stored original gets: `ab/<sha256>.<ext>`, in the shard
    /// of its first two digits. The extension is the format's first, or
    /// the one of `name` (the file's own) when it is another of the
    /// format's: a camera's raw file keeps its maker's (`.nef`, `.cr2`),
    /// which the tools that open a store's files go by.
    static func storedName(_ id: String, format: ImageFormat, named name: String? = nil) -> String {
        var fileExtension = format.fileExtensions.first ?? format.identifier
        if let name, let dot = name.lastIndex(of: ".") {
            let own = name[name.index(after: dot)...].lowercased()
            if format.fileExtensions.contains(own) { fileExtension = own }
        }
        return "\(id.prefix(2))/\(id).\(fileExtension)"
    }

    /// The asset id of a stored original's path (`ab/<64 hex>.<ext>`, in
    /// the shard of its first two digits), or `nil` for any other name.
    static func storedID(of relative: String) -> String? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let name = parts[1]
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let id = name[..<dot]
        let fileExtension = name[name.index(after: dot)...]
        guard id.count == 64, id.allSatisfy(\.isLowercaseHexDigit), id.hasPrefix(parts[0]),
            (1...8).contains(fileExtension.count), fileExtension.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
        else { return nil }
        return String(id)
    }
}
