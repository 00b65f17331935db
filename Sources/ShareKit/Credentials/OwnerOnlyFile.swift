package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files only their owner can read (mode 0600), replaced atomically:
/// written to a temporary file, flushed, renamed, so a crash never leaves
/// half a file. Shared by the credential and account stores.
package enum OwnerOnlyFile {
    /// Replaces the file at `path` with `data`.
    package static func write(_ data: Data, to path: String) throws {
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        fchmod(fd, 0o600)
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
