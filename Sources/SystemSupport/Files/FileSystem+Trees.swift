import CFileShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Swaps the folders (or files) at `first` and `second` in one step:
    /// a reader sees one or the other at each path, never neither and
    /// never a mix (Linux's `renameat2` with `RENAME_EXCHANGE`; both must
    /// exist, on one file system).
    package static func exchange(_ first: String, with second: String) throws(SystemError) {
        guard pd_exchange_paths(first, second) == 0 else { throw .current("swapping with \(second)", path: first) }
    }

    /// Makes `link` a second name of the regular file at `existing` (a hard
    /// link: no bytes copied, nothing followed). Refuses anything but a
    /// regular file at `existing`.
    package static func hardLink(_ existing: String, to link: String) throws(SystemError) {
        guard try status(of: existing, followingSymlinks: false).kind == .regular else {
            throw SystemError(operation: "linking to \(link)", path: existing, code: EPERM, reason: "it is not a regular file")
        }
        guard linkat(AT_FDCWD, existing, AT_FDCWD, link, 0) == 0 else { throw .current("linking to \(link)", path: existing) }
    }

    /// Flushes everything written to the file system holding `path` (one
    /// `syncfs`): cheaper than a flush per file when a whole folder of
    /// new files must be on disk before it is put in place.
    package static func syncFileSystem(containing path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .current("opening", path: path) }
        defer { close(descriptor) }
        guard pd_sync_file_system(descriptor) == 0 else { throw .current("flushing the file system of", path: path) }
    }

    /// Removes the folder at `path` and everything under it, never
    /// following a symbolic link (a link is removed, not what it points
    /// to). A path that is not a folder is removed as a file.
    package static func removeTree(_ path: String) throws(SystemError) {
        let kind = try status(of: path, followingSymlinks: false).kind
        guard kind == .folder else { return try remove(path) }
        for item in try FolderListing.items(in: path) {
            let child = "\(path)/\(item.name)"
            if item.kind == .folder || (item.kind == nil && FileSystem.kind(of: child, followingSymlinks: false) == .folder) {
                try removeTree(child)
            } else {
                try remove(child)
            }
        }
        guard rmdir(path) == 0 else { throw .current("removing the folder", path: path) }
    }
}
