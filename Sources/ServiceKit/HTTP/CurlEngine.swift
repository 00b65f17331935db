import CCurl
import Execution
import Foundation
import SystemSupport

/// The one thread that runs every ``CurlTransport`` request of the
/// process: a libcurl multi handle, driven by `curl_multi_poll`. Requests
/// arrive through a `Mutex`-guarded queue and a `curl_multi_wakeup`; the
/// thread starts each, enforces its deadline and its wait for the next
/// byte, follows redirects as each request's ``RedirectPolicy`` decides,
/// and ends it with its answer or a ``TransportError``. Nothing here waits
/// on Swift's cooperative pool or dispatch's threads, and a cancellation
/// or a deadline needs no thread of its own: the engine sees the flag at
/// its next turn (it is woken for it) and libcurl's progress callback
/// stops a transfer that is reading.
final class CurlEngine: Sendable {
    /// The process's engine, started on first use.
    static let shared = CurlEngine()

    /// The most redirects one request follows.
    static let maxRedirects = 10

    /// The multi handle.
    private let multi: Handle
    private let incoming = Lock<[CurlTransfer]>([])

    /// The multi handle's pointer. `@unchecked Sendable` is safe because
    /// the pointer never changes and the handle behind it is used only on
    /// the engine's thread, except by `curl_multi_wakeup`, which libcurl
    /// documents as safe to call from any thread.
    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private init() {
        // libcurl initialises OpenSSL; libcrypto must first be told to keep its locks at exit (see CryptoLibrary).
        CryptoLibrary.prepare()
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        multi = Handle(pointer: curl_multi_init())
        FloorThread.start(named: "PhotoDeck HTTP") { [self] in run() }
    }

    /// Hands `transfer` to the engine's thread.
    func submit(_ transfer: CurlTransfer) {
        incoming.withLock { $0.append(transfer) }
        curl_multi_wakeup(multi.pointer)
    }

    /// Wakes the engine to look at its transfers (one was cancelled).
    func wake() { curl_multi_wakeup(multi.pointer) }

    // MARK: The engine's thread

    private func run() {
        var active: [Int: CurlTransfer] = [:]
        while true {
            for transfer in incoming.withLock({ queue in
                defer { queue.removeAll() }
                return queue
            }) {
                if transfer.cancelled.load(ordering: .relaxed) {
                    transfer.finish(.failure(.cancelled))
                } else {
                    start(transfer, into: &active)
                }
            }
            let now = ContinuousClock.now
            for (key, transfer) in active {
                let ending: TransportError? =
                    transfer.cancelled.load(ordering: .relaxed)
                    ? .cancelled
                    : now >= transfer.deadline || now - transfer.lastActivity >= transfer.idleTimeout ? .timedOut : nil
                if let ending { end(transfer, key: key, with: .failure(ending), in: &active) }
            }
            var running: Int32 = 0
            curl_multi_perform(multi.pointer, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi.pointer, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let key = Int(bitPattern: easy)
                guard let transfer = active[key] else { continue }
                finished(transfer, key: key, code: pd_curl_message_result(message), in: &active)
            }
            // Sleep until a socket is ready, a transfer's deadline or idle limit comes, or a wake-up.
            let wait = active.values.map { min($0.deadline, $0.lastActivity.advanced(by: $0.idleTimeout)) }.min().map { now.duration(to: $0) }
            let milliseconds = wait.map { Int32(clamping: max(1, min(1000, $0.wholeMilliseconds + 1))) } ?? 10_000
            curl_multi_poll(multi.pointer, nil, 0, milliseconds, nil)
        }
    }

