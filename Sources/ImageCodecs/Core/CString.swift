/// Reads a NUL-terminated C character array, as imported into Swift as a
/// tuple inside a C struct (`char message[256]`).
func string<T>(fromCCharacters tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}
