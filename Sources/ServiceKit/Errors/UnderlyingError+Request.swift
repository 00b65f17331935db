extension UnderlyingError {
    /// The cause of a failed `request`: `error`, described after the
    /// request's method and path ("POST /2/statuses/share.json: the request
    /// timed out"), never its query, which may hold a token. The one wording
    /// every client's network error uses.
    public init(_ error: TransportError, sending request: HTTPRequest) {
        self.init(error, context: "\(request.method) \(request.url.path)")
    }
}
