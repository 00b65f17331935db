/// Why a request got no response.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection could be made.
    case cannotConnect(String)
    /// No answer within the timeout.
    case timedOut
    /// The connection dropped mid-request; whether the server acted on it is unknown.
    case connectionLost(String)
    /// The request was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "the request timed out"
        case .connectionLost(let reason): "the connection was lost: \(reason)"
        case .cancelled: "the request was cancelled"
        }
    }

    /// Whether the server may have received the request.
    public var mayHaveReachedServer: Bool { self == .timedOut || { if case .connectionLost = self { true } else { false } }() }
}
