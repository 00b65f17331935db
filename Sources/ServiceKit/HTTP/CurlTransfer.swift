import CCurl
import Foundation
import Synchronization

/// One request in flight on the ``CurlEngine``: the request as it is now
/// (its URL and method change with each redirect), the answer being read,
/// and libcurl's easy handle for the current hop.
///
/// `@unchecked Sendable` is safe because the object is made on the
/// caller's thread and handed to the engine through its `Mutex`-guarded
/// queue before anything else reads it; from then on every `var` is read
/// and written on the engine's thread only (libcurl calls the callbacks
/// below from inside `curl_multi_perform`, on that thread). The two things
/// other threads touch are `cancelled` (an `Atomic`) and `finish` (a
/// `let`, called exactly once, by the engine).
final class CurlTransfer: @unchecked Sendable {
    /// Why libcurl was stopped by a callback, kept to say so.
    var failure: TransportError?
    /// Set by the caller's cancellation, read by the engine and the progress callback.
    let cancelled = Atomic<Bool>(false)
    /// Called once with the outcome.
    let finish: @Sendable (Result<HTTPResponse, TransportError>) -> Void

    let original: URL
    let redirects: RedirectPolicy
    let limit: Int
    let deadline: ContinuousClock.Instant
    let idleTimeout: Duration
    let progress: (request: UUID, reporter: TransferProgress.Reporter)?
    let receiving: (request: UUID, reporter: TransferProgress.Reporter)?
    let observer: ResponseStream.Observer?

    // The request as the next hop sends it.
    var url: URL
    var method: String
    var headers: [String: String]
    var body: [UInt8]
    var hops = 0

    // The current hop.
    var handle: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var lastActivity: ContinuousClock.Instant
    var status = 0
    var responseHeaders: [String: String] = [:]
    var declaredLength: Int64 = -1
    var received: [UInt8] = []
    var bytesUploaded: Int64 = 0
    var bytesDownloaded: Int64 = 0

    init(
        _ request: HTTPRequest, progress: (UUID, TransferProgress.Reporter)?, receiving: (UUID, TransferProgress.Reporter)?,
        observer: ResponseStream.Observer? = nil, finish: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        original = request.url
        redirects = request.redirects
        limit = max(0, request.maxResponseBytes)
        let now = ContinuousClock.now
        deadline = now.advanced(by: max(.zero, request.deadline))
        idleTimeout = max(.milliseconds(1), request.timeout)
        self.progress = progress
        self.receiving = receiving
        self.observer = observer
        self.finish = finish
        url = request.url
        method = request.method.uppercased()
        headers = request.headers
        body = request.body
        lastActivity = now
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Forgets the current hop's answer before the next hop starts.
    func resetAnswer() {
        status = 0
        responseHeaders = [:]
        declaredLength = -1
        received = []
        bytesUploaded = 0
        bytesDownloaded = 0
        errorBuffer[0] = 0
        lastActivity = .now
    }

    /// Whether the current answer is a redirect this transport follows (its body is not kept).
    var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    // MARK: Callbacks (on the engine's thread)

    /// A header line: a status line starts a new answer (after a `100
    /// Continue`, or the first); the empty line ends the header, where a
    /// declared length over the limit stops the transfer before a body
    /// byte is read.
    func header(_ line: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            responseHeaders = [:]
            declaredLength = -1
            return true
        }
        if text.isEmpty {
            // The header is complete: a declared length is a claim, but one over the limit ends it here.
            if !(100...199).contains(status), declaredLength > Int64(limit) {
                failure = .responseTooLarge(limit: limit)
                return false
            }
            if !(100...199).contains(status), !isRedirect { observer?.deliver(.began(status: status, headers: responseHeaders)) }
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if let previous = responseHeaders[name] {
            responseHeaders[name] = previous + ", " + value
        } else {
            responseHeaders[name] = value
        }
        if name == "content-length" { declaredLength = Int64(value) ?? -1 }
        return true
    }

    /// Body bytes: kept up to the limit (a redirect's are counted, not
    /// kept); one more than the limit stops the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        let (total, overflow) = received.count.addingReportingOverflow(bytes.count)
        guard !overflow, total <= limit else {
            failure = .responseTooLarge(limit: limit)
            received = []
            return false
        }
        guard !isRedirect else { return true }
        if received.isEmpty, declaredLength > 0 { received.reserveCapacity(Int(min(declaredLength, Int64(limit)))) }
        received.append(contentsOf: bytes)
        observer?.deliver(.bytes(Array(bytes)))
        receiving?.reporter.report(request: receiving!.request, sent: Int64(received.count), total: max(0, declaredLength))
        return true
    }

    /// libcurl's progress: bytes moving in either direction count as
    /// activity; upload progress is reported; a cancelled transfer stops.
    func progressed(uploaded: Int64, uploadTotal: Int64, downloaded: Int64) -> Bool {
        if cancelled.load(ordering: .relaxed) { return false }
        if uploaded != bytesUploaded || downloaded != bytesDownloaded { lastActivity = .now }
        if uploaded != bytesUploaded, let progress {
            progress.reporter.report(request: progress.request, sent: uploaded, total: max(uploadTotal, Int64(body.count)))
        }
        bytesUploaded = uploaded
        bytesDownloaded = downloaded
        return true
    }

    /// The callbacks libcurl calls, with the transfer as their context.
    static let headerFunction: pd_curl_data_function = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        return transfer.header(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
    }

    static let writeFunction: pd_curl_data_function = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
    }

    static let progressFunction: pd_curl_progress_function = { context, _, downloaded, uploadTotal, uploaded in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        return transfer.progressed(uploaded: Int64(uploaded), uploadTotal: Int64(uploadTotal), downloaded: Int64(downloaded)) ? 0 : 1
    }
}
