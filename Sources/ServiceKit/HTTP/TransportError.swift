/// Why a request got no usable response.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection could be made.
    case cannotConnect(String)
    /// No answer within the request's timeout, or the whole exchange took
    /// longer than its deadline (which activity does not extend).
    case timedOut
    /// The connection dropped mid-request; whether the server acted on it is unknown.
    case connectionLost(String)
    /// The request was cancelled.
    case cancelled
    /// The server redirected the request where its ``RedirectPolicy`` does
    /// not let it go (another origin, or from https to http): nothing was
    /// sent there. Both are origins (`scheme://host:port`), never full URLs,
    /// which may carry tokens.
    case redirectRefused(from: String, to: String)
    /// The answer's body was longer than the request's
    /// ``HTTPRequest/maxResponseBytes``; the transfer was stopped there.
    case responseTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "the request timed out"
        case .connectionLost(let reason): "the connection was lost: \(reason)"
        case .cancelled: "the request was cancelled"
        case .redirectRefused(let from, let to):
            "\(from) redirected the request to \(to), which it is not allowed to follow; nothing was sent there"
        case .responseTooLarge(let limit): "the answer is longer than the \(limit)-byte limit; the transfer was stopped"
        }
    }

    /// Whether sending an idempotent request again may help: not after a
    /// cancellation, a refused redirect or an answer over the size limit
    /// (the server would answer the same).
    public var isRetryable: Bool {
        switch self {
        case .cannotConnect, .timedOut, .connectionLost: true
        case .cancelled, .redirectRefused, .responseTooLarge: false
        }
    }

    /// Whether the server may have received (and acted on) the request.
    public var mayHaveReachedServer: Bool {
        switch self {
        case .timedOut, .connectionLost, .responseTooLarge: true
        case .cannotConnect, .cancelled, .redirectRefused: false
        }
    }
}
