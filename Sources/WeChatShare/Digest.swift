import CCrypto

/// Message digests from libcrypto, in lowercase hex.
enum Digest {
    /// The digest of `bytes` by `algorithm` (`EVP_md5()`, `EVP_sha256()`);
    /// empty if libcrypto fails.
    static func hex(_ bytes: [UInt8], _ algorithm: OpaquePointer?) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(raw.baseAddress, raw.count, output.baseAddress, &length, algorithm, nil)
            }
        }
        guard ok == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
