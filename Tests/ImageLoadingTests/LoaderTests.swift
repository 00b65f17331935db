import Foundation
import ImageCodecs
import ImageLoading
import ServiceKit
import ServiceKitTesting
import SystemSupport
import TestSupport
import Testing

@Suite("Image loading: coalescing, priorities, limits, sniffing")
struct LoaderTests {
    @Test("100 concurrent requests for 20 URLs make 20 downloads; one size of one URL is decoded once")
    func coalescing() async throws {
        let server = try PictureServer()
        let loader = makeLoader()
        let sizes = [thumbnail, PixelSize(width: 24, height: 16)]
        // Every download waits until all 100 requests are in.
        for index in 0..<20 { server.set("/img/\(index).jpg") { $0.hold = true } }
        let origins = try await withThrowingTaskGroup(of: ImageOrigin.self) { group in
            for request in 0..<100 {
                let index = request % 20
                group.addTask {
                    try await loader.image(for: ImageRequest(url: server.url("/img/\(index).jpg"), size: sizes[(request / 20) % 2])).origin
                }
            }
            try await waitUntil("all 100 requests to join their downloads", timeout: networkWait) { await loader.statistics.joinedDownloads == 80 }
            for index in 0..<20 { server.release("/img/\(index).jpg") }
            return try await group.reduce(into: [ImageOrigin]()) { $0.append($1) }
        }
        #expect(origins.count == 100)
        #expect(server.http.requests.count == 20, "one download per URL")
        let statistics = await loader.statistics
        #expect(statistics.downloads == 20 && statistics.joinedDownloads == 80)
        #expect(statistics.decodes == 40, "one decode per URL and size")
    }

    @Test("cancelling one request cancels nothing another waits for; cancelling the last closes the socket")
    func cancellation() async throws {
        let server = try PictureServer()
        let loader = makeLoader()
        let url = server.url("/img/1.jpg")
        server.set("/img/1.jpg") { $0.hold = true }
        let first = Task { try await loader.image(for: ImageRequest(url: url, size: thumbnail)) }
        let second = Task { try await loader.image(for: ImageRequest(url: url, size: thumbnail)) }
        try await waitUntil("the download", timeout: networkWait) { server.http.requests.count == 1 }
        first.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await first.value }
        server.release("/img/1.jpg")
        #expect(try await second.value.bitmap.width == 48)

