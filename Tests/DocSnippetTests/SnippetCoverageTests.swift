import Foundation
import TestSupport
import Testing

/// Every Swift code sample in the README, the DocC pages and doc comments must also be
/// in a file that is compiled: the snippet files beside this one (built
/// with this test target), the consumer test of ShareKitTests, or the
/// consumer package (`Tests/Consumer`, built by `make check-consumer`), or a
/// toolchain bug's reduction (`Tests/ToolchainTests`). A sample that no longer compiles then fails
/// the build, and a sample edited without its compiled copy fails here.
@Suite("Code samples are compiled")
struct SnippetCoverageTests {
    /// A fenced Swift block: where it is and its lines.
    struct Sample: CustomTestStringConvertible, Sendable {
        let location: String
        let lines: [String]
        var testDescription: String { location }
    }

    static let root = TestData.packageRoot

    /// The text without its imports and without any whitespace: the
    /// compiled copy may be indented, wrapped and spaced differently (the
    /// formatter reflows it), and its imports sit at the top of its file.
    static func normalized(_ lines: [String]) -> String {
        lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }.joined().filter { !$0.isWhitespace }
    }

    /// The ```swift blocks of a Markdown file (`path` from the package root).
    static func markdownSamples(_ path: String) -> [Sample] {
        guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { return [] }
        var samples: [Sample] = []
        var current: [String]?
        var start = 0
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
                start = number + 1
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                samples.append(Sample(location: "\(path):\(start)", lines: current ?? []))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return samples
    }

    /// The ```swift blocks of the README.
    static let readmeSamples = markdownSamples("README.md")

    /// The ```swift blocks of the DocC pages: each module's landing page
    /// (`Sources/<Module>/Documentation.docc`), the package's and the
    /// articles (`Documentation/`).
    static let doccSamples: [Sample] = {
        var paths: [String] = []
        for folder in ["Sources", "Documentation"] {
            guard let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let relative as String in files where relative.hasSuffix(".md") && (folder == "Documentation" || relative.contains(".docc/")) {
                paths.append("\(folder)/\(relative)")
            }
        }
        return paths.sorted().flatMap(markdownSamples)
    }()

    /// The fenced blocks of `///` doc comments in Sources (all Swift).
    static let docSamples: [Sample] = {
        let sources = root.appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var samples: [Sample] = []
        for case let relative as String in files where relative.hasSuffix(".swift") {
            guard let text = try? String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8) else { continue }
            var current: [String]?
            var start = 0
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("///") else { continue }
                let content = trimmed.dropFirst(3).hasPrefix(" ") ? String(trimmed.dropFirst(4)) : String(trimmed.dropFirst(3))
                if content.hasPrefix("```") {
                    if let lines = current {
                        samples.append(Sample(location: "Sources/\(relative):\(start)", lines: lines))
                        current = nil
                    } else {
                        current = []
                        start = number + 1
                    }
                } else {
                    current?.append(content)
                }
            }
        }
        return samples.sorted { $0.location < $1.location }
    }()

    /// The compiled copies, normalized, one string per file.
    static let compiled: [String] = {
        var files: [URL] = [root.appendingPathComponent("Tests/ShareKitTests/ConsumerExampleTests.swift")]
        for folder in ["Tests/DocSnippetTests/Snippets", "Tests/Consumer", "Tests/ToolchainTests"] {
            let url = root.appendingPathComponent(folder)
            guard let found = FileManager.default.enumerator(atPath: url.path) else { continue }
            for case let relative as String in found where relative.hasSuffix(".swift") { files.append(url.appendingPathComponent(relative)) }
        }
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.map { normalized($0.components(separatedBy: "\n")) }
    }()

    static func isCompiled(_ sample: Sample) -> Bool {
        let wanted = normalized(sample.lines)
        return !wanted.isEmpty && compiled.contains { $0.contains(wanted) }
    }

    @Test("the samples are found")
    func samplesFound() {
        #expect(Self.readmeSamples.count >= 5)
        #expect(Self.docSamples.count >= 45)
        #expect(Self.doccSamples.count >= 12)
        #expect(Self.compiled.count >= 8)
    }

    @Test("every README sample is in a compiled file", arguments: readmeSamples)
    func readme(_ sample: Sample) {
        #expect(
            Self.isCompiled(sample),
            "copy this sample into Tests/DocSnippetTests/Snippets (or Tests/Consumer) and make it compile:\n\(sample.lines.joined(separator: "\n"))")
    }

    @Test("every DocC page sample is in a compiled file", arguments: doccSamples)
    func doccPage(_ sample: Sample) {
        #expect(Self.isCompiled(sample), "copy this sample into Tests/DocSnippetTests/Snippets and make it compile:\n\(sample.lines.joined(separator: "\n"))")
    }

    @Test("every doc-comment sample is in a compiled file", arguments: docSamples)
    func docComment(_ sample: Sample) {
        #expect(Self.isCompiled(sample), "copy this sample into Tests/DocSnippetTests/Snippets and make it compile:\n\(sample.lines.joined(separator: "\n"))")
    }

    @Test("no sample is written twice across the README, the DocC pages and the doc comments")
    func eachSampleOnce() {
        var first: [String: String] = [:]
        var repeated: [String] = []
        for sample in Self.readmeSamples + Self.doccSamples + Self.docSamples {
            let text = Self.normalized(sample.lines)
            guard !text.isEmpty else { continue }
            if let earlier = first[text] { repeated.append("\(sample.location) repeats \(earlier)") } else { first[text] = sample.location }
        }
        #expect(repeated.isEmpty, "link to the one copy instead:\n\(repeated.joined(separator: "\n"))")
    }
}
