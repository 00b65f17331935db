import Foundation
import ImageCodecs
import ImageLoading
import ServiceKit
import ServiceKitTesting
import SystemSupport
import TestSupport

/// A picture server on loopback: `/img/N.jpg` is a distinct JPEG for every
/// N; each path's headers, status and pacing can be set, and a path can be
/// held until released (to queue downloads behind it).
final class PictureServer: Sendable {
    struct Behaviour: Sendable {
        var headers: [String: String] = [:]
        var status = 200
        var body: [UInt8]?
        var drop = false
        var truncateTo: Int?
        var hold = false
        var delay: Duration?
    }

    /// The behaviours, the held paths' gates and the bodies served.
    final class State: Sendable {
        let mutex = Lock<(behaviours: [String: Behaviour], held: [String: DispatchSemaphore], bodies: [String: [UInt8]])>(([:], [:], [:]))
        func withLock<T>(_ body: (inout (behaviours: [String: Behaviour], held: [String: DispatchSemaphore], bodies: [String: [UInt8]])) -> T) -> T {
            mutex.withLock { body(&$0) }
        }
    }

    private let state = State()
    let http: LoopbackHTTPServer

    init(host: String = "127.0.0.1") throws {
        let state = self.state
        http = try LoopbackHTTPServer(host: host) { request in
            let path = request.path
            let (behaviour, gate, body) = state.withLock { state -> (Behaviour, DispatchSemaphore?, [UInt8]) in
                let behaviour = state.behaviours[path] ?? Behaviour()
                if state.bodies[path] == nil {
                    let seed = UInt64(path.filter(\.isNumber)) ?? 0
                    state.bodies[path] = (try? noiseJPEG(width: 96, height: 64, seed: seed + 1)) ?? []
                }
                let gate: DispatchSemaphore? = behaviour.hold ? state.held[path, default: DispatchSemaphore(value: 0)] : nil
                if let gate { state.held[path] = gate }
                return (behaviour, gate, behaviour.body ?? state.bodies[path]!)
            }
            gate?.wait()
            if behaviour.drop { return .dropConnection }
            if let truncated = behaviour.truncateTo { return .truncated(status: 200, declaredLength: body.count, body: Array(body.prefix(truncated))) }
            // A conditional request whose validator matches is answered 304.
            if let etag = behaviour.headers["ETag"], request.headers["if-none-match"] == etag { return .respond(status: 304, headers: behaviour.headers) }
            if let modified = behaviour.headers["Last-Modified"], request.headers["if-modified-since"] == modified {
                return .respond(status: 304, headers: behaviour.headers)
            }
            if let delay = behaviour.delay { return .delayed(delay, status: behaviour.status, body: body) }
            return .respond(status: behaviour.status, headers: behaviour.headers, body: body)
        }
    }

    deinit { http.stop() }

    func url(_ path: String) -> URL { http.url(path: path) }

    /// The bytes `/img/N.jpg` serves.
    func body(_ path: String) -> [UInt8] {
        state.withLock { state in
            if let body = state.behaviours[path]?.body { return body }
            if state.bodies[path] == nil {
                state.bodies[path] = (try? noiseJPEG(width: 96, height: 64, seed: (UInt64(path.filter(\.isNumber)) ?? 0) + 1)) ?? []
            }
            return state.bodies[path]!
        }
    }

    func set(_ path: String, _ change: (inout Behaviour) -> Void) {
        state.withLock { change(&$0.behaviours[path, default: Behaviour()]) }
    }

    /// Lets a held path answer (every request to it waiting now, and later ones).
    func release(_ path: String) {
        let gate = state.withLock { state -> DispatchSemaphore? in
            state.behaviours[path]?.hold = false
            return state.held[path]
        }
        for _ in 0..<64 { gate?.signal() }
    }

    /// Requests received for `path`.
    func requests(_ path: String) -> [LoopbackHTTPServer.Request] { http.requests.filter { $0.path == path } }

    /// Every path requested, in order.
    var paths: [String] { http.requests.map(\.path) }
}

/// A scratch folder for a disk cache.
func scratchFolder(_ name: String = "cache") -> String {
    let path = FileManager.default.temporaryDirectory.appending(path: "imageloading-\(name)-\(UUID())").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The bytes of every file in `folder` (sizes as stored, temporary files included).
func folderBytes(_ folder: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: folder))?.reduce(0) { total, name in
        total + ((try? FileManager.default.attributesOfItem(atPath: "\(folder)/\(name)")[.size] as? Int) ?? 0)
    } ?? 0
}

/// A loader over a fresh URLSession transport with fast retries. Its
/// timeouts are long: tests hold answers until they release them, which
/// under a loaded suite can take minutes (``networkWait``).
func makeLoader(disk: DiskCache? = nil, clock: any ServiceClock = SystemClock(), connectionsPerHost: Int = 6, maxImageBytes: Int = 50 << 20) -> ImageLoader {
    ImageLoader(
        configuration: .init(
            transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(5)), clock: clock, diskCache: disk,
            renditionCache: RenditionCache(capacityBytes: 32 << 20), connectionsPerHost: connectionsPerHost, maxImageBytes: maxImageBytes,
            timeout: networkWait, deadline: networkWait * 2))
}

let thumbnail = PixelSize(width: 48, height: 32)

/// The kinds of update a load yields, in order: "placeholder", "preview",
/// "image ORIGIN".
func updateKinds(_ loader: ImageLoader, _ request: ImageRequest) async throws -> [String] {
    var kinds: [String] = []
    for try await update in loader.updates(for: request) {
        switch update {
        case .placeholder: kinds.append("placeholder")
        case .preview: kinds.append("preview")
        case .image(let image): kinds.append("image \(image.origin)")
        }
    }
    return kinds
}

/// The longest a test waits for a download's next step before it fails.
/// Each step is several hops between tasks; with the whole suite running
/// at once under AddressSanitizer, a hop can wait seconds for one of the
/// two cores, and 120 s was once not enough for a step that takes
/// milliseconds alone.
let networkWait: Duration = .seconds(300)
