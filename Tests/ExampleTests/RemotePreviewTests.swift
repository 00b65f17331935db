import ExampleViewing
import Foundation
import ImageCodecs
import ImageLoading
import PhotoBrowser
import PhotoViewer
import ServiceKit
import ServiceKitTesting
import TestSupport
import Testing

/// photo-browser's pages of photos on the network (``RemotePhotos``)
/// drawn as they download: the page opens from the header, the first
/// preview is drawn from the first scans, the pixels end it.
@Suite("remote pages drawn as they download", .dedicatedThreads)
struct RemotePreviewTests {
    /// A 1.2 MB progressive JPEG of a real photo, 2400x1600.
    static func progressivePhoto() throws -> [UInt8] {
        try TestPhotos.landscapeJPEG(size: PixelSize(width: 2_400, height: 1_600), quality: 95)
    }

    /// A server that sends 15% of `body` (its whole length declared) and
    /// holds the rest until the gate opens; how many bytes it sends first.
    static func holding(_ body: [UInt8]) throws -> (server: LoopbackHTTPServer, gate: LoopbackHTTPServer.Gate, held: Int) {
        let held = body.count * 15 / 100
        let gate = try LoopbackHTTPServer.Gate()
        let server = try LoopbackHTTPServer { _ in .paused(status: 200, body: body, sent: held, until: gate) }
        return (server, gate, held)
    }

    @Test("held at 15% of its bytes, the page opens and its first frame is a preview; released, the pixels come in the same download")
    func firstPreviewWithinFifteenPercent() async throws {
        let jpeg = try Self.progressivePhoto()
        #expect(jpeg.count > 500_000)
        let (server, gate, held) = try Self.holding(jpeg)
        defer {
            gate.open()
            server.stop()
        }
        // The download is held until the first frame is drawn, and the preview behind it is decoded on the
        // image workers, which the whole suite shares: under its load that can take minutes, longer than the
        // 120 s a download may take by default.
        let loader = ImageLoader(configuration: .init(transport: CurlTransport(), retryPolicy: .never, timeout: .seconds(600), deadline: .seconds(900)))
        let url = server.url(path: "/progressive.jpg")
        let photos = RemotePhotos([.remote(url)], loader: loader)
        // The page's size comes from the header, long before the held bytes.
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 600, height: 400))
        let redraws = await controller.redrawRequests()
        var frames = redraws.makeAsyncIterator()
        let first = await controller.frame()
        guard case .page(let preview) = first.content else {
            Issue.record("the first frame is not a page: \(first.content)")
            return
        }
        #expect(preview.origin == .preview)
        #expect(preview.frame.size == CGSize(width: 600, height: 400) && preview.rendition.width <= 600)
        #expect(server.bytesSent <= held + 1_024, "drawn from at most 15% of the bytes: \(server.bytesSent) of \(jpeg.count) sent")
        #expect(first.statusLine.contains("2400x1600"))

        gate.open()
        var shown = preview
        while shown.origin.isInterim {
            _ = await frames.next()
            guard case .page(let page) = await controller.frame().content else {
                Issue.record("not a page")
                return
            }
            shown = page
        }
        #expect(shown.rendition.size == PixelSize(width: 600, height: 400))
        let expected = try DecodedImage(rendering: jpeg, in: PixelSize(width: 600, height: 400), mode: .fit, options: .interactive())
        #expect(shown.rendition == expected.bitmap, "the page's pixels are the photo's rendition")
        #expect(server.requests.count == 1, "the header, the previews and the pixels from one download")
        #expect(await loader.statistics.earlyHeaders == 1)
    }
}
