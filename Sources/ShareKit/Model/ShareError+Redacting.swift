import Foundation

extension ShareError {
    /// This error with every occurrence of `secrets` in its messages replaced
    /// by `<redacted>`: providers pass errors through it, so a server that
    /// echoes a token back cannot put it in an error description.
    public func redacting(_ secrets: [String]) -> ShareError {
        let secrets = secrets.filter { $0.count >= 4 }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String) -> String { secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") } }
        switch self {
        case .rejected(let reason): return .rejected(reason: clean(reason))
        case .network(let cause): return .network(cause.redacting(secrets))
        case .server(let status, let message): return .server(status: status, message: clean(message))
        case .adaptationFailed(let cause): return .adaptationFailed(cause.redacting(secrets))
        case .storage(let cause): return .storage(cause.redacting(secrets))
        case .partiallyPosted(let posted, let total, let failure): return .partiallyPosted(posted: posted, total: total, failure: failure.redacting(secrets))
        case .unavailable(let reason): return .unavailable(reason: clean(reason))
        case .cancelled, .notAuthorized, .authorizationExpired, .rateLimited, .unknownTarget, .invalidContent: return self
        }
    }
}

extension ShareOutcome {
    /// This outcome with every occurrence of `secrets` in its reason replaced by `<redacted>`.
    public func redacting(_ secrets: [String]) -> ShareOutcome {
        guard case .outcomeUnknown(let reason) = self else { return self }
        return .outcomeUnknown(reason: secrets.filter { $0.count >= 4 }.reduce(reason) { $0.replacingOccurrences(of: $1, with: "<redacted>") })
    }
}