        // A slow answer: 30,000 chunks 10 ms apart (five minutes, longer than any wait here however loaded the machine); the only requester leaves.
        let slow = try LoopbackHTTPServer { _ in
            .stream(
                status: 200, headers: ["Content-Type": "image/jpeg"], declaredLength: 30_000 * 1_024, chunk: [UInt8](repeating: 0, count: 1_024),
                repeats: 30_000,
                interval: .milliseconds(10))
        }
        defer { slow.stop() }
        let received = Lock<Int64>(0)
        let only = Task {
            try await loader.image(for: ImageRequest(url: slow.url(path: "/big.jpg"), size: thumbnail)) { got, _ in received.withLock { $0 = got } }
        }
        try await waitUntil("bytes to arrive", timeout: networkWait) { received.withLock { $0 } > 0 }
        only.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await only.value }
        try await waitUntil("the server to see the socket closed", timeout: networkWait) { slow.openConnections == 0 }
        #expect(slow.abandonedConnections == 1 && slow.requests.count == 1)
    }

    @Test("six downloads at most per host; visible before prefetch; a prefetch a visible request joins moves up")
    func priorities() async throws {
        let server = try PictureServer()
        // Thirty pictures, held until all thirty are asked for: six are sent, 24 wait.
        let loader = makeLoader()
        for index in 0..<30 { server.set("/img/\(index).jpg") { $0.hold = true } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask { _ = try await loader.image(for: ImageRequest(url: server.url("/img/\(index).jpg"), size: thumbnail, priority: .prefetch)) }
            }
            try await waitUntil("six sent, 24 queued", timeout: networkWait) {
                await loader.queuedDownloads(for: server.url("/")).count == 24 && server.http.requests.count == 6
            }
            for index in 0..<30 { server.release("/img/\(index).jpg") }
            try await group.waitForAll()
        }
        #expect(server.http.requests.count == 30)
        #expect(server.http.peakUnansweredRequests == 6, "six requests waited for their answers at once, never more")
        #expect(await loader.peakConnections(for: server.url("/")) == 6)

        // One connection: the first download holds it; three prefetches, then a visible one, queue.
        let serial = try PictureServer()
        let one = makeLoader(connectionsPerHost: 1)
        serial.set("/img/100.jpg") { $0.hold = true }
        let blocker = Task { try await one.image(for: ImageRequest(url: serial.url("/img/100.jpg"), size: thumbnail)) }
        try await waitUntil("the first download", timeout: networkWait) { serial.http.requests.count == 1 }
        var queued: [Task<LoadedImage, any Error>] = []
        func url(_ index: Int) -> URL { serial.url("/img/\(index).jpg") }
        for index in 101...103 {
            queued.append(Task { try await one.image(for: ImageRequest(url: url(index), size: thumbnail, priority: .prefetch)) })
            try await waitUntil("\(index) to queue", timeout: networkWait) { await one.queuedDownloads(for: url(index)).count == index - 100 }
        }
        queued.append(Task { try await one.image(for: ImageRequest(url: url(104), size: thumbnail, priority: .visible)) })
        try await waitUntil("the visible one to queue first", timeout: networkWait) {
            await one.queuedDownloads(for: url(104)) == [url(104), url(101), url(102), url(103)]
        }
        // A visible request for 103 joins its prefetch and raises it (asked before 104, it goes first among the visible).
        queued.append(Task { try await one.image(for: ImageRequest(url: url(103), size: thumbnail, priority: .visible)) })
        try await waitUntil("103 to move up", timeout: networkWait) { await one.queuedDownloads(for: url(103)) == [url(103), url(104), url(101), url(102)] }
        serial.release("/img/100.jpg")
        _ = try await blocker.value
        for task in queued { _ = try await task.value }
        #expect(serial.paths == ["/img/100.jpg", "/img/103.jpg", "/img/104.jpg", "/img/101.jpg", "/img/102.jpg"])
    }

    @Test("bytes are sniffed: an image served as text/html loads, HTML served as image/jpeg is refused and not kept")
    func sniffing() async throws {
        let server = try PictureServer()
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let loader = makeLoader(disk: disk)
        server.set("/img/1.jpg") { $0.headers = ["Content-Type": "text/html", "Cache-Control": "max-age=600"] }
        #expect(try await loader.image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail)).origin == .network)
        server.set("/img/2.jpg") {
            $0.headers = ["Content-Type": "image/jpeg", "Cache-Control": "max-age=600"]
            $0.body = Array("<html>not a picture</html>".utf8)
        }
        await #expect {
            _ = try await loader.image(for: ImageRequest(url: server.url("/img/2.jpg"), size: thumbnail))
        } throws: { error in
            guard case .decode(.unsupportedFormat, let url) = error as? ImageLoadingError else { return false }
            return url.hasSuffix("/img/2.jpg")
        }
        #expect(try await disk.usage().entries == 1, "only the picture is kept")
        // ImageCodecs' limits hold: a header claiming 34,464 x 34,464 is refused before pixels are allocated.
        var bomb = try noiseJPEG(width: 8, height: 8)
        let sof = try #require(bomb.indices.first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 })
        bomb.replaceSubrange((sof + 5)...(sof + 8), with: [0x86, 0xA0, 0x86, 0xA0])
        server.set("/img/3.jpg") { $0.body = bomb }
        await #expect {
            _ = try await loader.image(for: ImageRequest(url: server.url("/img/3.jpg"), size: thumbnail))
        } throws: { error in
            guard case .decode(.tooLarge, _) = error as? ImageLoadingError else { return false }
            return true
        }
    }

    @Test("reads are retried; a killed body, a body over the cap and an unsupported scheme are typed errors, and none is kept")
    func reliability() async throws {
        let server = try PictureServer()
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let loader = makeLoader(disk: disk, maxImageBytes: 64 << 10)
        server.set("/img/1.jpg") { $0.truncateTo = 100 }
        await #expect {
            _ = try await loader.image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail))
        } throws: { error in
            guard case .network = error as? ImageLoadingError else { return false }
            return true
        }
        #expect(server.requests("/img/1.jpg").count == 2, "a read is retried")
        // 1 GB, declared or not: cut at the cap.
        for declared in [true, false] {
            let huge = try LoopbackHTTPServer { _ in
                .stream(status: 200, headers: [:], declaredLength: declared ? 1 << 30 : nil, chunk: [UInt8](repeating: 0xFF, count: 65_536), repeats: 16_384)
            }
            defer { huge.stop() }
            await #expect(throws: ImageLoadingError.network(.responseTooLarge(limit: 64 << 10), url: huge.url(path: "/huge.jpg").absoluteString)) {
                _ = try await loader.image(for: ImageRequest(url: huge.url(path: "/huge.jpg"), size: thumbnail))
            }
        }
        #expect(try await disk.usage().entries == 0, "a partial or refused download is never kept")
        await #expect(throws: ImageLoadingError.unsupportedURL("ftp://example.com/a.jpg")) {
            _ = try await loader.image(for: ImageRequest(url: URL(string: "ftp://example.com/a.jpg")!, size: thumbnail))
        }
        // A file URL is read, not downloaded.
        let file = folder + "/local.jpg"
        try Data(try noiseJPEG(width: 30, height: 20)).write(to: URL(fileURLWithPath: file))
        let local = try await loader.image(for: ImageRequest(url: URL(fileURLWithPath: file), size: thumbnail))
        #expect(local.origin == .file && local.bitmap.width == 30)
    }

    @Test("a redirect to another host is followed without the credentials meant for the first")
    func redirect() async throws {
        let cdn = try PictureServer(host: "127.0.0.2")
        let origin = try LoopbackHTTPServer { _ in .respond(status: 302, headers: ["Location": cdn.url("/img/7.jpg").absoluteString]) }
        defer { origin.stop() }
        let loader = ImageLoader(
            configuration: .init(transport: HeaderAddingTransport(headers: ["Authorization": "Bearer SECRET"], base: CurlTransport())))
        let image = try await loader.image(for: ImageRequest(url: origin.url(path: "/photo"), size: thumbnail))
        #expect(image.origin == .network)
        #expect(origin.requests.first?.headers["authorization"] == "Bearer SECRET")
        #expect(cdn.requests("/img/7.jpg").first?.headers["authorization"] == nil, "the credential stayed with its host")
    }

    @Test("progress reports the bytes as they arrive, to every request waiting for the download")
    func progress() async throws {
        let server = try PictureServer()
        let loader = makeLoader()
        let body = server.body("/img/5.jpg")
        let seen = Lock<[(Int64, Int64)]>([])
        _ = try await loader.image(for: ImageRequest(url: server.url("/img/5.jpg"), size: thumbnail)) { received, expected in
            seen.withLock { $0.append((received, expected)) }
        }
        let reports = seen.withLock { $0 }
        #expect(reports.last.map { $0.0 == Int64(body.count) && $0.1 == Int64(body.count) } == true)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    }

    @Test(
        "a shaped network (20 ms latency, 2 KB/s): 24 slow downloads on four hosts hold no thread; progress arrives in pieces; cancelling closes every socket")
    func slowServersHoldNoThread() async throws {
        // A picture with a megabyte after it: at 2 KB/s it takes minutes, so the downloads are surely under way when looked at.
        let body = try noiseJPEG(width: 96, height: 64, seed: 5) + [UInt8](repeating: 0, count: 1 << 20)
        let servers = try (1...4).map { host in
            try LoopbackHTTPServer(host: "127.0.0.\(host)") { _ in
                .shaped(status: 200, headers: ["Content-Type": "image/jpeg"], body: body, latency: .milliseconds(20), bytesPerSecond: 2_048)
            }
        }
        defer { for server in servers { server.stop() } }
        let loader = makeLoader()
        final class Reports: Sendable {
            let counts = Lock<[Int: Int]>([:])
        }
        let reports = Reports()
        var tasks: [Task<LoadedImage, any Error>] = []
        for index in 0..<24 {
            let url = servers[index % 4].url(path: "/img/\(index).jpg")
            tasks.append(
                Task { try await loader.image(for: ImageRequest(url: url, size: thumbnail)) { _, _ in reports.counts.withLock { $0[index, default: 0] += 1 } } }
            )
        }
        try await waitUntil("24 downloads under way, bytes arriving in pieces for each", timeout: networkWait) {
            servers.map(\.requests.count).reduce(0, +) == 24 && reports.counts.withLock { $0.count == 24 && $0.values.allSatisfy { $0 >= 2 } }
        }
        #expect(servers.allSatisfy { $0.peakUnansweredRequests <= 6 })
        // Nothing waits on a thread: a file still loads, on a pool of as many threads as cores.
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(try noiseJPEG(width: 30, height: 20)).write(to: URL(fileURLWithPath: folder + "/local.jpg"))
        let local = try await loader.image(for: ImageRequest(url: URL(fileURLWithPath: folder + "/local.jpg"), size: thumbnail))
        #expect(local.origin == .file)
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: ImageLoadingError.cancelled) { try await task.value } }
        try await waitUntil("every socket closed", timeout: networkWait) { servers.allSatisfy { $0.openConnections == 0 } }
        #expect(await loader.statistics.downloads == 24)
    }
}

