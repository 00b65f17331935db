import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoAlbum

/// The picker offers a burst or a pair by its cover unless asked for every frame.
@Suite("Picker: bursts and pairs by their cover", .dedicatedThreads)
struct PickerStacksTests {
    /// A folder: a Canon burst of five frames (the third sharp), a WebP+JPEG pair of one shot, a photo alone.
    static func folder(_ scratch: Scratch) throws -> (burst: [String], pair: [String], alone: String) {
        let times = [("12:00:00", "100"), ("12:00:00", "550"), ("12:00:01", "020"), ("12:00:01", "480"), ("12:00:02", "000")]
        var burst: [String] = []
        for (index, (time, sub)) in times.enumerated() {
            let image = try AlbumStacksTests.frame(seed: 7, step: 0.004 * Double(index), blur: index == 2 ? 1 : 3)
            burst.append(
                try AlbumStacksTests.shot(
                    image, scratch.path, "IMG_\(1001 + index).JPG", exif: AlbumStacksTests.camera(serial: "0123", time: time, subseconds: sub)))
        }
        let picture = try AlbumStacksTests.frame(seed: 21, step: 0, blur: 1)
        let exif = ["-DateTimeOriginal=2024:06:01 08:00:00", "-Make=Apple", "-Model=iPhone 15", "-ImageUniqueID=ABC"]
        let pair = [
            try AlbumStacksTests.shot(picture, scratch.path, "PAIR_0001.JPG", exif: exif),
            try AlbumStacksTests.shot(picture, scratch.path, "PAIR_0001.WEBP", exif: exif, format: .webp),
        ]
        let alone = try AlbumStacksTests.shot(
            try AlbumStacksTests.frame(seed: 9, step: 0, blur: 1), scratch.path, "ZZZ.JPG",
            exif: AlbumStacksTests.camera(serial: "0123", time: "13:00:00", subseconds: "0"))
        return (burst, pair, alone)
    }

    static func name(_ asset: PickedAsset) -> String { String((asset.path ?? asset.id).split(separator: "/").last ?? "") }

    @Test("a burst is offered by its sharpest frame and a pair by its JPEG, naming their frames; every frame when asked; picked, the cover comes back")
    func coversOffered() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let files = try Self.folder(scratch)
        let library = try await FolderPhotoLibrary.open(root: scratch.path)
        let picker = ScriptedPicker([.confirm])
        let session = PickerSession(configuration: PickerConfiguration(sourcePreference: [.photoLibrary], selectionLimit: 0), sources: [library])
        _ = try await session.run(with: picker)
        let offered = try #require(picker.lastState?.candidates)
        // In the library's order (capture time), each stack where its first frame was.
        #expect(offered.map(Self.name) == ["IMG_1003.JPG", "ZZZ.JPG", "PAIR_0001.JPG"], "\(offered.map(Self.name))")
        let burst = try #require(offered.first)
        #expect(burst.stackFrames.count == 5 && burst.stackFrames.contains(burst.id))
        #expect(Set(burst.stackFrames) == Set(try await library.candidates(matching: .everything).filter { Self.name($0).hasPrefix("IMG_") }.map(\.id)))
        #expect(offered[2].stackFrames.count == 2 && offered[1].stackFrames.isEmpty)
        _ = files

        // Picked, the cover comes back with its frames named.
        let choosing = ScriptedPicker([.toggle(burst.id), .confirm])
        guard case .picked(let picked) = try await session.run(with: choosing) else {
            Issue.record("not picked")
            return
        }
        #expect(picked.map(Self.name) == ["IMG_1003.JPG"] && picked.first?.stackFrames.count == 5)

        var every = PickerConfiguration(sourcePreference: [.photoLibrary], selectionLimit: 0)
        every.stacks = .everyFrame
        let all = ScriptedPicker([.confirm])
        _ = try await PickerSession(configuration: every, sources: [library]).run(with: all)
        #expect(all.lastState?.candidates.count == 8 && all.lastState?.candidates.allSatisfy { $0.stackFrames.isEmpty } == true)
    }

    @Test("the cover rule: sharpest wins; on a tie the phone's cover flag, then a JPEG; a pair's JPEG; nothing measured: the first")
    func coverRule() throws {
        let sharp = try #require(ImageSharpness(laplacianVariance: 900, meanLuma: 120, clippedFraction: 0, lumaVariance: 2_000))
        let soft = try #require(ImageSharpness(laplacianVariance: 100, meanLuma: 120, clippedFraction: 0, lumaVariance: 2_000))
        typealias Candidate = StackFinder.CoverCandidate
        #expect(
            StackFinder.coverIndex(
                of: [Candidate(isJPEG: true, sharpness: soft, isPhoneCover: true), Candidate(isJPEG: false, sharpness: sharp, isPhoneCover: false)],
                kind: .burst) == 1)
        #expect(
            StackFinder.coverIndex(
                of: [
                    Candidate(isJPEG: true, sharpness: sharp, isPhoneCover: false), Candidate(isJPEG: false, sharpness: sharp, isPhoneCover: true),
                    Candidate(isJPEG: true, sharpness: sharp, isPhoneCover: false),
                ], kind: .burst) == 1)
        #expect(
            StackFinder.coverIndex(
                of: [Candidate(isJPEG: false, sharpness: sharp, isPhoneCover: false), Candidate(isJPEG: true, sharpness: sharp, isPhoneCover: false)],
                kind: .burst) == 1)
        #expect(
            StackFinder.coverIndex(
                of: [Candidate(isJPEG: false, sharpness: sharp, isPhoneCover: false), Candidate(isJPEG: true, sharpness: nil, isPhoneCover: false)],
                kind: .pair) == 1)
        #expect(
            StackFinder.coverIndex(
                of: [Candidate(isJPEG: false, sharpness: nil, isPhoneCover: false), Candidate(isJPEG: true, sharpness: nil, isPhoneCover: true)],
                kind: .burst) == 0)
    }
}
