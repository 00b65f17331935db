import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoAlbum

/// Burst, pair and cover accuracy on a seeded corpus: cameras' bursts with
/// one frame in focus, phones' named bursts, HEIC-style pairs, and the
/// near misses beside them (the same camera's next shot 2.5 s on, another
/// body of the same model within the burst, a base name shared by two
/// shots, two unique ids).
///
/// Run by the release test build (`make test`), as the duplicate
/// corpus is; ``AlbumStacksTests`` covers each rule in every build.
#if !DEBUG
    @Suite(
        "Bursts and pairs: accuracy on a corpus", .dedicatedThreads,
        .enabled(if: ProcessInfo.processInfo.environment["PHOTODECK_SANITIZER"] == nil))
    struct StackCorpusTests {
        /// One file of the corpus: its picture, its name, its EXIF (exiftool arguments), which stack it truly belongs to, and whether it is that stack's true cover.
        struct Planned {
            let bitmap: Bitmap
            let name: String
            let format: ImageFormat
            let exif: [String]
            let stack: String?
            let isCover: Bool
        }

        static func time(_ seconds: Double) -> (String, String) {
            let whole = Int(seconds)
            let hours = 10 + whole / 3600
            let minutes = whole / 60 % 60
            let sub = Int(((seconds - Double(whole)) * 1000).rounded())
            return (String(format: "%02d:%02d:%02d", hours, minutes, whole % 60), String(format: "%03d", min(sub, 999)))
        }

        static func camera(serial: String, at seconds: Double) -> [String] {
            let (clock, sub) = time(seconds)
            return [
                "-Make=Canon", "-Model=Canon EOS R6", "-SerialNumber=\(serial)", "-DateTimeOriginal=2024:07:01 \(clock)", "-OffsetTimeOriginal=+02:00",
                "-SubSecTimeOriginal=\(sub)",
            ]
        }

        /// The corpus, seeded: 14 camera bursts of 3-7 frames, 3 phone bursts by name, 8 pairs, and 22 near misses.
        static func plan() throws -> [Planned] {
            var random = SeededGenerator(seed: 5_757)
            var planned: [Planned] = []
            var clock = 0.0
            // AlbumStacksTests' frames: a scene seen from `step`, blurred by `blur`, its exposure scaled by `gain`.
            func frame(_ seed: UInt64, step: Double, blur: Int, gain: Double = 1) throws -> Bitmap {
                try AlbumStacksTests.frame(seed: seed, step: step, blur: blur, gain: gain)
            }
            var number = 1000
            func nextName(_ ext: String = "JPG") -> String {
                number += 1
                return "IMG_\(number).\(ext)"
            }
            for burst in 0..<14 {
                let serial = "R6-\(burst % 3)"
                let count = Int.random(in: 3...7, using: &random)
                let sharp = Int.random(in: 0..<count, using: &random)
                let seed = UInt64(700 + burst)
                for index in 0..<count {
                    if index > 0 { clock += Double.random(in: 0.15...1.8, using: &random) }
                    let blur = index == sharp ? 1 : Int.random(in: 2...4, using: &random)
                    let gain = index == sharp ? 1 : Double.random(in: 0.85...1.1, using: &random)
                    planned.append(
                        Planned(
                            bitmap: try frame(seed, step: 0.003 * Double(index), blur: blur, gain: gain), name: nextName(), format: .jpeg,
                            exif: camera(serial: serial, at: clock), stack: "burst \(burst)", isCover: index == sharp))
                    // Another body of the same model, inside this burst's time: never part of it.
                    if burst % 4 == 1, index == 1 {
                        planned.append(
                            Planned(
                                bitmap: try frame(seed + 50, step: 0, blur: 1), name: nextName(), format: .jpeg,
                                exif: camera(serial: "R6-other", at: clock + 0.1),
                                stack: nil, isCover: false))
                    }
                }
                // The same camera's next shot, 2.5-6 s on: alone.
                clock += Double.random(in: 2.5...6, using: &random)
                planned.append(
                    Planned(
                        bitmap: try frame(seed + 100, step: 0, blur: 1), name: nextName(), format: .jpeg, exif: camera(serial: serial, at: clock), stack: nil,
                        isCover: false))
                clock += 30
            }
            // Phones' bursts by name, no EXIF: the sharpest wins even where the phone flagged another frame.
            for burst in 0..<3 {
                let count = 4
                let sharp = burst + 1
                let flagged = burst == 2 ? 0 : sharp
                for index in 0..<count {
                    let name = "IMG_2024070\(burst + 1)_101010_BURST00\(index + 1)\(index == flagged ? "_COVER" : "").jpg"
                    planned.append(
                        Planned(
                            bitmap: try frame(UInt64(800 + burst), step: 0.003 * Double(index), blur: index == sharp ? 1 : 3), name: name, format: .jpeg,
                            exif: [],
                            stack: "phone \(burst)", isCover: index == sharp))
                }
            }
            // Pairs: one shot as JPEG and WebP or PNG, the same moment, some with ImageUniqueID.
            for pair in 0..<8 {
                clock += 60
                let base = "PAIR_\(3000 + pair)"
                let picture = try frame(UInt64(900 + pair), step: 0, blur: 1)
                var exif = ["-Make=Apple", "-Model=iPhone 15"] + Array(camera(serial: "", at: clock).dropFirst(3))
                if pair % 2 == 0 { exif.append("-ImageUniqueID=U\(pair)") }
                let other: ImageFormat = pair % 3 == 0 ? .png : .webp
                planned.append(Planned(bitmap: picture, name: "\(base).JPG", format: .jpeg, exif: exif, stack: "pair \(pair)", isCover: true))
                planned.append(
                    Planned(bitmap: picture, name: "\(base).\(other.identifier.uppercased())", format: other, exif: exif, stack: "pair \(pair)", isCover: false)
                )
            }
            // Near misses: one base name, two shots 40 s apart; one moment, two unique ids.
            for miss in 0..<4 {
                clock += 60
                let base = "MISS_\(4000 + miss)"
                let first = ["-Make=Apple", "-Model=iPhone 15"] + Array(camera(serial: "", at: clock).dropFirst(3))
                let apart = Array(camera(serial: "", at: miss % 2 == 0 ? clock + 40 : clock).dropFirst(3))
                let ids = miss % 2 == 0 ? ([], []) : (["-ImageUniqueID=A\(miss)"], ["-ImageUniqueID=B\(miss)"])
                planned.append(
                    Planned(
                        bitmap: try frame(UInt64(950 + miss), step: 0, blur: 1), name: "\(base).JPG", format: .jpeg, exif: first + ids.0, stack: nil,
                        isCover: false
                    ))
                planned.append(
                    Planned(
                        bitmap: try frame(UInt64(960 + miss), step: 0, blur: 1), name: "\(base).WEBP", format: .webp,
                        // The second without a camera: one camera at one moment would be a burst.
                        exif: (miss % 2 == 0 ? ["-Make=Apple", "-Model=iPhone 15"] : []) + apart + ids.1, stack: nil, isCover: false))
            }
            return planned
        }

        @Test("bursts and pairs found with precision and recall over pairs of photos; each cover the frame in focus")
        func accuracy() async throws {
            let scratch = Scratch()
            defer { scratch.cleanUp() }
            let planned = try Self.plan()
            var arguments: [String] = []
            for item in planned {
                let path = "\(scratch.path)/\(item.name)"
                try Data(try item.bitmap.encoded(as: item.format, options: EncodeOptions(quality: 90))).write(to: URL(fileURLWithPath: path))
                if !item.exif.isEmpty { arguments += ["-overwrite_original", "-q"] + item.exif + [path, "-execute"] }
            }
            try arguments.joined(separator: "\n").write(toFile: "\(scratch.path)/args", atomically: true, encoding: .utf8)
            let written = try ChildProcess.run("exiftool", ["-@", "\(scratch.path)/args"])
            #expect(written.status == 0, "\(written.output)")
            let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
            try await store.createAlbum(named: "Corpus")
            var truth: [AssetID: Planned] = [:]
            for item in planned {
                guard case .added(let added) = try await store.importFile(at: "\(scratch.path)/\(item.name)", into: "Corpus") else { continue }
                truth[added.asset] = item
            }
            #expect(truth.count == planned.count)
            let stacks = try await store.stacks(in: "Corpus")

            // Pairs of photos in one stack, found against planned.
            func pairs(_ groups: [[AssetID]]) -> Set<Set<AssetID>> {
                var result = Set<Set<AssetID>>()
                for group in groups {
                    for (index, a) in group.enumerated() { for b in group[(index + 1)...] { result.insert([a, b]) } }
                }
                return result
            }
            let plannedGroups = Dictionary(grouping: truth.filter { $0.value.stack != nil }, by: { $0.value.stack! }).values.map { $0.map(\.key) }
            let expected = pairs(plannedGroups)
            let found = pairs(stacks.map(\.assets))
            let precision = found.isEmpty ? 1 : Double(found.intersection(expected).count) / Double(found.count)
            let recall = Double(found.intersection(expected).count) / Double(expected.count)
            let kinds = stacks.filter { stack in
                let label = truth[stack.assets[0]]?.stack ?? ""
                return (stack.kind == .pair) == label.hasPrefix("pair")
            }.count
            let covers = stacks.filter { truth[$0.cover]?.isCover == true }.count
            print(
                "stack corpus: \(planned.count) files, \(plannedGroups.count) stacks planned, \(stacks.count) found; pairs of photos: precision "
                    + String(format: "%.3f", precision) + ", recall " + String(format: "%.3f", recall) + "; kind right \(kinds)/\(stacks.count)"
                    + "; cover right \(covers)/\(stacks.count)")
            let named = { (pairs: Set<Set<AssetID>>) in pairs.map { $0.compactMap { truth[$0]?.name }.sorted().joined(separator: " ~ ") }.sorted() }
            #expect(precision == 1 && recall == 1, "wrong: \(named(found.subtracting(expected))), missed: \(named(expected.subtracting(found)))")
            #expect(kinds == stacks.count && covers == stacks.count)
            await store.close()
        }
    }
#endif
