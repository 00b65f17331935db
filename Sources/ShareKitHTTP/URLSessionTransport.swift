import ShareKit
import Synchronization

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The default ``HTTPTransport``, on Foundation's `URLSession`
/// (FoundationNetworking on Linux): timeouts, cancellation, and upload
/// progress reported through ``ShareKit/ShareProgress``.
public final class URLSessionTransport: HTTPTransport {
    /// Routes session callbacks to the request that caused them.
    private final class Delegate: NSObject, URLSessionTaskDelegate, Sendable {
        let reporters = Mutex<[Int: (request: UUID, reporter: ShareProgress.Reporter)]>([:])

        func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
            guard let entry = reporters.withLock({ $0[task.taskIdentifier] }) else { return }
            entry.reporter.report(request: entry.request, sent: totalBytesSent, total: totalBytesExpectedToSend)
        }
    }

    private let session: URLSession
    private let delegate = Delegate()

    /// Creates a transport with its own ephemeral session (no cookies, no cache).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let components = request.timeout.components
        urlRequest.timeoutInterval = Double(components.seconds) + Double(components.attoseconds) / 1e18
        let reporter = ShareProgress.reporter
        let requestID = UUID()
        let bodyBytes = Int64(request.body.count)
        if let reporter, bodyBytes > 0 { reporter.report(request: requestID, sent: 0, total: bodyBytes) }
        let holder = Mutex<URLSessionTask?>(nil)
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(Self.transportError(error)))
                    } else if let http = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
                        continuation.resume(returning: .success(HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data ?? Data()))))
                    } else {
                        continuation.resume(returning: .failure(.connectionLost("no HTTP response")))
                    }
                }
                let task =
                    request.body.isEmpty
                    ? session.dataTask(with: urlRequest, completionHandler: completion)
                    : session.uploadTask(with: urlRequest, from: Data(request.body), completionHandler: completion)
                if let reporter { delegate.reporters.withLock { $0[task.taskIdentifier] = (requestID, reporter) } }
                holder.withLock { $0 = task }
                if Task.isCancelled { task.cancel() }
                task.resume()
            }
        } onCancel: {
            holder.withLock { $0?.cancel() }
        }
        if let task = holder.withLock({ $0 }) { _ = delegate.reporters.withLock { $0.removeValue(forKey: task.taskIdentifier) } }
        if case .success = result, let reporter, bodyBytes > 0 {
            reporter.report(request: requestID, sent: bodyBytes, total: bodyBytes)
        }
        return try result.get()
    }

    private static func transportError(_ error: any Error) -> TransportError {
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
