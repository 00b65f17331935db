import ImageCodecs
import SystemSupport

/// Reads an image's header from the first bytes of a download as they
/// arrive, so that someone who needs only the header (a page's size)
/// learns it long before the last byte.
///
/// Only an answer whose body starts at the file's first byte (a `200`)
/// with a declared length is followed; a resumed answer (`206`) is not
/// (the header was seen, or is not, in the answer it resumes). The bytes
/// kept while looking are bounded by ``limit``: a header that has not
/// ended by then is read from the whole file once it is in. A header is
/// told once; `found` hears it on the download's thread.
final class HeaderWatch: Sendable {
    /// The most leading bytes kept while looking for the end of the header.
    static let limit = 1 << 20

    private struct State {
        var prefix: [UInt8] = []
        var declared = 0
        var watching = false
        var probedAt = 0
        var info: ImageInfo?
    }

    private let state = Lock(State())
    private let found: @Sendable (ImageInfo) -> Void

    init(found: @escaping @Sendable (ImageInfo) -> Void) {
        self.found = found
    }

    /// The header, once read.
    var info: ImageInfo? { state.withLock { $0.info } }

    /// An answer began: a `200` with a declared length is followed from its
    /// first byte; anything else is not.
    func began(status: Int, declaredLength: Int) {
        state.withLock { state in
            guard state.info == nil else { return }
            state.prefix = []
            state.probedAt = 0
            state.declared = declaredLength
            state.watching = status == 200 && declaredLength > 0
        }
    }

    /// A chunk of the answer arrived.
    func received(_ chunk: [UInt8]) {
        let read = state.withLock { state -> ImageInfo? in
            guard state.watching, state.info == nil else { return nil }
            guard state.prefix.count + chunk.count <= Self.limit, state.prefix.count + chunk.count <= state.declared else {
                state.watching = false
                state.prefix = []
                return nil
            }
            state.prefix += chunk
            // Probed again after 4 KiB more at the soonest: a header that
            // arrives in small pieces is not walked once per piece.
            guard state.probedAt == 0 || state.prefix.count - state.probedAt >= 4_096 || state.prefix.count == state.declared else { return nil }
            state.probedAt = state.prefix.count
            do {
                guard let info = try ImageInfo.probing(prefix: state.prefix, totalLength: state.declared) else { return nil }
                state.info = info
            } catch {
                // Not an image the probe can read: the fetch says why, from the whole body.
            }
            state.watching = false
            state.prefix = []
            return state.info
        }
        if let read { found(read) }
    }
}
