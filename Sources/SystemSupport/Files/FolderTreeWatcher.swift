import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Calls back when anything under a folder tree may have changed: inotify on
/// Linux (watching every subfolder, including ones created later); where
/// inotify is unavailable, ``start(onChange:)`` returns `false` and the
/// library polls instead.
final class DirectoryWatcher: Sendable {
    let root: String
    // The descriptors are set once in init. Once the thread has started it
    // owns (and on exit closes) `inotify` and `wakeRead`; deinit closes them
    // only if it never started. The watch table lives on the thread alone.
    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let started = Mutex(false)

    init(root: String) {
        self.root = root
        #if canImport(Glibc)
            inotify = inotify_init1(Int32(IN_CLOEXEC))
            // A socket pair rather than a pipe: waking a thread that has
            // already exited must fail with EPIPE, not raise SIGPIPE.
            var pipeEnds: [Int32] = [-1, -1]
            if socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) != 0 { pipeEnds = [-1, -1] }
            wakeRead = pipeEnds[0]
            wakeWrite = pipeEnds[1]
        #else
            inotify = -1
            wakeRead = -1
            wakeWrite = -1
        #endif
    }

    /// Watches the tree, then starts a thread that calls `onChange` (from
    /// that thread) after each batch of file-system events. The folders
    /// that exist now are watched before this returns, so no change made
    /// after it can be missed. Returns `false` when inotify is unavailable.
    func start(onChange: @escaping @Sendable () -> Void) -> Bool {
        #if canImport(Glibc)
            guard inotify >= 0, wakeRead >= 0 else { return false }
            let (inotify, wakeRead, root) = (self.inotify, self.wakeRead, self.root)
            let initial = Self.watchTree(root, inotify: inotify)
            started.withLock { $0 = true }
            let thread = Thread {
                defer {
                    close(inotify)
                    close(wakeRead)
                }
                var watches = initial
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                while true {
                    guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                    if descriptors[1].revents != 0 { return }
                    guard descriptors[0].revents != 0 else { continue }
                    let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                    guard count > 0 else { continue }
                    // Watch folders created since the last batch. A file
                    // made in one before its watch was added is found by the
                    // rescan that `onChange` triggers, which runs after it.
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let (descriptor, eventMask, nameLength) = buffer.withUnsafeBytes { raw in
                            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                            return (event.wd, event.mask, Int(event.len))
                        }
                        if eventMask & UInt32(IN_ISDIR) != 0, eventMask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let folder = watches[descriptor] {
                            let start = offset + MemoryLayout<inotify_event>.size
                            let name = String(decoding: buffer[start..<min(count, start + nameLength)].prefix { $0 != 0 }, as: UTF8.self)
                            if !name.hasPrefix(".") { watches.merge(Self.watchTree("\(folder)/\(name)", inotify: inotify)) { _, new in new } }
                        }
                        offset += MemoryLayout<inotify_event>.size + nameLength
                    }
                    onChange()
                }
            }
            thread.name = "PhotoDeck directory watcher"
            thread.start()
            return true
        #else
            return false
        #endif
    }

    #if canImport(Glibc)
        /// Adds a watch on `folder` and every subfolder (hidden ones and
        /// symbolic links skipped); returns the folders by watch descriptor.
        private static func watchTree(_ folder: String, inotify: Int32) -> [Int32: String] {
            let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_ATTRIB)
            var watches: [Int32: String] = [:]
            let descriptor = inotify_add_watch(inotify, folder, mask)
            if descriptor >= 0 { watches[descriptor] = folder }
            for name in DurableFiles.names(in: folder) where !name.hasPrefix(".") {
                var info = stat()
                let path = "\(folder)/\(name)"
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    watches.merge(watchTree(path, inotify: inotify)) { _, new in new }
                }
            }
            return watches
        }
    #endif

    /// Stops the thread (if started) and releases the descriptors.
    func stop() {
        #if canImport(Glibc)
            if wakeWrite >= 0 {
                var byte: UInt8 = 1
                _ = send(wakeWrite, &byte, 1, Int32(MSG_NOSIGNAL))
            }
        #endif
    }

    deinit {
        #if canImport(Glibc)
            stop()
            if !started.withLock({ $0 }) {
                for descriptor in [inotify, wakeRead] where descriptor >= 0 { close(descriptor) }
            }
            // Closing the write end also wakes the thread (POLLHUP) if it missed the byte.
            if wakeWrite >= 0 { close(wakeWrite) }
        #endif
    }
}