    /// Starts `transfer`'s current hop.
    private func start(_ transfer: CurlTransfer, into active: inout [Int: CurlTransfer]) {
        transfer.resetAnswer()
        guard let easy = curl_easy_init() else {
            transfer.finish(.failure(.cannotConnect("libcurl could not make a transfer")))
            return
        }
        transfer.handle = easy
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        _ = pd_curl_set_string(easy, CURLOPT_URL, transfer.url.absoluteString)
        _ = pd_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = pd_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        _ = pd_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = pd_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        _ = pd_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = pd_curl_set_string(easy, CURLOPT_USERAGENT, CurlTransport.userAgent)
        // A declared length over the limit ends the transfer before its body (the header callback checks too).
        _ = pd_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.limit))
        let remaining = ContinuousClock.now.duration(to: transfer.deadline)
        _ = pd_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(clamping: max(1, min(transfer.idleTimeout, remaining).wholeMilliseconds)))
        _ = pd_curl_set_data_function(easy, CURLOPT_HEADERFUNCTION, CurlTransfer.headerFunction)
        _ = pd_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = pd_curl_set_data_function(easy, CURLOPT_WRITEFUNCTION, CurlTransfer.writeFunction)
        _ = pd_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = pd_curl_set_progress_function(easy, CurlTransfer.progressFunction)
        _ = pd_curl_set_pointer(easy, CURLOPT_XFERINFODATA, context)
        _ = pd_curl_set_long(easy, CURLOPT_NOPROGRESS, 0)
        switch transfer.method {
        case "GET" where transfer.body.isEmpty: _ = pd_curl_set_long(easy, CURLOPT_HTTPGET, 1)
        case "HEAD": _ = pd_curl_set_long(easy, CURLOPT_NOBODY, 1)
        default: _ = pd_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, transfer.method)
        }
        if !transfer.body.isEmpty {
            _ = pd_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(transfer.body.count))
            transfer.body.withUnsafeBytes { bytes in
                _ = pd_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress!))
            }
        } else if !["GET", "HEAD"].contains(transfer.method) {
            // An empty body is still a body: `Content-Length: 0`, which some servers require of a POST.
            _ = pd_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            _ = pd_curl_set_string(easy, CURLOPT_COPYPOSTFIELDS, "")
        }
        curl_slist_free_all(transfer.headerList)
        var list: UnsafeMutablePointer<curl_slist>?
        // No `Expect: 100-continue` pause before a body; the request's own fields as given.
        for line in ["Expect:"] + transfer.headers.map({ "\($0.key): \($0.value)" }) {
            list = curl_slist_append(list, line)
        }
        transfer.headerList = list
        _ = pd_curl_set_headers(easy, list)
        active[Int(bitPattern: easy)] = transfer
        curl_multi_add_handle(multi.pointer, easy)
    }

    /// libcurl finished `transfer`'s hop with `code`: its answer, a
    /// redirect to follow, or an error.
    private func finished(_ transfer: CurlTransfer, key: Int, code: CURLcode, in active: inout [Int: CurlTransfer]) {
        if let failure = transfer.failure { return end(transfer, key: key, with: .failure(failure), in: &active) }
        guard code == CURLE_OK else { return end(transfer, key: key, with: .failure(error(code, transfer)), in: &active) }
        var location: UnsafeMutablePointer<CChar>?
        if transfer.isRedirect, let easy = transfer.handle, pd_curl_get_string(easy, CURLINFO_REDIRECT_URL, &location) == CURLE_OK, let location {
            let next = URL(string: String(cString: location))
            return redirect(transfer, key: key, to: next, in: &active)
        }
        let response = HTTPResponse(status: transfer.status, headers: transfer.responseHeaders, body: transfer.received)
        end(transfer, key: key, with: .success(response), in: &active)
    }

    /// Follows a redirect as the request's policy decides: the method a
    /// browser would send (a 303 turns into a GET, and so does a POST
    /// answered 301 or 302; a 307 or 308 repeats the request), credentials
    /// dropped when the policy says so.
    private func redirect(_ transfer: CurlTransfer, key: Int, to next: URL?, in active: inout [Int: CurlTransfer]) {
        var method = transfer.method
        var body = transfer.body
        if transfer.status == 303 || ([301, 302].contains(transfer.status) && method == "POST") {
            method = method == "HEAD" ? "HEAD" : "GET"
            body = []
        }
        let decision = transfer.redirects.decide(original: transfer.original, current: transfer.url, next: next, method: method, hasBody: !body.isEmpty)
        let refusal: TransportError?
        switch decision {
        case .refuse(let error): refusal = error
        case .follow, .followWithoutCredentials:
            refusal = transfer.hops >= Self.maxRedirects ? .connectionLost("more than \(Self.maxRedirects) redirects") : nil
        }
        if let refusal { return end(transfer, key: key, with: .failure(refusal), in: &active) }
        detach(transfer, key: key, from: &active)
        if decision == .followWithoutCredentials {
            transfer.headers = transfer.headers.filter { !RedirectPolicy.credentialHeaders.contains($0.key.lowercased()) }
        }
        if body.isEmpty && !transfer.body.isEmpty {
            transfer.headers = transfer.headers.filter { !["content-type", "content-length"].contains($0.key.lowercased()) }
        }
        transfer.hops += 1
        transfer.url = next!
        transfer.method = method
        transfer.body = body
        start(transfer, into: &active)
    }

    /// Ends `transfer` with `result`: its handle removed and freed, its caller answered.
    private func end(_ transfer: CurlTransfer, key: Int, with result: Result<HTTPResponse, TransportError>, in active: inout [Int: CurlTransfer]) {
        detach(transfer, key: key, from: &active)
        transfer.finish(result)
    }

    private func detach(_ transfer: CurlTransfer, key: Int, from active: inout [Int: CurlTransfer]) {
        active[key] = nil
        if let easy = transfer.handle {
            curl_multi_remove_handle(multi.pointer, easy)
            curl_easy_cleanup(easy)
            transfer.handle = nil
        }
    }

    /// The transport's error for a libcurl code: nothing sent (a name
    /// that does not resolve, a refused connection, a failed TLS
    /// handshake) is `cannotConnect`; a connection that broke after it was
    /// made is `connectionLost`.
    private func error(_ code: CURLcode, _ transfer: CurlTransfer) -> TransportError {
        let detail = transfer.errorBuffer[0] != 0 ? String(cString: transfer.errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT,
            CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
            return .cannotConnect(detail)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_FILESIZE_EXCEEDED: return .responseTooLarge(limit: transfer.limit)
        case CURLE_ABORTED_BY_CALLBACK: return transfer.cancelled.load(ordering: .relaxed) ? .cancelled : .connectionLost(detail)
        default: return .connectionLost(detail)
        }
    }
}
