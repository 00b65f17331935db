#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing a folder's entries.
package enum FolderListing {
    /// The names in the folder at `path` (not `.` or `..`), sorted; empty
    /// when it cannot be opened.
    ///
    /// A `dirent`'s name is read up to its NUL only: glibc packs entries
    /// into its buffer by their real length, so the last one's 256-byte
    /// `d_name` field may run past the buffer's end (AddressSanitizer saw a
    /// 30,000-file folder read past it when the whole field was copied).
    package static func names(in path: String) -> [String] { (try? entries(in: path)) ?? [] }

    /// The names in the folder at `path` (not `.` or `..`), sorted, or the
    /// error that kept it from being opened.
    package static func entries(in path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw .current("listing", path: path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
