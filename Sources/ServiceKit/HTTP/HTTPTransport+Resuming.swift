import Foundation
import SystemSupport

extension HTTPTransport {
    /// Downloads `request` (a `GET`), resuming instead of starting over: an
    /// attempt that is cut keeps what arrived, and the next attempt asks
    /// for the rest (`Range` from the first missing byte, `If-Range` with
    /// the validator). A `206` whose range starts there is joined to the
    /// kept bytes; a `200` (the resource changed, or the server ignores
    /// ranges) starts over; a `416` or a range that does not fit drops the
    /// kept bytes and asks again for the whole.
    ///
    /// `partial` resumes a download an earlier run kept (ImageLoading keeps
    /// it in its disk cache). Attempts, waits and the deadline are those of
    /// ``send(_:retrying:clock:)``.
    ///
    /// ```swift
    /// switch await transport.download(request, resumingFrom: kept, retrying: RetryPolicy()) {
    /// case .complete(let response): use(response.body)
    /// case .failed(let error, let partial):
    ///     keep(partial)
    ///     print(error)
    /// }
    /// ```
    public func download(
        _ request: HTTPRequest, resumingFrom partial: PartialDownload?, retrying policy: RetryPolicy, clock: any ServiceClock = SystemClock()
    ) async -> DownloadOutcome {
        let kept = Lock<PartialDownload?>(request.method.uppercased() == "GET" ? partial : nil)
        do throws(TransportError) {
            let response = try await attempts(of: request, retrying: policy, clock: clock) { base throws(TransportError) in
                try await resumedAttempt(base, kept: kept)
            }
            return .complete(response)
        } catch {
            return .failed(error, partial: kept.withLock { $0 })
        }
    }

    /// One attempt: the rest of what is kept, or the whole.
    private func resumedAttempt(_ base: HTTPRequest, kept: Lock<PartialDownload?>) async throws(TransportError) -> HTTPResponse {
        let start = kept.withLock { $0 }
        var request = base
        if let start { request.headers.merge(start.rangeHeaders) { _, range in range } }
        // The body is copied only from an answer that could be resumed (a 200 with a validator, or a 206).
        let capture = Lock<(status: Int, headers: [String: String], bytes: [UInt8], keeps: Bool)>((0, [:], [], false))
        // The caller's own observer sees one body per attempt: a 206 that continues the kept bytes is
        // handed on as a 200 that begins with them.
        let outer = ResponseStream.observer
        let observer = ResponseStream.Observer { event in
            capture.withLock { state in
                switch event {
                case .began(let status, let headers):
                    state = (status, headers, [], status == 206 || PartialDownload(status: status, headers: headers, bytes: [0]) != nil)
                case .bytes(let chunk) where state.keeps: state.bytes += chunk
                case .bytes: break
                }
            }
            guard let outer else { return }
            if case .began(206, let headers) = event, let start, let range = headers["content-range"].flatMap(ContentRange.init),
                range.first == start.bytes.count
            {
                // Its declared length is the whole body's (the range's total), as a 200's would be.
                var whole = start.headers.merging(headers) { _, new in new }
                whole["content-length"] = range.total.map(String.init)
                outer.deliver(.began(status: 200, headers: whole))
                outer.deliver(.bytes(start.bytes))
            } else {
                outer.deliver(event)
            }
        }
        let response: HTTPResponse
        do throws(TransportError) {
            let result: Result<HTTPResponse, TransportError> = await ResponseStream.$observer.withValue(observer) {
                do throws(TransportError) {
                    return .success(try await send(request))
                } catch {
                    return .failure(error)
                }
            }
            response = try result.get()
        } catch {
            // Keep what this attempt added: a fresh 200 from its start, or a 206 that continues what was kept.
            let arrived = capture.withLock { $0 }
            if let fresh = PartialDownload(status: arrived.status, headers: arrived.headers, bytes: arrived.bytes) {
                kept.withLock { $0 = fresh }
            } else if arrived.status == 206, let start, let range = arrived.headers["content-range"].flatMap(ContentRange.init),
                range.first == start.bytes.count, !arrived.bytes.isEmpty
            {
                kept.withLock { $0 = start.appending(arrived.bytes) }
            }
            throw error
        }
        guard let start else { return response }
        switch response.status {
        case 206:
            if let joined = Self.join(response, onto: start, limit: base.maxResponseBytes) {
                kept.withLock { $0 = nil }
                return joined
            }
            // A range that does not continue the kept bytes: ask for the whole.
            kept.withLock { $0 = nil }
            return try await send(base)
        case 416:
            kept.withLock { $0 = nil }
            return try await send(base)
        case 200..<300:
            // The whole body again (If-Range did not match, or ranges are not served).
            kept.withLock { $0 = nil }
            return response
        default:
            return response
        }
    }

    /// The kept bytes and a `206` answer's, as the whole `200` answer;
    /// `nil` when the answer's range is not the rest of the body.
    static func join(_ response: HTTPResponse, onto start: PartialDownload, limit: Int) -> HTTPResponse? {
        guard let range = response.headers["content-range"].flatMap(ContentRange.init), range.first == start.bytes.count,
            range.last - range.first + 1 == response.body.count, range.total.map({ $0 == range.last + 1 }) ?? true,
            start.bytes.count + response.body.count <= limit
        else { return nil }
        var headers = start.headers.merging(response.headers) { _, new in new }
        headers["content-range"] = nil
        headers["content-length"] = String(start.bytes.count + response.body.count)
        return HTTPResponse(status: 200, headers: headers, body: start.bytes + response.body)
    }
}
