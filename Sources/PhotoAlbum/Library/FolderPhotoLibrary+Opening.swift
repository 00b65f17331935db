import Execution

extension FolderPhotoLibrary {
    /// The same as `init` with these arguments, run away from Swift's
    /// cooperative pool: opens the library of the folder `root` and its index (creating the index when there is none). Opening reads and may write the disk and
    /// wait up to SQLite's busy timeout (5 s) for another process's lock,
    /// so async code opens a store this way; the synchronous `init` is for
    /// threads of the caller's own.
    ///
    /// ```swift
    /// let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
    /// ```
    public static func open(root: String, indexPath: String? = nil, kind: PhotoSourceKind = .photoLibrary) async throws(PhotoLibraryError) -> FolderPhotoLibrary
    {
        try await BlockingWork.run { () throws(PhotoLibraryError) -> FolderPhotoLibrary in try FolderPhotoLibrary(root: root, indexPath: indexPath, kind: kind)
        }
    }
}
