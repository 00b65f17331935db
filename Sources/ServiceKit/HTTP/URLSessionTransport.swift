import Synchronization
import SystemSupport

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The default ``HTTPTransport``, on Foundation's `URLSession`
/// (FoundationNetworking on Linux), with the rules a transport that carries
/// credentials needs and Foundation does not apply by itself:
///
/// - **Redirects** are followed only as each request's ``RedirectPolicy``
///   allows (by default: within its origin, never from https to http);
///   any other is ``TransportError/redirectRefused(from:to:)`` and nothing
///   is sent there.
/// - **The answer's size** is counted as it arrives and the transfer
///   stopped past ``HTTPRequest/maxResponseBytes``
///   (``TransportError/responseTooLarge(limit:)``); a `Content-Length` over
///   the limit is refused before the body is read.
/// - **A deadline** for the whole exchange (``HTTPRequest/deadline``), which
///   activity does not extend, beside the timeout between bytes
///   (``HTTPRequest/timeout``).
///
/// Upload and download progress are reported through ``TransferProgress``
/// (``TransferProgress/reporter`` and ``TransferProgress/receiving``);
/// cancelling the calling task cancels the request.
public final class URLSessionTransport: HTTPTransport {
    /// What one request in flight holds; the delegate finds it by task.
    private struct Exchange {
        let original: URL
        var current: URL
        let redirects: RedirectPolicy
        let limit: Int
        let progress: (request: UUID, reporter: TransferProgress.Reporter)?
        let receiving: (request: UUID, reporter: TransferProgress.Reporter)?
        let finish: @Sendable (Result<HTTPResponse, TransportError>) -> Void
        var body = Data()
        var response: HTTPURLResponse?
        /// Set when the transport itself stops the exchange (a refused
        /// redirect, a body over the limit, the deadline).
        var failure: TransportError?
    }