/// Adds header fields to every request (a private photo service's token).
struct HeaderAddingTransport: HTTPTransport {
    let headers: [String: String]
    let base: any HTTPTransport

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var request = request
        request.headers.merge(headers) { own, _ in own }
        return try await base.send(request)
    }
}

/// Placeholders from the hash a request carries come before any byte.
@Suite("Loader placeholders")
struct LoaderPlaceholderTests {
    static let hash = try! ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI")

    @Test("the placeholder comes first, before the server is asked; then the image, and the sequence ends")
    func placeholderFirst() async throws {
        let server = try PictureServer()
        let loader = makeLoader()
        let request = ImageRequest(url: server.url("/img/7.jpg"), size: thumbnail, placeholder: .thumbHash(Self.hash))
        var updates = loader.updates(for: request).makeAsyncIterator()
        guard case .placeholder(let drawn) = try await updates.next() else {
            Issue.record("no placeholder first")
            return
        }
        #expect(drawn == Self.hash.rendered())
        #expect(server.http.requests.isEmpty, "the placeholder is drawn before any request")
        guard case .image(let loaded) = try await updates.next() else {
            Issue.record("no image")
            return
        }
        #expect(loaded.bitmap.size == thumbnail && loaded.origin == .network)
        #expect(try await updates.next() == nil)

        // In memory now: the image alone, no placeholder flash.
        #expect(try await updateKinds(loader, request) == ["image memory"])
    }

