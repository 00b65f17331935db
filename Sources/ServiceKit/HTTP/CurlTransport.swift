import Foundation

/// The default ``HTTPTransport``, on libcurl (Debian's `libcurl4`, the
/// library FoundationNetworking itself drives), with every rule a
/// transport that carries credentials and reads what servers send needs:
///
/// - **Redirects** are followed only as each request's ``RedirectPolicy``
///   allows (by default: within its origin, never from https to http);
///   any other is ``TransportError/redirectRefused(from:to:)`` and nothing
///   is sent there. A 303, and a POST answered 301 or 302, become a GET.
/// - **The answer's size**: a `Content-Length` over
///   ``HTTPRequest/maxResponseBytes`` ends the exchange when the header
///   ends, before one byte of the body is read
///   (``TransportError/responseTooLarge(limit:)``); without one, the bytes
///   are counted as they arrive and the transfer stopped at the limit.
/// - **A deadline** for the whole exchange (``HTTPRequest/deadline``), which
///   activity does not extend, beside the wait for the next byte
///   (``HTTPRequest/timeout``).
/// - **Threads**: every request of the process runs on one thread of the
///   transport's own (`PhotoDeck HTTP`, a libcurl multi handle); nothing
///   waits on Swift's cooperative pool or on dispatch, so a loaded machine
///   delays neither an answer nor a deadline, and a cancellation needs no
///   thread.
/// - No cookies are kept, no cache is used; only `http` and `https` are spoken.
///
/// Upload and download progress are reported through ``TransferProgress``
/// (``TransferProgress/reporter`` and ``TransferProgress/receiving``);
/// cancelling the calling task cancels the request.
///
/// ```swift
/// let client = ServiceClient(transport: CurlTransport())
/// let answer = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/status")!))
/// ```
public struct CurlTransport: HTTPTransport {
    /// The `User-Agent` sent unless a request names its own.
    public static let userAgent = "PhotoDeck (libcurl)"

    /// Creates a transport (every transport of the process shares one engine thread).
    public init() {}

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let reporter = TransferProgress.reporter
        let receiving = TransferProgress.receiving
        let observer = ResponseStream.observer
        let requestID = UUID()
        let bodyBytes = Int64(request.body.count)
        if let reporter, bodyBytes > 0 { reporter.report(request: requestID, sent: 0, total: bodyBytes) }
        let engine = CurlEngine.shared
        // Where the transfer meets the caller's cancellation, whichever comes first (see DeadlineSlot).
        let slot = DeadlineSlot<CurlTransfer>()
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = CurlTransfer(
                    request, progress: reporter.map { (requestID, $0) }, receiving: receiving.map { (requestID, $0) }, observer: observer,
                    finish: { continuation.resume(returning: $0) })
                // A cancellation that came first is seen by the engine before it starts the transfer.
                if slot.fill(transfer) { transfer.cancelled.store(true, ordering: .relaxed) }
                engine.submit(transfer)
            }
        } onCancel: {
            slot.expire()?.cancelled.store(true, ordering: .relaxed)
            engine.wake()
        }
        if case .success = result, let reporter, bodyBytes > 0 {
            reporter.report(request: requestID, sent: bodyBytes, total: bodyBytes)
        }
        return try result.get()
    }
}
