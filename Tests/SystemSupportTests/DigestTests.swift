import SystemSupport
import Testing

@Suite("Digests")
struct DigestTests {
    @Test("SHA-256 and MD5 match the published test vectors, as 64 and 32 lowercase hex digits")
    func vectors() {
        // FIPS 180-2 appendix B.1 and RFC 1321 appendix A.5.
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Digest.hex(Array("abc".utf8), .md5) == "900150983cd24fb0d6963f7d28e17f72")
        let large = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(Digest.sha256Hex(large).count == 64)
        #expect(Digest.sha256Hex(large) != Digest.sha256Hex(Array(large.dropLast())))
    }
}