    /// Routes session callbacks to the exchange that caused them.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let exchanges = Mutex<[Int: Exchange]>([:])

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            let decision: RedirectPolicy.Decision? = exchanges.withLock { exchanges in
                guard var exchange = exchanges[task.taskIdentifier] else { return nil }
                let decision = exchange.redirects.decide(
                    original: exchange.original, current: exchange.current, next: request.url, method: request.httpMethod ?? "GET",
                    hasBody: !(request.httpBody ?? Data()).isEmpty || task is URLSessionUploadTask)
                switch decision {
                case .follow, .followWithoutCredentials: exchange.current = request.url ?? exchange.current
                case .refuse(let refusal): exchange.failure = refusal
                }
                exchanges[task.taskIdentifier] = exchange
                return decision
            }
            switch decision {
            case .follow?: completionHandler(request)
            case .followWithoutCredentials?:
                var stripped = request
                for name in request.allHTTPHeaderFields?.keys.map({ $0 }) ?? [] where RedirectPolicy.credentialHeaders.contains(name.lowercased()) {
                    stripped.setValue(nil, forHTTPHeaderField: name)
                }
                completionHandler(stripped)
            case .refuse?, nil:
                // No request goes to the new address; the 3xx answer itself ends the exchange.
                completionHandler(nil)
                task.cancel()
            }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let tooLarge = exchanges.withLock { exchanges -> Bool in
                guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
                exchange.response = response as? HTTPURLResponse
                // A declared length is a claim: over the limit, nothing is read; under it, the bytes are counted anyway.
                let declared = response.expectedContentLength
                if declared > Int64(exchange.limit) { exchange.failure = .responseTooLarge(limit: exchange.limit) }
                exchanges[dataTask.taskIdentifier] = exchange
                return exchange.failure != nil
            }
            completionHandler(tooLarge ? .cancel : .allow)
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let (tooLarge, report) = exchanges.withLock { exchanges -> (Bool, (() -> Void)?) in
                guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else { return (false, nil) }
                if exchange.body.count + data.count > exchange.limit {
                    exchange.failure = .responseTooLarge(limit: exchange.limit)
                    exchange.body = Data()
                } else {
                    exchange.body.append(data)
                }
                exchanges[dataTask.taskIdentifier] = exchange
                guard exchange.failure == nil, let receiving = exchange.receiving else { return (exchange.failure != nil, nil) }
                let (received, declared) = (Int64(exchange.body.count), max(0, exchange.response?.expectedContentLength ?? 0))
                return (false, { receiving.reporter.report(request: receiving.request, sent: received, total: declared) })
            }
            report?()
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
            guard let progress = exchanges.withLock({ $0[task.taskIdentifier]?.progress }) else { return }
            progress.reporter.report(request: progress.request, sent: totalBytesSent, total: totalBytesExpectedToSend)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            exchange.finish(Self.result(of: exchange, error: error, response: task.response))
        }

        /// Ends the exchange of `task` at its deadline, if it is still
        /// running: the caller gets ``TransportError/timedOut`` at once, and
        /// the task is cancelled from a thread of its own. `cancel()` waits
        /// for the session's queue, which under load can wait minutes for a
        /// dispatch worker (a deadline once fired only after the 250 s
        /// answer it was meant to cut had arrived whole); neither the caller
        /// nor the deadline thread waits for it.
        func expire(_ task: URLSessionTask) { end(task, with: .timedOut) }

        /// Ends the exchange of `task` now with `error` (the deadline, or the
        /// caller's cancellation) and cancels the task without waiting for it.
        func end(_ task: URLSessionTask, with error: TransportError) {
            let exchange = exchanges.withLock { exchanges -> Exchange? in
                guard let exchange = exchanges[task.taskIdentifier], exchange.failure == nil else { return nil }
                exchanges[task.taskIdentifier] = nil
                return exchange
            }
            guard let exchange else { return }
            exchange.finish(.failure(error))
            let cancelling = Thread { task.cancel() }
            cancelling.name = "PhotoDeck cancelling a request"
            cancelling.start()
        }

        private static func result(of exchange: Exchange, error: (any Error)?, response: URLResponse?) -> Result<HTTPResponse, TransportError> {
            if let failure = exchange.failure { return .failure(failure) }
            if let error { return .failure(URLSessionTransport.transportError(error)) }
            guard let http = exchange.response ?? (response as? HTTPURLResponse) else { return .failure(.connectionLost("no HTTP response")) }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
            return .success(HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](exchange.body)))
        }
    }

    private let session: URLSession
    private let delegate = Delegate()
    /// The queue the session's callbacks run on (the operation queue holds
    /// it unowned: the transport keeps it alive).
    private let callbackQueue = DispatchQueue(label: "PhotoDeck URLSessionTransport callbacks")

    /// Creates a transport with its own ephemeral session (no cookies, no cache).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        // Before libcurl initialises OpenSSL for the session: see CryptoLibrary.
        CryptoLibrary.prepare()
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The session's callbacks (every header, byte and completion) run on
        // a serial queue of the transport's own. Left to URLSession, they run
        // on an operation queue over dispatch's global queues, which share
        // their few threads (one per core) with every other global work item
        // and, on Linux, with Swift's tasks: with six busy work items on two
        // cores, an answer that had arrived was delivered after 5.0 s, against
        // 16 ms on a queue of its own (a labelled queue gets a thread when it
        // has work). Under a loaded test suite the wait reached minutes.
        let callbacks = OperationQueue()
        callbacks.name = "PhotoDeck URLSessionTransport"
        callbacks.maxConcurrentOperationCount = 1
        callbacks.underlyingQueue = callbackQueue
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: callbacks)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.timeoutInterval = request.timeout.inSeconds
        let reporter = TransferProgress.reporter
        let receiving = TransferProgress.receiving
        let requestID = UUID()
        let bodyBytes = Int64(request.body.count)
        if let reporter, bodyBytes > 0 { reporter.report(request: requestID, sent: 0, total: bodyBytes) }
        let holder = DeadlineSlot<URLSessionTask>()
        let delegate = delegate
        // The deadline: fired by a thread of its own (neither dispatch's nor Swift's busy pools
        // can hold it up), forgotten as soon as the exchange ends; kept when it comes before the task.
        let deadline = DeadlineTimer.shared.schedule(after: request.deadline) {
            if let task = holder.expire() { delegate.expire(task) }
        }
        defer { DeadlineTimer.shared.cancel(deadline) }
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Delegate callbacks only (no completion handler), so that every redirect, header and byte passes the checks above.
                let task = request.body.isEmpty ? session.dataTask(with: urlRequest) : session.uploadTask(with: urlRequest, from: Data(request.body))
                delegate.exchanges.withLock {
                    $0[task.taskIdentifier] = Exchange(
                        original: request.url, current: request.url, redirects: request.redirects, limit: max(0, request.maxResponseBytes),
                        progress: reporter.map { (requestID, $0) }, receiving: receiving.map { (requestID, $0) },
                        finish: { continuation.resume(returning: $0) })
                }
                if holder.fill(task) {
                    // Past its deadline before it was made: it ends now, unsent.
                    delegate.expire(task)
                    return
                }
                if Task.isCancelled { task.cancel() }
                task.resume()
            }
        } onCancel: {
            // The canceller (maybe a thread of the cooperative pool) must not wait for URLSession's queue either.
            if let task = holder.value { delegate.end(task, with: .cancelled) }
        }
        if case .success = result, let reporter, bodyBytes > 0 {
            reporter.report(request: requestID, sent: bodyBytes, total: bodyBytes)
        }
        return try result.get()
    }

    fileprivate static func transportError(_ error: any Error) -> TransportError {
        let code = (error as? URLError)?.code
        switch code {
        case .cancelled?: return .cancelled
        case .timedOut?: return .timedOut
        case .networkConnectionLost?: return .connectionLost(error.localizedDescription)
        case .cannotConnectToHost?, .cannotFindHost?, .notConnectedToInternet?, .dnsLookupFailed?:
            return .cannotConnect(error.localizedDescription)
        default: return .connectionLost(error.localizedDescription)
        }
    }
}