    @Test("a failed load throws its typed error after the placeholder; no placeholder, no placeholder update")
    func failureAndAbsence() async throws {
        let server = try PictureServer()
        server.set("/img/404.jpg") { $0.status = 404 }
        let loader = makeLoader()
        var kinds: [String] = []
        do {
            for try await update in loader.updates(for: ImageRequest(url: server.url("/img/404.jpg"), size: thumbnail, placeholder: .thumbHash(Self.hash))) {
                if case .placeholder = update { kinds.append("placeholder") }
            }
            Issue.record("a 404 loaded")
        } catch {
            kinds.append("error")
            #expect(error.description.contains("404"), "\(error)")
        }
        #expect(kinds == ["placeholder", "error"])

        var plain: [String] = []
        for try await update in loader.updates(for: ImageRequest(url: server.url("/img/8.jpg"), size: thumbnail)) {
            if case .image = update { plain.append("image") } else { plain.append("placeholder") }
        }
        #expect(plain == ["image"])
    }

    @Test("a BlurHash is drawn at the server's aspect ratio, which is clamped when hostile")
    func blurHashAspect() throws {
        let hash = try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        #expect(ImagePlaceholder.blurHash(hash, aspectRatio: 4.0 / 3).rendered().size == PixelSize(width: 32, height: 24))
        #expect(ImagePlaceholder.blurHash(hash, aspectRatio: 0.5).rendered().size == PixelSize(width: 16, height: 32))
        for hostile in [Double.nan, .infinity, 0, -3, 1e300, 1e-300] {
            let size = ImagePlaceholder.blurHash(hash, aspectRatio: hostile).rendered().size
            #expect(size.width >= 1 && size.width <= 32 && size.height >= 1 && size.height <= 32, "\(hostile): \(size)")
        }
    }
}

