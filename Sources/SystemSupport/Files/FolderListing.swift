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
        try items(in: path).map(\.name).sorted()
    }

    /// One entry of a folder: its name and, when the folder's file system
    /// says so without a `stat`, its kind (symbolic links are not followed).
    package struct Item: Hashable, Sendable {
        /// The entry's name (not a path).
        package var name: String
        /// `d_type`'s kind, or `nil` when the file system does not tell.
        package var kind: FileKind?
    }

    /// The entries of the folder at `path` (not `.` or `..`), unsorted, with
    /// their kinds where `readdir` knows them: listing a folder of 10,000
    /// files this way costs no `stat` per file.
    package static func items(in path: String) throws(SystemError) -> [Item] {
        guard let directory = opendir(path) else { throw .current("listing", path: path) }
        defer { closedir(directory) }
        var items: [Item] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: FileKind? =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): .regular
                case Int32(DT_DIR): .folder
                case Int32(DT_LNK): .symbolicLink
                case Int32(DT_FIFO): .fifo
                case Int32(DT_SOCK): .socket
                case Int32(DT_CHR): .characterDevice
                case Int32(DT_BLK): .blockDevice
                default: nil
                }
            items.append(Item(name: name, kind: kind))
        }
        return items
    }
}
