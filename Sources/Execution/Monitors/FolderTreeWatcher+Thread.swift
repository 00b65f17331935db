import SystemSupport

extension FolderTreeWatcher {
    /// Watches the tree, then runs the watch on a thread of the floor that
    /// calls `onChange` (from that thread) after each batch of file-system
    /// events, until ``FolderTreeWatcher/stop()``. The folders that exist
    /// now are watched before this returns, so no change made after it can
    /// be missed. Returns `false` when inotify is unavailable.
    package func start(onChange: @escaping @Sendable () -> Void) -> Bool {
        guard let loop = watch(onChange: onChange) else { return false }
        FloorThread.start(named: "PhotoDeck directory watcher", loop)
        return true
    }
}