/// A photo whose download is cut halfway is resumed, not downloaded again.
@Suite("Loader resumed downloads")
struct LoaderResumeTests {
    /// A server that cuts its first answer at half and serves the rest as a
    /// range when `If-Range` matches `validator`.
    /// With `resumeGate`, the ranged answer waits at the gate after its headers.
    static func cuttingServer(
        _ body: [UInt8], validator: (name: String, value: String), resumeGate: LoopbackHTTPServer.Gate? = nil
    ) throws -> LoopbackHTTPServer {
        let count = Lock(0)
        return try LoopbackHTTPServer { request in
            let number = count.withLock { value in
                value += 1
                return value
            }
            let headers = [validator.name: validator.value]
            if number == 1 { return .truncated(status: 200, headers: headers, declaredLength: body.count, body: Array(body.prefix(body.count / 2))) }
            guard let range = request.headers["range"], request.headers["if-range"] == validator.value,
                let start = Int(range.dropFirst("bytes=".count).dropLast())
            else { return .respond(status: 200, headers: headers, body: body) }
            let rangeHeaders = headers.merging(["Content-Range": "bytes \(start)-\(body.count - 1)/\(body.count)"]) { own, _ in own }
            if let resumeGate { return .paused(status: 206, headers: rangeHeaders, body: Array(body[start...]), sent: 0, until: resumeGate) }
            return .respond(status: 206, headers: rangeHeaders, body: Array(body[start...]))
        }
    }

    @Test("a 2 MB photo cut at 50% loads with one ranged request; the server sends 100% of it, not 150%")
    func resumesHalfway() async throws {
        let jpeg = try noiseJPEG(width: 1_250, height: 1_000, seed: 36, quality: 97)
        #expect(jpeg.count > 1_700_000)
        let server = try Self.cuttingServer(jpeg, validator: ("ETag", "\"p1\""))
        defer { server.stop() }
        let loader = makeLoader()
        let image = try await loader.image(for: ImageRequest(url: server.url(path: "/big.jpg"), size: PixelSize(width: 125, height: 100)))
        #expect(image.bitmap.size == PixelSize(width: 125, height: 100))
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.headers["range"] == "bytes=\(jpeg.count / 2)-")
        let sent = Double(server.bytesSent) / Double(jpeg.count)
        #expect(sent <= 1.02, "the server sent \(server.bytesSent) bytes for a \(jpeg.count)-byte photo")
    }
}

