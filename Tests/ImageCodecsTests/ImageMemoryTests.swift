import ImageCodecs
import Testing

@Suite("Image memory")
struct ImageMemoryTests {
    #if os(Linux)
        @Test("glibc takes the fixed mapping threshold (the viewer's memory follows what it holds); nonsense is refused")
        func threshold() {
            #expect(ImageMemory.returnLargeBuffersToSystem())
            #expect(ImageMemory.returnLargeBuffersToSystem(threshold: 256 << 10))
            #expect(!ImageMemory.returnLargeBuffersToSystem(threshold: 0))
            #expect(!ImageMemory.returnLargeBuffersToSystem(threshold: Int(Int32.max) + 1))
        }
    #endif
}
