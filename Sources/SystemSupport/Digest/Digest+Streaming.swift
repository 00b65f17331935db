import CCrypto

extension Digest {
    /// A digest computed over bytes fed a piece at a time: a file of any
    /// size hashed in one chunk's memory.
    ///
    /// ```swift
    /// let hasher = Digest.Hasher(.sha256)
    /// hasher.update(chunk)          // as many times as there are chunks
    /// let id = hasher.finalizeHex()
    /// ```
    package final class Hasher {
        private let context: OpaquePointer
        private let size: Int
        private var finished = false

        /// A fresh hasher. As ``Digest/hex(_:_:)``, a libcrypto that cannot
        /// allocate its context is a trap, never a wrong digest.
        package init(_ algorithm: Algorithm) {
            CryptoLibrary.prepare()
            let (md, size): (OpaquePointer?, Int) =
                switch algorithm {
                case .sha256: (EVP_sha256(), 32)
                case .md5: (EVP_md5(), 16)
                }
            guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto could not allocate a digest context (out of memory)") }
            precondition(EVP_DigestInit_ex(context, md, nil) == 1, "libcrypto could not start a digest")
            self.context = context
            self.size = size
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Feeds `count` bytes at `bytes`.
        package func update(_ bytes: UnsafeRawBufferPointer) {
            precondition(!finished, "a finished digest was fed more bytes")
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "libcrypto could not update a digest")
        }

        /// Feeds `bytes`.
        package func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

        /// The digest of everything fed, in lowercase hex; the hasher takes no more.
        package func finalizeHex() -> String {
            precondition(!finished, "a digest was finished twice")
            finished = true
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let status = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
            precondition(status == 1 && Int(length) == size, "libcrypto could not finish a digest")
            return Digest.hexDigits(digest.prefix(size))
        }
    }

    /// The lowercase hex SHA-256 of the regular file at `path`, read a
    /// chunk at a time; a file larger than `limit` is refused
    /// (``SystemError/isTooLarge``) before it is read.
    package static func sha256Hex(ofFileAt path: String, limit: Int, followingSymlinks: Bool = true) throws(SystemError) -> String {
        let file = try ReadOnlyFile(path: path, followingSymlinks: followingSymlinks)
        guard file.size <= limit else { throw .tooLarge(path: path, size: file.size, limit: limit) }
        let hasher = Hasher(.sha256)
        var buffer = [UInt8](repeating: 0, count: min(max(file.size, 1), DurableFile.copyChunkBytes))
        var offset = 0
        while offset < file.size {
            let count = try file.read(into: &buffer, at: offset)
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
        return hasher.finalizeHex()
    }

    /// `bytes` as lowercase hex digits.
    static func hexDigits(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
