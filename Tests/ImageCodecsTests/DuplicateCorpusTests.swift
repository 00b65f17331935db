import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Precision and recall of near-duplicate grouping over pairs, on a
/// seeded corpus of generated scenes shared the ways people share them
/// (ImageMagick, cwebp, heif-enc, WeChat's 1080-pixel recompression three
/// times over), with the hard negatives beside them; findimagedupes, at its
/// default, on the same files.
///
/// Run by the release test build (`make test`), as users run the
/// SDK: the signatures' arithmetic runs in the debug and sanitizer builds
/// through ``ImageSignatureTests``; this is the measurement over a corpus.
#if !DEBUG
    @Suite(
        "Near-duplicates: a corpus against findimagedupes", .dedicatedThreads,
        .enabled(if: ProcessInfo.processInfo.environment["PHOTODECK_SANITIZER"] == nil))
    struct DuplicateCorpusTests {
        static let scenes = UInt64(101)...UInt64(106)

        /// Each variant: a file name and the programs that make it from `original.jpg` (1440×1080) in the scene's folder.
        static let variants: [(name: String, commands: [[String]])] = [
            ("quarter.jpg", [["convert", "original.jpg", "-resize", "25%", "-quality", "85", "quarter.jpg"]]),
            ("q30.jpg", [["convert", "original.jpg", "-quality", "30", "q30.jpg"]]),
            ("q95.jpg", [["convert", "original.jpg", "-quality", "95", "q95.jpg"]]),
            ("cwebp.webp", [["cwebp", "-quiet", "-q", "60", "original.jpg", "-o", "cwebp.webp"]]),
            ("heif.heic", [["heif-enc", "-q", "50", "-o", "heif.heic", "original.jpg"]]),
            ("brighter.jpg", [["convert", "original.jpg", "-brightness-contrast", "10x0", "brighter.jpg"]]),
            ("darker.jpg", [["convert", "original.jpg", "-brightness-contrast", "-10x0", "darker.jpg"]]),
            ("flatter.jpg", [["convert", "original.jpg", "-brightness-contrast", "0x-10", "flatter.jpg"]]),
            ("cropped.jpg", [["convert", "original.jpg", "-gravity", "southeast", "-crop", "92%x92%+0+0", "+repage", "cropped.jpg"]]),
            ("framed.jpg", [["convert", "original.jpg", "-gravity", "center", "-crop", "94%x94%+0+0", "+repage", "framed.jpg"]]),
            (
                "watermark.jpg",
                [
                    [
                        "convert", "original.jpg", "-fill", "white", "-draw", "rectangle 1250,1010 1420,1060", "-fill", "black", "-draw",
                        "rectangle 1262,1025 1300,1045", "-draw", "rectangle 1310,1020 1330,1048", "-draw", "rectangle 1345,1025 1405,1040",
                        "watermark.jpg",
                    ]
                ]
            ),
            (
                "wechat3.jpg",
                [
                    ["convert", "original.jpg", "-resize", "1080x1080>", "-quality", "75", "-strip", "wechat1.jpg"],
                    ["convert", "wechat1.jpg", "-resize", "1080x1080>", "-quality", "70", "-strip", "wechat2.jpg"],
                    ["convert", "wechat2.jpg", "-resize", "1080x1080>", "-quality", "65", "-strip", "wechat3.jpg"],
                ]
            ),
        ]

        /// Pairs of files (by name, unordered) a grouping puts together.
        static func pairs(_ groups: [[String]]) -> Set<[String]> {
            var pairs: Set<[String]> = []
            for group in groups {
                for a in group { for b in group where a < b { pairs.insert([a, b]) } }
            }
            return pairs
        }

        static func run(_ command: [String], in folder: String) throws {
            let result = try ChildProcess.run("sh", ["-c", "cd \"$0\" && exec \"$@\"", folder] + command)
            try #require(result.status == 0, "\(command.joined(separator: " ")): \(result.output)")
        }

        @Test("precision ≥ 0.98 and recall ≥ 0.95 over pairs, above findimagedupes's on the same files")
        func corpus() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-corpus-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            var files: [String] = []
            var truth: [[String]] = []
            for seed in Self.scenes {
                let folder = "\(root)/s\(seed)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let scene = GeneratedScene(seed: seed)
                // Drawn at 640×480 (slow in a debug build) and enlarged to a size WeChat's 1080 pixels reduce.
                let big = PixelSize(width: 1440, height: 1080)
                try Data(try scene.render(width: 640, height: 480).resized(to: big).encoded(as: .jpeg, options: EncodeOptions(quality: 92)))
                    .write(to: URL(fileURLWithPath: "\(folder)/original.jpg"))
                for variant in Self.variants { for command in variant.commands { try Self.run(command, in: folder) } }
                // Turned by its EXIF orientation (the SDK's encoder writes the tag).
                let upright = try DecodedImage(decodingFileAt: "\(folder)/original.jpg").bitmap
                try Data(try upright.oriented(.left).encoded(as: .jpeg, options: EncodeOptions(quality: 90, exif: ExifMetadata(orientation: .right))))
                    .write(to: URL(fileURLWithPath: "\(folder)/rotated.jpg"))
                try Data(try scene.render(width: 640, height: 480, step: 0.12).resized(to: big).encoded(as: .jpeg, options: EncodeOptions(quality: 92)))
                    .write(to: URL(fileURLWithPath: "\(folder)/aside.jpg"))
                try Data(try scene.render(width: 640, height: 480, subject: 1).resized(to: big).encoded(as: .jpeg, options: EncodeOptions(quality: 92)))
                    .write(to: URL(fileURLWithPath: "\(folder)/other.jpg"))
                let copies = (["original.jpg", "rotated.jpg"] + Self.variants.map(\.name)).map { "\(folder)/\($0)" }
                truth.append(copies)
                files += copies + ["\(folder)/aside.jpg", "\(folder)/other.jpg"]
            }
            let expected = Self.pairs(truth)

            var index = SignatureIndex<String>()
            for file in files { index.insert(try ImageSignature(summarizingImageAt: file), for: file) }
            let ours = Self.pairs(index.groups())
            var distances: [Int: Int] = [:]
            for pair in expected { distances[index.signature(for: pair[0])!.hashDistance(to: index.signature(for: pair[1])!), default: 0] += 1 }
            print("hash distances of true pairs (bits: pairs):", distances.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))

            let found = try ChildProcess.run("findimagedupes", files)
            let theirs = Self.pairs(found.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) })

            func score(_ predicted: Set<[String]>) -> (precision: Double, recall: Double) {
                let hits = Double(predicted.intersection(expected).count)
                return (predicted.isEmpty ? 1 : hits / Double(predicted.count), hits / Double(expected.count))
            }
            let (ourPrecision, ourRecall) = score(ours)
            let (theirPrecision, theirRecall) = score(theirs)
            print(
                "corpus: \(files.count) files, \(expected.count) true pairs; PhotoDeck precision \(ourPrecision) recall \(ourRecall); findimagedupes precision \(theirPrecision) recall \(theirRecall)"
            )
            let missed = expected.subtracting(ours).map { $0.map { $0.split(separator: "/").suffix(2).joined(separator: "/") } }
            let wrong = ours.subtracting(expected).map { $0.map { $0.split(separator: "/").suffix(2).joined(separator: "/") } }
            print("wrong pairs: \(Set(wrong.map { $0.joined(separator: " ~ ") }).sorted().prefix(3))")
            #expect(ourPrecision >= 0.98, "wrong pairs: \(wrong.prefix(20))")
            #expect(ourRecall >= 0.95, "missed pairs: \(missed.prefix(20))")
            #expect(ourPrecision + ourRecall > theirPrecision + theirRecall)
        }
    }
#endif
