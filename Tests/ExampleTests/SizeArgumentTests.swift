import ExampleSupport
import Testing

@Suite("WxH arguments")
struct SizeArgumentTests {
    @Test("two numbers joined by x, in range, are a size")
    func reads() throws {
        let size = try SizeArgument("390x844", what: "--viewport")
        #expect(size.width == 390 && size.height == 844)
        #expect(try SizeArgument("1.5x2", what: "--viewport").width == 1.5)
        #expect(try SizeArgument("1080x1920", what: "--fit", wholeNumbers: true).pixelHeight == 1920)
    }

    @Test("anything else is an error naming the flag", arguments: ["", "10", "10x", "x10", "1x2x3", "-5x5", "0x5", "infxinf", "nanx1", "10X10", "70000x1"])
    func refuses(_ text: String) {
        #expect(throws: CLIError.self) { try SizeArgument(text, what: "--window") }
        #expect(throws: CLIError.self) { try SizeArgument("1.5x2", what: "--box", wholeNumbers: true) }
    }
}
