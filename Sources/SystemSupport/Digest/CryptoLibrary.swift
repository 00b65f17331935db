import CCrypto

/// OpenSSL's libcrypto, initialised once, without its exit-time clean-up.
///
/// By default libcrypto frees its locks and tables in an `atexit` handler.
/// A digest still running on another thread when a tool calls `exit` (a
/// disk cache verifying an entry a prefetch just read) then takes a freed
/// lock and crashes; a tool that exited while two tasks verified entries
/// crashed in 3 of 30 runs. Whoever initialises libcrypto first decides:
/// libcurl does (through OpenSSL) when it is initialised, so ``prepare()``
/// must run before that. `Digest` calls it, and so does ServiceKit's
/// `CurlTransport` before its engine initialises libcurl.
/// The process's memory goes when it exits anyway.
package enum CryptoLibrary {
    /// Initialises libcrypto without the exit-time clean-up, once; later
    /// calls do nothing.
    package static func prepare() { _ = initialized }

    private static let initialized: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
}
