import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoGallery

/// A published gallery in headless Chromium driven by Selenium
/// (Browser/check_gallery.py, which serves it on 127.0.0.1), at a phone's
/// viewport (390x844 at 3x, touch) and a desktop's (1440x900): what a
/// person on each would get. Screenshots of each stay in
/// `.build/test-output/gallery/` for a person to look at.
@Suite("A gallery in a real browser", .dedicatedThreads)
struct GalleryBrowserTests {
    static let script = TestData.packageRoot.appendingPathComponent("Tests/PhotoGalleryTests/Browser/check_gallery.py").path
    static let shots = TestData.packageRoot.appendingPathComponent(".build/test-output/gallery").path

    /// What the checker saw of one viewport.
    struct Viewport: Decodable {
        struct Tile: Decodable {
            let src: String
            let css: Double
            let dpr: Double
            let visible: Bool
            let candidates: [Int]
        }
        struct Viewer: Decodable {
            let opened: String
            let chosen: [Value]
            let afterRight: String
            let afterLeft: String
            let afterSwipe: String?
            let closed: Bool
        }
        struct Pages: Decodable {
            let first: String
            let chosen: [Value]
            let afterRight: String
            let afterSwipe: String?
            let afterLeft: String
            let afterEscape: String
        }
        struct HeldBack: Decodable {
            let x: Double
            let y: Double
            let width: Double
            let height: Double
            let loaded: Bool
            let background: String
            let dpr: Double
        }
        let firstScreenBytes: Int
        let firstScreenRequests: Int
        let cumulativeLayoutShift: Double
        let fit: [Tile]
        let imageCount: Int
        let allLoaded: Bool
        let consoleErrors: [String]
        let viewer: Viewer
        let pages: Pages
        let requests: [String]
        let heldBack: HeldBack
        let heldBackShot: String
    }

