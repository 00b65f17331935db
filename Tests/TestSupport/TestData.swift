public import Foundation
public import Testing

/// The third-party conformance images kept in the repository
/// (`Tests/Fixtures/conformance`, see its `SOURCES.md`) and their
/// expectation table, `VERIFY.tsv`.
public enum TestData {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures/conformance`.
    public static let root = packageRoot.appendingPathComponent("Tests/Fixtures/conformance")

    /// How a file in the table is expected to fail, for the files meant to
    /// fail (the `expected` column).
    public enum ExpectedFailure: String, Sendable {
        /// Not recognised as any format.
        case unsupportedFormat
        /// Recognised, but its data ends early.
        case truncated
        /// Recognised, but its data is damaged.
        case corrupt
        /// Decodes, with a warning about the damage.
        case warning
    }

    /// One row of `VERIFY.tsv`.
    public struct Entry: CustomTestStringConvertible, Sendable {
        /// The path below ``TestData/root``.
        public let path: String
        /// The format the leading bytes say (`jpeg`, `png`, `webp`, `unknown`).
        public let magic: String
        /// What the upstream set means the file to be (`valid`, `invalid`, ...).
        public let intent: String
        /// What the native C tool (djpeg, dwebp) made of it, or `-`.
        public let nativeResult: String
        /// For invalid files, how PhotoDeck must reject it.
        public let expected: ExpectedFailure?
        public var testDescription: String { path }
        /// The file.
        public var url: URL { TestData.root.appendingPathComponent(path) }
        /// The file's bytes.
        public func bytes() throws -> [UInt8] { try fileBytes(url) }
    }

    /// Every row of the table.
    public static let entries: [Entry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("VERIFY.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("path\t") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 10 else { return nil }
            let expected = fields.count > 13 ? ExpectedFailure(rawValue: fields[13]) : nil
            return Entry(path: fields[0], magic: fields[2], intent: fields[3], nativeResult: fields[10], expected: expected)
        }
    }()

    /// The formats PhotoDeck decodes.
    public static let imageMagics: Set<String> = ["jpeg", "png", "webp"]

    /// The rows with `intent`, of a decodable format (or of `magic`).
    public static func entries(intent: String, magic: String? = nil) -> [Entry] {
        entries.filter { $0.intent == intent && (magic == nil ? imageMagics.contains($0.magic) : $0.magic == magic) }
    }

    /// The bytes of the file at `path` below ``root``.
    public static func bytes(_ path: String) throws -> [UInt8] {
        try fileBytes(root.appendingPathComponent(path))
    }
}
