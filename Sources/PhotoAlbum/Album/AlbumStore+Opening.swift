import Execution

extension AlbumStore {
    /// The same as `init` with these arguments, run away from Swift's
    /// cooperative pool: opens the album store in `directory` (creating it, recovering it from its originals and journal when its index is lost or damaged). Opening reads and may write the disk and
    /// wait up to SQLite's busy timeout (5 s) for another process's lock,
    /// so async code opens a store this way; the synchronous `init` is for
    /// threads of the caller's own.
    ///
    /// ```swift
    /// let store = try await AlbumStore.open(directory: "Albums")
    /// ```
    public static func open(directory: String) async throws(AlbumError) -> AlbumStore {
        try await BlockingWork.run { () throws(AlbumError) -> AlbumStore in try AlbumStore(directory: directory) }
    }
}