    /// A string or a number from the checker's JSON.
    enum Value: Decodable {
        case text(String)
        case number(Double)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
        }
        var text: String { if case .text(let value) = self { value } else { "" } }
        var number: Double { if case .number(let value) = self { value } else { 0 } }
    }

    struct Report: Decodable {
        struct NoScript: Decodable {
            let scriptRan: Bool
            let opened: String
            let next: String
            let up: String
            let consoleErrors: [String]
        }
        let phone: Viewport
        let desktop: Viewport
        let noJavaScript: NoScript
        let base: String
    }

    /// The rendition width in a rendition's URL.
    static func width(in url: String) -> Int? {
        url.firstMatch(of: /\/r\/[0-9a-f]+-(\d+)-[0-9a-f]+\.(?:webp|jpg)$/).flatMap { Int($0.output.1) }
    }

    @Test(
        "14 photos at a phone's and a desktop's viewport: the first screen's bytes, every picture loaded and fitted, no error, nothing from elsewhere, placeholders, keys and swipes, and no script needed"
    )
    func inChromium() async throws {
        let folder = GalleryFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Fourteen photos of 2.4 MP (a phone gets the same renditions whatever the original's size), one portrait.
        var photos = try GalleryFixtures.photos(13, size: PixelSize(width: 1800, height: 1350), caption: "Day")
        photos.insert(contentsOf: try GalleryFixtures.photos(1, size: PixelSize(width: 1350, height: 1800), firstSeed: 90), at: 3)
        let site = "\(folder)/site"
        let options = GalleryOptions(title: "Lisbon", description: "Five days", baseURL: URL(string: "https://photos.example.com/lisbon/"))
        let summary = try await GalleryPublisher(options: options).publish(photos, to: site)
        try FileManager.default.createDirectory(atPath: Self.shots, withIntermediateDirectories: true)

        let run = try await ChildProcess.finish("/usr/bin/python3", [Self.script, site, Self.shots])
        let json = try #require(run.output.split(separator: "\n").last, "the checker printed nothing (status \(run.status))")
        try #require(run.status == 0, "the checker failed: \(json)")
        let report = try JSONDecoder().decode(Report.self, from: Data(json.utf8))

        for (name, viewport) in [("phone", report.phone), ("desktop", report.desktop)] {
            // Every picture loads once scrolled to; nothing errs; every request is to the gallery's server.
            #expect(viewport.allLoaded && viewport.imageCount == 14, "\(name)")
            #expect(viewport.consoleErrors.isEmpty, "\(name): \(viewport.consoleErrors)")
            // (Chromium's own chrome:// pages, its new tab before the gallery opens, are not the network.)
            let outside = viewport.requests.filter { !$0.hasPrefix(report.base) && !$0.hasPrefix("data:") && !$0.hasPrefix("chrome://") }
            #expect(outside.isEmpty, "\(name): \(outside)")
            // Nothing jumps as pictures arrive: width and height reserve each tile's place.
            #expect(viewport.cumulativeLayoutShift < 0.01, "\(name): layout shift \(viewport.cumulativeLayoutShift)")
            // Each tile's picture is at least its size on the screen, and at most 2.5x it.
            for tile in viewport.fit {
                let chosen = try #require(Self.width(in: tile.src), "\(tile.src)")
                let needed = tile.css * tile.dpr
                let largest = tile.candidates.max() ?? 0
                #expect(Double(chosen) >= min(needed, Double(largest)) - 1, "\(name): \(chosen) for \(needed)")
                #expect(Double(chosen) <= max(2.5 * needed, Double(tile.candidates.min() ?? 0)), "\(name): \(chosen) for \(needed)")
            }
            // The photo page and the viewer take a picture at least the size shown.
            for chosen in [viewport.viewer.chosen, viewport.pages.chosen] {
                let width = try #require(Self.width(in: chosen[0].text))
                #expect(Double(width) >= chosen[1].number - 1 || width >= 1_800, "\(name): \(width) for \(chosen[1].number)")
            }
            // The viewer: opened on the first photo, the arrow keys move through the album, a swipe too, Escape closes it.
            #expect(viewport.viewer.opened == "0" && viewport.viewer.afterRight == "1" && viewport.viewer.afterLeft == "0" && viewport.viewer.closed)
            // A photo's page: keys and swipes follow the album's order; Escape goes back to the index at that photo.
            let page = { (index: Int) in "\(report.base)p/\(photos[index].id.prefix(16)).html" }
            #expect(viewport.pages.first == page(0) && viewport.pages.afterRight == page(1))
            #expect(viewport.pages.afterEscape.hasPrefix("\(report.base)index.html#"))
            // Pictures held back: the tile keeps its place and shows its placeholder, not the page's background.
            #expect(!viewport.heldBack.loaded && viewport.heldBack.height > 40 && viewport.heldBack.background.hasPrefix("url(\"data:image/png"))
            let shot = try DecodedImage(decodingFileAt: viewport.heldBackShot).bitmap.converted(to: .rgb8)
            let (cx, cy) = (
                Int((viewport.heldBack.x + viewport.heldBack.width / 2) * viewport.heldBack.dpr),
                Int((viewport.heldBack.y + viewport.heldBack.height / 2) * viewport.heldBack.dpr)
            )
            let pixel = Array(shot[min(cx, shot.width - 1), min(cy, shot.height - 1)])
            let placeholder = try Self.placeholderCentre(of: photos[0], in: site)
            #expect(zip(pixel, placeholder).allSatisfy { abs(Int($0) - Int($1)) <= 24 }, "\(name): \(pixel) where the placeholder is \(placeholder)")
        }
        // A phone swipes.
        #expect(report.phone.viewer.afterSwipe == "1")
        #expect(report.phone.pages.afterSwipe == "\(report.base)p/\(photos[2].id.prefix(16)).html")
        #expect(report.phone.pages.afterLeft == "\(report.base)p/\(photos[1].id.prefix(16)).html")
        // The budget: a phone's first screen under 1.5 MB.
        #expect(report.phone.firstScreenBytes < 1_500_000, "\(report.phone.firstScreenBytes) bytes")
        // Without JavaScript: pictures and links still work.
        #expect(!report.noJavaScript.scriptRan)
        #expect(report.noJavaScript.consoleErrors.isEmpty, "\(report.noJavaScript.consoleErrors)")
        #expect(report.noJavaScript.opened == "\(report.base)p/\(photos[0].id.prefix(16)).html")
        #expect(report.noJavaScript.next == "\(report.base)p/\(photos[1].id.prefix(16)).html")
        #expect(report.noJavaScript.up.hasPrefix("\(report.base)index.html"))
        #expect(summary.pageBytes < 120_000, "\(summary.pageBytes) bytes of pages")
        // For the record (the closing note's numbers): bytes of the first screen and of the pages.
        print(
            "gallery: phone first screen \(report.phone.firstScreenBytes) bytes in \(report.phone.firstScreenRequests) requests, desktop \(report.desktop.firstScreenBytes) in \(report.desktop.firstScreenRequests); pages \(summary.pageBytes) bytes"
        )
    }

    /// The centre colour of a photo's placeholder, as its tile shows it.
    static func placeholderCentre(of photo: GalleryPhoto, in site: String) throws -> [UInt8] {
        let manifest = try #require(GalleryManifest.read(inGallery: site))
        let uri = try #require(manifest.photos[photo.id]?.placeholder)
        let png = try #require(Data(base64Encoded: String(uri.dropFirst(GalleryManifest.placeholderPrefix.count))))
        let picture = try DecodedImage(decoding: [UInt8](png)).bitmap.converted(to: .rgb8)
        return Array(picture[picture.width / 2, picture.height / 2])
    }
}
