import Foundation
import ImageCodecs
import ImageLoading
import ServiceKitTesting
import SystemSupport
import TestSupport
import Testing

/// `info(at:)` told from a download's first bytes, the download going on.
@Suite("Loader headers from the first bytes", .dedicatedThreads)
struct LoaderEarlyHeaderTests {
    /// A progressive photo turned a quarter (EXIF 6), 1200x800 stored.
    static func turnedPhoto() throws -> [UInt8] {
        try TestPhotos.landscapeJPEG(size: PixelSize(width: 1_200, height: 800), quality: 92, exif: ExifMetadata(orientation: .right))
    }

    @Test("the header is told while the rest is held at the server; the load that follows joins the same download")
    func headerBeforeTheBody() async throws {
        let jpeg = try Self.turnedPhoto()
        #expect(jpeg.count > 100_000)
        let gate = try LoopbackHTTPServer.Gate()
        let server = try LoopbackHTTPServer { _ in .paused(status: 200, body: jpeg, sent: 40_000, until: gate) }
        defer {
            gate.open()
            server.stop()
        }
        let loader = makeLoader()
        let url = server.url(path: "/turned.jpg")
        let info = try await loader.info(at: url)
        #expect(info.orientedSize == PixelSize(width: 800, height: 1_200) && info.orientation == .right)
        #expect(server.bytesSent < 45_000, "told from the first 40,000 bytes: \(server.bytesSent) sent")
        let early = await loader.statistics
        #expect(early.earlyHeaders == 1, "\(early)")

        // Nobody waits now, yet the download goes on (held); the load joins it.
        let load = Task { try await loader.image(for: ImageRequest(url: url, size: PixelSize(width: 200, height: 300))) }
        try await waitUntil("the load to join", timeout: networkWait) { await loader.statistics.joinedDownloads == 1 }
        gate.open()
        let image = try await load.value
        #expect(image.bitmap.size == PixelSize(width: 200, height: 300) && image.origin == .network)
        #expect(server.requests.count == 1, "one download for the header and the pixels")
        #expect(await loader.statistics.downloads == 1)
    }

    @Test("without a declared length, or from the disk cache, the header comes from the whole image")
    func headerFromTheWhole() async throws {
        let jpeg = try Self.turnedPhoto()
        let server = try LoopbackHTTPServer { request in
            if request.path == "/undeclared.jpg" {
                return .stream(status: 200, headers: [:], declaredLength: nil, chunk: jpeg, repeats: 1)
            }
            return .respond(status: 200, headers: ["Cache-Control": "max-age=3600"], body: jpeg)
        }
        defer { server.stop() }
        let folder = scratchFolder("early-header")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let loader = makeLoader(disk: try await DiskCache.open(directory: folder, capacityBytes: 8 << 20))
        #expect(try await loader.info(at: server.url(path: "/undeclared.jpg")).orientedSize == PixelSize(width: 800, height: 1_200))
        #expect(await loader.statistics.earlyHeaders == 0)
        let cached = server.url(path: "/cached.jpg")
        _ = try await loader.data(at: cached)
        #expect(try await loader.info(at: cached).orientedSize == PixelSize(width: 800, height: 1_200))
        let statistics = await loader.statistics
        #expect(statistics.diskHits == 1 && statistics.earlyHeaders == 0 && server.requests.count == 2)
    }

    @Test("not an image: the header's error is the whole body's; a header asked for and left early cancels the download")
    func hostileAndCancelled() async throws {
        let gate = try LoopbackHTTPServer.Gate()
        let html = Array(String(repeating: "<p>not a picture</p>", count: 5_000).utf8)
        let server = try LoopbackHTTPServer { request in
            request.path == "/page.jpg"
                ? .respond(status: 200, headers: ["Content-Type": "image/jpeg"], body: html)
                : .paused(status: 200, body: html, sent: 8, until: gate)
        }
        defer {
            gate.open()
            server.stop()
        }
        let loader = makeLoader()
        await #expect(throws: ImageLoadingError.self) { try await loader.info(at: server.url(path: "/page.jpg")) }

        let waiting = Task { try await loader.info(at: server.url(path: "/held.jpg")) }
        try await waitUntil("the request", timeout: networkWait) { server.requests.count == 2 }
        waiting.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await waiting.value }
        try await waitUntil("the server to see the socket closed", timeout: networkWait) { server.openConnections == 0 }
        #expect(server.abandonedConnections == 1)
    }
}
