public import Foundation
public import ServiceKit

extension DiskCache {
    /// What a partial download's row keeps beside its bytes: the answer's
    /// header fields, whose validator ties the bytes to one version.
    private struct PartialMetadata: Codable {
        var headers: [String: String]
    }

    /// The row key of `url`'s partial download. ImageLoader stores only
    /// `http`, `https` and `file` URLs, so no entry's key starts like this.
    package static func partialKey(_ url: URL) -> String { "partial:" + url.absoluteString }

    /// Keeps the first bytes of `url`'s download that was cut, so a later
    /// load asks only for the rest. They are stored like an entry (within
    /// the cap, evicted least recently used first, verified when read), and
    /// replace any earlier partial download of `url`.
    ///
    /// ```swift
    /// if case .failed(_, let partial?) = outcome { try await cache.storePartial(partial, for: url) }
    /// ```
    public func storePartial(_ partial: PartialDownload, for url: URL) async throws(ImageLoadingError) {
        guard let metadata = try? JSONEncoder().encode(PartialMetadata(headers: partial.headers)) else { return }
        try await store(partial.bytes, metadata: [UInt8](metadata), key: Self.partialKey(url))
    }

    /// The kept first bytes of `url`'s cut download, verified, or `nil`.
    /// A row that is not a resumable partial download (its headers give no
    /// validator) is dropped.
    public func partial(for url: URL) async throws(ImageLoadingError) -> PartialDownload? {
        let key = Self.partialKey(url)
        guard let (bytes, metadata) = try await read(key: key) else { return nil }
        guard let decoded = try? JSONDecoder().decode(PartialMetadata.self, from: Data(metadata)),
            let partial = PartialDownload(status: 200, headers: decoded.headers, bytes: bytes)
        else {
            try await remove(key: key)
            return nil
        }
        return partial
    }

    /// Forgets `url`'s partial download, if any (its download completed).
    public func removePartial(for url: URL) async throws(ImageLoadingError) {
        try await remove(key: Self.partialKey(url))
    }
}
