import SafeText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder the package owns (a cache's, a store's) and the names in it
/// that the package made: the one check between a name read back from an
/// index or a journal and a file operation.
///
/// - ``prepare(_:)`` makes the folder (mode 0700, missing parents too) or
///   checks the one there: it must be a real folder of this user's, never a
///   symbolic link (it is opened with `O_DIRECTORY | O_NOFOLLOW`, so a link
///   planted there is refused, not followed), and a mode wider than 0700 is
///   narrowed to 0700. ``check(_:)`` is the same check for a reader, which
///   makes nothing.
/// - ``path(of:)`` turns a stored name into a path only when the owner's
///   rule says the store makes names of that shape, and the name is one
///   plain component (no `/`, not `.` or `..`, no NUL): a row naming
///   `../../Documents` is refused before anything touches it.
/// - ``remove(_:)`` unlinks such a file: one file, never a folder's
///   contents, never what a link points to.
///
/// ```swift
/// let data = try OwnedFolder(path: "\(cache)/data", ownNames: { $0.hasSuffix(".entry") })
/// try data.remove(file)   // refused unless file has an entry's shape
/// ```
package struct OwnedFolder: Sendable {
    /// The folder.
    package let path: String
    /// Whether the store makes a name of this shape.
    package let isOwnName: @Sendable (String) -> Bool

    /// Prepares the folder at `path` (``prepare(_:)``) for names that
    /// `ownNames` accepts.
    package init(path: String, ownNames: @escaping @Sendable (String) -> Bool) throws(SystemError) {
        try Self.prepare(path)
        self.path = path
        isOwnName = ownNames
    }

    /// A folder whose names are checked but which is not prepared (one
    /// whose owner checks it otherwise, or a test).
    package init(unpreparedPath path: String, ownNames: @escaping @Sendable (String) -> Bool) {
        self.path = path
        isOwnName = ownNames
    }

    /// The path of `name` in the folder, when it is a name the store makes.
    package func path(of name: String) throws(SystemError) -> String {
        guard Self.isPlainName(name), isOwnName(name) else {
            throw SystemError(
                operation: "using the stored name", path: "\(path)/\(TextLines.excerpt(name))", code: EPERM,
                reason: "it is not a name this store makes; nothing was done to it")
        }
        return "\(path)/\(name)"
    }

    /// Removes the file `name` (one this store makes); one already gone is
    /// fine. A link is removed itself, never followed; a folder is refused.
    package func remove(_ name: String) throws(SystemError) {
        let file = try path(of: name)
        guard unlink(file) == 0 || errno == ENOENT else { throw .current("removing", path: file) }
    }

    /// Whether `name` is one path component: not empty, no `/` or NUL, not `.` or `..`.
    package static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(0x2F) && !name.utf8.contains(0)
    }

    /// Makes the folder at `path` with mode 0700 (and its missing parents,
    /// 0700 too), or checks the folder already there: a symbolic link, a
    /// file or a folder of another user is refused with an error that says
    /// so, and a mode wider than 0700 is narrowed.
    package static func prepare(_ path: String) throws(SystemError) {
        try FileSystem.makeFolders(path, mode: 0o700)
        try check(path)
    }

    /// Checks the folder at `path` as ``prepare(_:)`` does, without making
    /// it: what a reader calls before it opens a file in a store's folder,
    /// so that a folder replaced by a link is never read through. Throws
    /// when nothing is there too.
    package static func check(_ path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                let kind = FileSystem.kind(of: path, followingSymlinks: false).map(\.description) ?? "not a folder"
                throw SystemError(
                    operation: "opening the folder", path: path, code: errno,
                    reason: "it is \(kind), not a folder of PhotoDeck's own; it is not followed (move it aside to let PhotoDeck make the folder)")
            }
            throw .current("opening the folder", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .current("reading the status of", path: path) }
        guard info.st_uid == geteuid() else {
            throw SystemError(operation: "opening the folder", path: path, code: EPERM, reason: "it belongs to another user (uid \(info.st_uid))")
        }
        if info.st_mode & 0o077 != 0 {
            guard fchmod(descriptor, 0o700) == 0 else { throw .current("narrowing the permissions (to 0700) of", path: path) }
        }
    }
}
