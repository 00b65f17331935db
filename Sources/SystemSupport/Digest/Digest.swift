import CCrypto

/// Message digests through OpenSSL's libcrypto, in lowercase hex: the one
/// copy for content addressing (PhotoAlbum's asset ids) and for the
/// signatures and checksums services ask for (WeCom's image `md5`, the
/// Official Account's idempotency key).
///
/// ```swift
/// let id = Digest.sha256Hex(bytes)   // 64 hex digits
/// ```
package enum Digest {
    /// The algorithms callers use; a closed set, so no caller hands
    /// libcrypto a digest it might not have.
    package enum Algorithm: Sendable {
        /// SHA-256 (32 bytes).
        case sha256
        /// MD5 (16 bytes), only where a service's protocol names it.
        case md5
    }

    /// The lowercase hex SHA-256 of `bytes`.
    package static func sha256Hex(_ bytes: [UInt8]) -> String { hex(bytes, .sha256) }

    /// The lowercase hex digest of `bytes` by `algorithm`.
    ///
    /// `EVP_Digest` over a fixed, built-in algorithm fails only when
    /// libcrypto cannot allocate its context: that is a trap, as any Swift
    /// allocation failure is, never a silently empty digest that would
    /// address or sign the wrong thing.
    package static func hex(_ bytes: [UInt8], _ algorithm: Algorithm) -> String {
        CryptoLibrary.prepare()
        let (md, size): (OpaquePointer?, Int) =
            switch algorithm {
            case .sha256: (EVP_sha256(), 32)
            case .md5: (EVP_md5(), 16)
            }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(raw.baseAddress, raw.count, output.baseAddress, &length, md, nil)
            }
        }
        precondition(status == 1 && Int(length) == size, "libcrypto could not compute a digest (out of memory)")
        return hexDigits(digest.prefix(size))
    }
}
