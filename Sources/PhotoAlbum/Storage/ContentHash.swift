import CCrypto

/// SHA-256 through OpenSSL's libcrypto, for content addressing.
enum ContentHash {
    /// The lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(raw.baseAddress, raw.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(status == 1 && length == 32, "libcrypto could not compute SHA-256")
        return digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
