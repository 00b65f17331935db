import Foundation

#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    import Glibc
#endif

/// Calls back when anything under a folder tree may have changed: inotify on
/// Linux (watching every subfolder, including ones created later); where
/// inotify is unavailable, `start(onChange:)` returns `false` and the
/// caller polls instead. The execution floor runs its loop on a thread
/// (`FolderTreeWatcher.start(onChange:)`, in Execution).
///
/// ```swift
/// let watcher = FolderTreeWatcher(root: "/home/me/Pictures")
/// if !watcher.start(onChange: { rescan() }) { pollEvery(.seconds(2)) }
/// watcher.stop()  // when the folder is no longer shown
/// ```
package final class FolderTreeWatcher: Sendable {
    /// The folder whose tree is watched.
    package let root: String
    // The descriptors are set once in init. Once the thread has started it
    // owns (and on exit closes) `inotify` and the wake pair's read end;
    // deinit closes them only if it never started. The watch table lives on
    // the thread alone.
    private let inotify: Int32
    private let wake: (read: Int32, write: Int32)
    private let started = Lock(false)

    /// A watcher of `root`; nothing is watched until ``watch(onChange:)``.
    package init(root: String) {
        self.root = root
        #if os(Linux) && !PHOTODECK_NO_LINUX_APIS
            inotify = inotify_init1(Int32(IN_CLOEXEC))
        #else
            inotify = -1
        #endif
        wake = (try? Descriptor.wakePair()) ?? (-1, -1)
    }

    /// Watches the tree now and returns the loop that calls `onChange`
    /// after each batch of file-system events, until ``stop()``: for the
    /// caller to run on a thread of its own (the execution floor's
    /// `start(onChange:)` does). The folders that exist now are watched
    /// before this returns, so no change made after it can be missed.
    /// `nil` when inotify is unavailable.
    package func watch(onChange: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        #if os(Linux) && !PHOTODECK_NO_LINUX_APIS
            guard inotify >= 0, wake.read >= 0 else { return nil }
            let (inotify, wakeRead, root) = (self.inotify, self.wake.read, self.root)
            let initial = Self.watchTree(root, inotify: inotify)
            started.withLock { $0 = true }
            return {
                defer {
                    Descriptor.close(inotify)
                    Descriptor.close(wakeRead)
                }
                var watches = initial
                while true {
                    let readiness = Descriptor.waitReadable([inotify, wakeRead], timeout: -1)
                    if readiness == .failed { return }
                    guard case .ready(let readable) = readiness else { continue }
                    if readable[1] { return }
                    guard readable[0], case .bytes(let batch) = Descriptor.read(inotify, limit: 64 * 1024) else { continue }
                    watches.merge(Self.foldersCreated(in: batch, watches: watches, inotify: inotify)) { _, new in new }
                    onChange()
                }
            }
        #else
            return nil
        #endif
    }

    #if os(Linux) && !PHOTODECK_NO_LINUX_APIS
        /// Watches folders created since the last batch. A file made in one
        /// before its watch was added is found by the rescan that
        /// `onChange` triggers, which runs after it.
        private static func foldersCreated(in batch: [UInt8], watches: [Int32: String], inotify: Int32) -> [Int32: String] {
            var added: [Int32: String] = [:]
            let header = MemoryLayout<inotify_event>.size
            var offset = 0
            while offset + header <= batch.count {
                let (descriptor, eventMask, nameLength) = batch.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let folder = watches[descriptor] {
                    let start = offset + header
                    let name = String(decoding: batch[start..<min(batch.count, start + nameLength)].prefix { $0 != 0 }, as: UTF8.self)
                    if !name.hasPrefix(".") { added.merge(watchTree("\(folder)/\(name)", inotify: inotify)) { _, new in new } }
                }
                offset += header + nameLength
            }
            return added
        }

        /// Adds a watch on `folder` and every subfolder (hidden ones and
        /// symbolic links skipped); returns the folders by watch descriptor.
        private static func watchTree(_ folder: String, inotify: Int32) -> [Int32: String] {
            let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_ATTRIB)
            var watches: [Int32: String] = [:]
            let descriptor = inotify_add_watch(inotify, folder, mask)
            if descriptor >= 0 { watches[descriptor] = folder }
            for name in FolderListing.names(in: folder) where !name.hasPrefix(".") {
                let path = "\(folder)/\(name)"
                if FileSystem.kind(of: path, followingSymlinks: false) == .folder {
                    watches.merge(watchTree(path, inotify: inotify)) { _, new in new }
                }
            }
            return watches
        }
    #endif

    /// Stops the loop (if started); it releases its descriptors as it ends.
    package func stop() {
        if wake.write >= 0 { Descriptor.send(1, to: wake.write) }
    }

    deinit {
        stop()
        if !started.withLock({ $0 }) {
            Descriptor.close(inotify)
            Descriptor.close(wake.read)
        }
        // Closing the write end also wakes the thread (end of file) if it missed the byte.
        Descriptor.close(wake.write)
    }
}