extension LoaderResumeTests {
    @Test("a load that fails halfway keeps the bytes in the disk cache, within its cap; the next load resumes from them")
    func keptInTheDiskCache() async throws {
        let jpeg = try noiseJPEG(width: 600, height: 400, seed: 37, quality: 95)
        let server = try Self.cuttingServer(jpeg, validator: ("Last-Modified", "Thu, 03 Dec 2026 08:00:00 GMT"))
        defer { server.stop() }
        let folder = scratchFolder("partial")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = server.url(path: "/cut.jpg")
        let request = ImageRequest(url: url, size: PixelSize(width: 60, height: 40))
        do {
            let disk = try await DiskCache.open(directory: folder, capacityBytes: 4 << 20)
            let once = ImageLoader(configuration: .init(transport: CurlTransport(), retryPolicy: .never, diskCache: disk, timeout: networkWait))
            await #expect(throws: ImageLoadingError.self) { try await once.image(for: request) }
            let kept = try #require(try await disk.partial(for: url))
            #expect(kept.bytes == Array(jpeg.prefix(jpeg.count / 2)))
            #expect(try await disk.usage().bytes == jpeg.count / 2, "the kept half counts against the cap")
        }
        // A later run: a new cache object over the folder, a new loader.
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 4 << 20)
        let later = ImageLoader(configuration: .init(transport: CurlTransport(), retryPolicy: .never, diskCache: disk, timeout: networkWait))
        let image = try await later.image(for: request)
        #expect(image.bitmap.size == PixelSize(width: 60, height: 40) && image.origin == .network)
        #expect(server.requests.count == 2 && server.requests[1].headers["range"] == "bytes=\(jpeg.count / 2)-")
        #expect(Double(server.bytesSent) / Double(jpeg.count) <= 1.02)
        #expect(try await disk.partial(for: url) == nil, "the partial download is forgotten once complete")
        #expect(try await disk.data(for: url) == jpeg)
    }

    @Test("a kept partial download that is not one (no validator, damaged) is dropped, and the load starts over")
    func hostileKeptPartial() async throws {
        let folder = scratchFolder("partial-hostile")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let url = URL(string: "http://127.0.0.1:9/x.jpg")!
        try await disk.store([1, 2, 3], metadata: Array(#"{"headers":{"etag":"W/\"weak\""}}"#.utf8), key: DiskCache.partialKey(url))
        #expect(try await disk.partial(for: url) == nil)
        #expect(try await disk.usage().entries == 0, "dropped")
        try await disk.store([1, 2, 3], metadata: Array("not json".utf8), key: DiskCache.partialKey(url))
        #expect(try await disk.partial(for: url) == nil)
        #expect(try await disk.usage().entries == 0)
    }
}

/// Previews of a progressive JPEG while it downloads.
@Suite("Loader progressive previews", .dedicatedThreads)
struct LoaderPreviewTests {
    /// A progressive JPEG of a real photo, 1200x800.
    static func progressivePhoto(progressive: Bool = true) throws -> [UInt8] {
        try TestPhotos.landscapeJPEG(size: PixelSize(width: 1_200, height: 800), quality: 90, isProgressive: progressive)
    }

    static func updates(_ loader: ImageLoader, _ request: ImageRequest) async throws -> [ImageLoadingUpdate] {
        var seen: [ImageLoadingUpdate] = []
        for try await update in loader.updates(for: request) { seen.append(update) }
        return seen
    }

    @Test("at 1 Mbit/s the first preview comes within 15% of the bytes; previews are a tenth apart, at the final size, never after the image")
    func previewsAtOneMegabit() async throws {
        let jpeg = try Self.progressivePhoto()
        let server = try LoopbackHTTPServer { _ in .shaped(status: 200, body: jpeg, latency: .zero, bytesPerSecond: 125_000) }
        defer { server.stop() }
        let request = ImageRequest(url: server.url(path: "/progressive.jpg"), size: PixelSize(width: 300, height: 300))
        let seen = try await Self.updates(makeLoader(), request)
        let previews = seen.compactMap { if case .preview(let preview) = $0 { preview } else { nil } }
        guard case .image(let final) = seen.last else {
            Issue.record("the last update is not the image")
            return
        }
        #expect(previews.count >= 2, "\(previews.map(\.receivedBytes))")
        let first = try #require(previews.first)
        #expect(Double(first.receivedBytes) <= 0.15 * Double(jpeg.count), "first preview after \(first.receivedBytes) of \(jpeg.count) bytes")
        #expect(first.expectedBytes == jpeg.count)
        for (earlier, later) in zip(previews, previews.dropFirst()) {
            #expect(later.receivedBytes - earlier.receivedBytes >= jpeg.count / 10)
        }
        #expect(previews.allSatisfy { $0.bitmap.size == final.bitmap.size }, "\(previews.map(\.bitmap.size)) vs \(final.bitmap.size)")
        #expect(final.bitmap.size == PixelSize(width: 300, height: 200))
    }

    @Test("a download cut after some scans and resumed never shows a preview again, or an older one")
    func previewsAcrossAResume() async throws {
        let jpeg = try Self.progressivePhoto()
        // The resumed half waits until a preview of the first half is shown: on a slow machine (a sanitizer's)
        // the whole photo could otherwise arrive before the first preview is decoded, and none would be shown.
        let gate = try LoopbackHTTPServer.Gate()
        let server = try LoaderResumeTests.cuttingServer(jpeg, validator: ("ETag", "\"pp\""), resumeGate: gate)
        defer { server.stop() }
        let request = ImageRequest(url: server.url(path: "/cut-progressive.jpg"), size: PixelSize(width: 300, height: 300))
        var seen: [ImageLoadingUpdate] = []
        for try await update in makeLoader().updates(for: request) {
            seen.append(update)
            if case .preview = update { gate.open() }
        }
        let received = seen.compactMap { if case .preview(let preview) = $0 { preview.receivedBytes } else { nil } }
        #expect(server.requests.count == 2 && server.requests[1].headers["range"] != nil)
        #expect(!received.isEmpty)
        #expect(received == received.sorted() && Set(received).count == received.count, "\(received)")
        guard case .image = seen.last else {
            Issue.record("the last update is not the image")
            return
        }
    }

    @Test("a baseline JPEG, or a request already in memory, has no previews")
    func noPreviews() async throws {
        let baseline = try Self.progressivePhoto(progressive: false)
        let server = try LoopbackHTTPServer { _ in .shaped(status: 200, body: baseline, latency: .zero, bytesPerSecond: 2_000_000) }
        defer { server.stop() }
        let loader = makeLoader()
        let request = ImageRequest(url: server.url(path: "/baseline.jpg"), size: PixelSize(width: 300, height: 300))
        let first = try await Self.updates(loader, request)
        #expect(first.count == 1)
        let again = try await Self.updates(loader, request)
        guard case .image(let cached) = again.first, again.count == 1 else {
            Issue.record("expected the image alone")
            return
        }
        #expect(cached.origin == .memory)
    }
}
