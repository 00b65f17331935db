public import ServiceKit

extension ShareError {
    /// The share's error for a transport failure of `request`: the one place
    /// a provider turns ``ServiceKit/TransportError`` into a ``ShareError``.
    /// A cancellation is ``cancelled``; anything else is ``network(_:)``,
    /// with the method and path (never the query, which may hold a token).
    ///
    /// ```swift
    /// do {
    ///     response = try await client.send(request)
    /// } catch {
    ///     throw ShareError(error, sending: request)
    /// }
    /// ```
    public init(_ error: TransportError, sending request: HTTPRequest) {
        if error == .cancelled {
            self = .cancelled
        } else {
            self = .network(UnderlyingError(error, sending: request))
        }
    }
}

extension ServiceClient {
    /// ``ServiceKit/ServiceClient/send(_:)`` for a provider: a transport
    /// failure is thrown as ``ShareKit/ShareError/init(_:sending:)`` makes it.
    public func sendForShare(_ request: HTTPRequest) async throws(ShareError) -> HTTPResponse {
        do {
            return try await send(request)
        } catch {
            throw ShareError(error, sending: request)
        }
    }

    /// ``ServiceKit/ServiceClient/publish(_:)`` for a provider: sent once; a
    /// failure that certainly did not reach the server is thrown as
    /// ``ShareKit/ShareError/init(_:sending:)`` makes it, one that may have is
    /// ``ServiceKit/ServiceClient/PublishAttempt/unknown(_:)``.
    public func publishForShare(_ request: HTTPRequest) async throws(ShareError) -> PublishAttempt {
        do {
            return try await publish(request)
        } catch {
            throw ShareError(error, sending: request)
        }
    }
}
