import Foundation
import ImageCodecs
import PhotoBrowser
import TestSupport
import Testing

@testable import PhotoViewer

/// The information overlay (`i`): what the photo is and what the camera
/// recorded, its position only when asked for, every text terminal-safe.
@Suite("Viewer information overlay", .dedicatedThreads)
struct InfoOverlayTests {
    static let pixel = TestData.root.appendingPathComponent("pillow-edgecases/ultrahdr.jpg").path

    @Test("i shows a Pixel 6 photo's camera, lens, exposure and date, its position hidden; i again hides it; the position when asked")
    func toggle() async throws {
        let photo = try BrowserPhoto(fileAt: Self.pixel)
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 600, height: 400))
        #expect(await controller.frame().info == nil)
        #expect(await controller.infoLineCount() == 0)
        #expect(await controller.press(.character("i"), pointer: .zero) == .redraw)
        // Known before the frame is made, so a terminal lays out once: the same count the frame then has.
        let count = await controller.infoLineCount()
        let framesBefore = await controller.framesMade
        let info = try #require(await controller.frame().info)
        #expect(count == info.count && count >= 6)
        #expect(await controller.framesMade == framesBefore + 1, "asking for the count made no frame")
        #expect(info.first == "ultrahdr.jpg")
        #expect(info.contains { $0.hasPrefix("\(photo.displaySize.width)×\(photo.displaySize.height) · JPEG · 47 KB") })
        #expect(info.contains("Google Pixel 6 · Google Pixel 6 back camera 6.81mm f/1.85"))
        #expect(info.contains("1/25 s · f/1.9 · ISO 89 · 6.8 mm (24 mm in 35 mm)"))
        #expect(info.contains("taken 2024-05-07 09:33:04 +08:00"))
        #expect(info.contains("location recorded (hidden)"))
        #expect(!info.joined().contains("30.6"), "the position is off by default")
        await controller.setShowsLocation(true)
        #expect(await controller.frame().info?.contains("at 30.62765° N, 119.73877° E") == true)
        _ = await controller.press(.character("i"), pointer: .zero)
        #expect(await controller.frame().info == nil)
        #expect(await controller.infoLineCount() == 0)
    }

    @Test("texts from the file are terminal-safe; a photo with nothing recorded says so; sizes read as people write them")
    func hostileAndEmpty() {
        var shot = ExifDetails()
        shot.cameraMake = "Evil"
        shot.cameraModel = "Cam\u{1B}]0;owned\u{7}\u{9B}2J"
        let lines = InfoPanel.lines(
            name: "a\u{1B}[2Jb.jpg", details: PhotoDetails(displaySize: PixelSize(width: 4, height: 3), exif: shot), showsLocation: true)
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(lines.count == 3)
        let bare = InfoPanel.lines(name: "x.png", details: PhotoDetails(displaySize: PixelSize(width: 4, height: 3)), showsLocation: true)
        #expect(bare == ["x.png", "4×3", "no camera details recorded"])
        #expect([InfoPanel.byteCount(850), InfoPanel.byteCount(12_000), InfoPanel.byteCount(5_452_595)] == ["850 bytes", "12 KB", "5.2 MB"])
    }

    @Test("only an animated GIF or WebP is opened as an animation: a still photo's header says so, and it is never decoded whole for it")
    func animationsFromTheHeader() throws {
        let gif = try ImageInfo(probingFileAt: TestData.packageRoot.appendingPathComponent("Examples/Samples/whirl.gif").path)
        #expect(AnimationFrames.plays(gif))
        let jpeg = try ImageInfo(probingFileAt: Self.pixel)
        #expect(!AnimationFrames.plays(jpeg))
        #expect(AnimationFrames(bytes: try fileBytes(URL(fileURLWithPath: Self.pixel))) == nil)
        #expect(
            AnimationFrames(bytes: try fileBytes(URL(fileURLWithPath: TestData.packageRoot.appendingPathComponent("Examples/Samples/whirl.gif").path))) != nil)
    }
}
