#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    // Linux only (rtnetlink, sysfs, /proc). Elsewhere NetworkMonitors.system
    // assumes the network is there; `make check-portable` builds without this file.

    import SystemSupport

    /// Reads a whole text file to its end. `/proc` and `/sys` files report a
    /// size of 0 (or 4096) whatever they hold, and Foundation's
    /// `String(contentsOfFile:)` leaks a 4 KB buffer for every file that
    /// reports 0 (FoundationEssentials, Swift 6.3): read every few seconds by
    /// the network monitor, that would grow without end.
    enum FileText {
        /// The file's text, or `nil` when it cannot be read.
        static func read(_ path: String, limit: Int = 1 << 20) -> String? {
            guard let bytes = try? FileSystem.readToEnd(path, limit: limit) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
