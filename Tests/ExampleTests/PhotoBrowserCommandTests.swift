import Foundation
import ImageCodecs
import TestSupport
import Testing

@Suite("photo-browser")
struct PhotoBrowserCommandTests {
    static let samples = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples").path

    @Test("a scripted session over the samples: pages, zoom, prefetch hits and a snapshot per step")
    func scripted() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("photo-browser-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try await ExampleProcess.run(
            "photo-browser",
            [
                "--viewport", "390x844", "--scale", "2", "--out", out, Self.samples, "--", "next", "double-tap", "200,400", "pan", "-50,0", "next", "next",
                "prev", "resize", "844x390", "tap", "goto", "1", "swipe", "0,400",
            ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("open -> page 1/6 portrait-orientation-6.jpg") == true, "\(lines)")
        // The second page was prefetched while the first was shown.
        #expect(lines.contains { $0.hasPrefix("next: turnedPage(to: 1) -> page 2/6") && !$0.contains("decoded in") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("double-tap 200,400: zoomChanged") && $0.contains("zoom 1.000") })
        #expect(lines.contains { $0.hasPrefix("tap: chromeToggled(hidden: true)") && $0.hasSuffix("chrome hidden") })
        #expect(lines.contains { $0.hasPrefix("resize 844x390: zoomChanged") && $0.contains("rendition 520x780") })
        #expect(lines.contains("swipe 0,400: dismiss (the browser would close)"))
        #expect(lines.dropLast().last?.hasPrefix("cache: ") == true)
        let limit = ProcessInfo.processInfo.activeProcessorCount + 2
        #expect(lines.last?.hasPrefix("image threads: at most ") == true && lines.last?.hasSuffix("(limit \(limit))") == true)
        // Fit renditions never exceed the viewport's pixels (780x1688).
        for line in lines where line.contains("zoomChanged") == false && line.contains("rendition ") {
            let size = line.components(separatedBy: "rendition ")[1].split(separator: " ")[0].split(separator: "x").compactMap { Int($0) }
            #expect(size.count == 2 && size[0] <= 1688 && size[1] <= 1688, "\(line)")
        }
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(snapshots.first == "00-open.png")
        #expect(snapshots.count == 10, "the open screen and 9 commands; the dismissal draws nothing")
        let first = try ImageInfo(probingFileAt: "\(out)/00-open.png")
        #expect(first.size == PixelSize(width: 780, height: 1688))
        let rotated = try ImageInfo(probingFileAt: "\(out)/\(snapshots.first { $0.hasSuffix("resize.png") }!)")
        #expect(rotated.size == PixelSize(width: 1688, height: 780))
    }

    @Test("bad commands and empty folders are one error line")
    func errors() async throws {
        let bad = try await ExampleProcess.run("photo-browser", [Self.samples, "--", "fly"])
        #expect(bad.status == 1 && bad.standardError.hasPrefix("error: unknown command 'fly'"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let none = try await ExampleProcess.run("photo-browser", [empty])
        #expect(none.status == 1 && none.standardError.contains("no photos"))
    }

    @Test("a folder with a Live Photo (a still and a MOV with one identifier): one page, the still's, from the first step")
    func livePhoto() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("browser-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let identifier = "4F1B2C3D-0000-4A5B-8C9D-0000000000B1"
        try TestLivePhotos.writePair(in: folder, stem: "IMG_0001", identifier: identifier)
        try FileManager.default.copyItem(atPath: "\(Self.samples)/waterfall.jpg", toPath: "\(folder)/IMG_0002.jpg")
        let result = try await ExampleProcess.run("photo-browser", ["--viewport", "320x240", folder, "--", "next"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("open -> page 1/2 IMG_0001.JPG") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("next: turnedPage(to: 1) -> page 2/2 IMG_0002.jpg") }, "\(lines)")
    }
}
