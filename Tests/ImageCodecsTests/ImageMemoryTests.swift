import ImageCodecs
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Image memory")
struct ImageMemoryTests {
    #if os(Linux)
        /// Whether a sanitizer's allocator stands in for glibc's (make test, test-tsan).
        static var underSanitizer: Bool { dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil }

        @Test("glibc takes the fixed mapping threshold (the viewer's memory follows what it holds); a sanitizer's allocator and nonsense refuse it")
        func threshold() {
            // Under ASan or TSan, malloc is the sanitizer's: it has no such setting, and says so.
            let expected = !Self.underSanitizer
            #expect(ImageMemory.returnLargeBuffersToSystem() == expected)
            #expect(ImageMemory.returnLargeBuffersToSystem(threshold: 256 << 10) == expected)
            #expect(!ImageMemory.returnLargeBuffersToSystem(threshold: 0))
            #expect(!ImageMemory.returnLargeBuffersToSystem(threshold: Int(Int32.max) + 1))
        }
    #endif
}
