import Dispatch
import Foundation
import ImageCodecs
import ServiceKitTesting
import Synchronization

/// Weibo's picture servers (`wx1.sinaimg.cn`), faked on a host of their
/// own: `/SIZE/PID.jpg` in every size Weibo makes (`thumbnail` 120 pixels
/// wide, `orj360`, `bmiddle` 440, `mw690`, `mw1024`, `mw2000`, `large` as
/// uploaded), never wider than the upload, with the long `Cache-Control`
/// and the `Last-Modified` a CDN sends. No token is needed, and the
/// pictures are made on first request.
final class FakePictureHost: Sendable {
    /// Each size's widest, by the name in the path (`nil`: as uploaded).
    static let sizes: [String: Int?] = [
        "thumbnail": 120, "orj360": 360, "bmiddle": 440, "mw690": 690, "mw1024": 1024, "mw2000": 2000, "large": nil,
    ]

    private struct Store: Sendable {
        /// Each picture's uploaded size.
        var uploads: [String: (width: Int, height: Int)] = [:]
        /// Encoded pictures, by path.
        var encoded: [String: [UInt8]] = [:]
    }

    /// The pictures, shared with the server's handler.
    private final class StoreBox: Sendable {
        let mutex = Mutex(Store())
        func withLock<T>(_ body: (inout Store) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    /// Whether answers wait, and the answers waiting: a slow CDN, held
    /// until the test releases it.
    final class Gate: Sendable {
        private let state = Mutex((held: false, waiting: [DispatchSemaphore]()))

        /// Makes answers wait from now on.
        func hold() { state.withLock { $0.held = true } }

        /// Lets every waiting answer go, and later ones through.
        func release() {
            let waiting = state.withLock { state in
                state.held = false
                defer { state.waiting = [] }
                return state.waiting
            }
            for semaphore in waiting { semaphore.signal() }
        }

        /// How many answers wait.
        var waiting: Int { state.withLock { $0.waiting.count } }

        /// Blocks the server's connection thread (never a task) while held.
        func pass() {
            let semaphore: DispatchSemaphore? = state.withLock { state in
                guard state.held else { return nil }
                let semaphore = DispatchSemaphore(value: 0)
                state.waiting.append(semaphore)
                return semaphore
            }
            semaphore?.wait()
        }
    }

    private let store = StoreBox()
    let gate = Gate()
    let http: LoopbackHTTPServer

    init() throws {
        let (store, gate) = (self.store, self.gate)
        http = try LoopbackHTTPServer { request in
            gate.pass()
            return Self.answer(request, store: store)
        }
    }

    deinit { http.stop() }

    /// Registers a picture uploaded at `width` x `height`.
    func add(_ pid: String, width: Int, height: Int) {
        store.withLock { $0.uploads[pid] = (width, height) }
    }

    /// The URL of `pid` in the size named `size`.
    func url(_ pid: String, size: String = "thumbnail") -> String { "http://127.0.0.1:\(http.port)/\(size)/\(pid).jpg" }

    private static func answer(_ request: LoopbackHTTPServer.Request, store: StoreBox) -> LoopbackHTTPServer.Reply {
        let parts = request.path.split(separator: "/").map(String.init)
        guard request.method == "GET", parts.count == 2, let limit = sizes[parts[0]], parts[1].hasSuffix(".jpg") else {
            return .respond(status: 404, body: Array("not found".utf8))
        }
        let pid = String(parts[1].dropLast(4))
        let found: (bytes: [UInt8]?, upload: (width: Int, height: Int)?) = store.withLock { ($0.encoded[request.path], $0.uploads[pid]) }
        // A picture posted through statuses/share stands in as 1200x900.
        guard let upload = found.upload ?? (pid.hasPrefix("upload") ? (1200, 900) : nil) else {
            return .respond(status: 404, body: Array("no such picture".utf8))
        }
        let headers = [
            "Content-Type": "image/jpeg", "Cache-Control": "max-age=2592000", "Last-Modified": "Tue, 01 Dec 2026 08:00:00 GMT",
        ]
        if request.headers["if-modified-since"] == headers["Last-Modified"] { return .respond(status: 304, headers: headers) }
        if let bytes = found.bytes { return .respond(status: 200, headers: headers, body: bytes) }
        let width = min(upload.width, limit ?? upload.width)
        let height = max(1, upload.height * width / upload.width)
        guard let bytes = try? picture(pid, width: width, height: height) else { return .respond(status: 500) }
        store.withLock { $0.encoded[request.path] = bytes }
        return .respond(status: 200, headers: headers, body: bytes)
    }

    /// A picture that looks the same in every size: a diagonal gradient in
    /// colours taken from the pid, with a light frame.
    static func picture(_ pid: String, width: Int, height: Int) throws -> [UInt8] {
        var seed: UInt64 = 1_469_598_103_934_665_603
        for byte in pid.utf8 { seed = (seed ^ UInt64(byte)) &* 1_099_511_628_211 }
        let (red, green, blue) = (Int(seed & 0xFF), Int((seed >> 8) & 0xFF), Int((seed >> 16) & 0xFF))
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                let edge = x < width / 20 || y < height / 20 || x >= width - width / 20 || y >= height - height / 20
                let t = (x * 255 / max(1, width - 1) + y * 255 / max(1, height - 1)) / 2
                pixels[offset] = edge ? 240 : UInt8((red + t) / 2)
                pixels[offset + 1] = edge ? 240 : UInt8((green + 255 - t) / 2)
                pixels[offset + 2] = edge ? 240 : UInt8((blue + t / 2) / 2)
            }
        }
        let bitmap = try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        return try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 85))
    }
}
