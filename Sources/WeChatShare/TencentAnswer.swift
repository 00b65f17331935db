public import Foundation
public import ServiceKit
public import ShareKit

/// How WeChat's and WeCom's APIs answer: a JSON object that carries
/// `errcode` and `errmsg` (`errcode` 0 or absent means success).
public enum TencentAnswer {
    /// Error codes, grouped by what the app should do.
    public enum ErrorCode {
        /// The access token is invalid, missing or expired: fetch a new one
        /// (40001 from the token endpoint itself means a wrong AppSecret,
        /// which ``WeChatAuthorizer`` reports as such).
        public static let authorization: Set<Int> = [40001, 40014, 41001, 42001, 42007]
        /// Per-minute call limits: try again in a minute.
        public static let minuteQuota: Set<Int> = [45011]
        /// The account's daily API quota: nothing more until midnight, Beijing time.
        public static let dailyQuota = 45009
        /// The follower's 48-hour window is closed (45015) or used up (45047):
        /// only the follower's next message to the account reopens it.
        public static let followerWindowClosed: Set<Int> = [45015, 45047]
        /// The account may not use this API (not verified, or not granted).
        public static let apiUnauthorized = 48001
        /// No broadcast quota left (a subscription account's one a day, a
        /// service account's four a month).
        public static let broadcastQuota = 45028
        /// "System busy": nothing was done; try later.
        public static let busy = -1
    }

    /// The answer's JSON when it reports success; otherwise the typed
    /// ``ShareKit/ShareError`` it means for `provider` (`now` dates a quota's reset).
    /// Never traps on a malformed body.
    ///
    /// 45009 is the account's daily quota, until midnight in Beijing,
    /// unless `quotaWindow` says the API's quota is a rolling window (a
    /// WeCom group robot's is a minute).
    public static func check(
        _ response: HTTPResponse, provider: ProviderID, step: String, now: Date, quotaWindow: Duration? = nil
    ) throws(ShareError) -> JSONValue {
        let json: JSONValue
        do {
            json = try response.json()
        } catch {
            throw .server(status: response.status, message: "\(step): \(error)")
        }
        let code = json["errcode"]?.intValue ?? 0
        if code != 0 {
            throw failure(
                code: code, message: json["errmsg"]?.stringValue ?? "", response: response, provider: provider, step: step, now: now,
                quotaWindow: quotaWindow)
        }
        guard (200..<300).contains(response.status), case .object = json else {
            throw .server(status: response.status, message: "\(step): unexpected answer \(JSONValue.snippet(of: response.body))")
        }
        return json
    }

    /// The outcome of a step that publishes (sends a message, a broadcast):
    /// posted, with the receipt `receipt` reads from the answer; a typed
    /// failure; or, for a 2xx answer that cannot be read,
    /// ``ShareOutcome/outcomeUnknown(reason:)`` (WeChat took the request).
    static func outcome(
        ofPublished response: HTTPResponse, provider: ProviderID, step: String, now: Date, quotaWindow: Duration? = nil,
        receipt: (JSONValue) -> ShareReceipt = { _ in ShareReceipt() }
    ) throws(ShareError) -> ShareOutcome {
        do throws(ShareError) {
            return .posted(receipt(try check(response, provider: provider, step: step, now: now, quotaWindow: quotaWindow)))
        } catch {
            if case .server = error, (200..<300).contains(response.status) { return .outcomeUnknown(reason: "\(error)") }
            throw error
        }
    }

    /// The `errcode` of an answer, when it has one.
    static func errorCode(of response: HTTPResponse) -> Int? {
        (try? response.json())?["errcode"]?.intValue
    }

    /// The ``ShareError`` for error `code`, with what the user can do about it.
    static func failure(
        code: Int, message: String, response: HTTPResponse, provider: ProviderID, step: String, now: Date, quotaWindow: Duration? = nil
    ) -> ShareError {
        // errmsg carries a request id ("... rid: 6004f3da-..."); keep it: support asks for it.
        let reason = "\(step): \(message.isEmpty ? "error" : message) (errcode \(code))"
        switch code {
        case _ where ErrorCode.authorization.contains(code): return .authorizationExpired(provider)
        case ErrorCode.dailyQuota: return .rateLimited(retryAfter: quotaWindow ?? untilMidnightInBeijing(from: now))
        case _ where ErrorCode.minuteQuota.contains(code): return .rateLimited(retryAfter: response.retryAfter ?? .seconds(60))
        case ErrorCode.broadcastQuota: return .rateLimited(retryAfter: response.retryAfter)
        case _ where ErrorCode.followerWindowClosed.contains(code):
            return .rejected(
                reason: "\(reason): the follower's 48-hour window for messages is closed; only their next message to the account reopens it")
        case ErrorCode.apiUnauthorized:
            return .rejected(reason: "\(reason): the account may not use this API; it must be verified, or the permission granted in the WeChat console")
        case ErrorCode.busy: return .server(status: response.status, message: reason)
        case _ where (500..<600).contains(response.status): return .server(status: response.status, message: reason)
        default: return .rejected(reason: reason)
        }
    }

    /// The time until the next midnight in Beijing (UTC+8, no daylight
    /// saving), when WeChat's daily quotas reset.
    static func untilMidnightInBeijing(from now: Date) -> Duration {
        let day = 86_400
        let beijing = Int(now.timeIntervalSince1970.rounded(.down)) + 8 * 3_600
        let remaining = day - ((beijing % day) + day) % day
        return .seconds(remaining)
    }
}

/// Sends one message of a share that a provider takes as several.
protocol MessageSender: Sendable {
    associatedtype Message: Sendable
    /// Sends `message`: posted, outcome unknown, or a typed failure.
    func send(_ message: Message) async throws(ShareError) -> ShareOutcome
}

/// Sends a share that a provider takes as several messages, one at a time,
/// and says exactly how far it got: nothing (the first failure is thrown
/// as is), part (``ShareError/partiallyPosted(posted:total:failure:)``),
/// unknown (stops there), or all.
enum MessageSequence {
    static func post<Sender: MessageSender>(_ messages: [Sender.Message], via sender: Sender) async throws(ShareError) -> ShareOutcome {
        var receipts: [ShareReceipt] = []
        for (index, message) in messages.enumerated() {
            let outcome: ShareOutcome
            do {
                outcome = try await sender.send(message)
            } catch {
                if index == 0 { throw error }
                throw .partiallyPosted(posted: index, total: messages.count, failure: error)
            }
            switch outcome {
            case .posted(let receipt): receipts.append(receipt)
            case .outcomeUnknown(let reason):
                if index == 0 && messages.count == 1 { return outcome }
                let rest = messages.count - index - 1
                return .outcomeUnknown(
                    reason: "\(index) of \(messages.count) messages were posted, then message \(index + 1): \(reason)"
                        + (rest > 0 ? "; the other \(rest) were not sent" : ""))
            }
        }
        let ids = receipts.compactMap(\.postID)
        return .posted(ShareReceipt(postID: ids.isEmpty ? nil : ids.joined(separator: ","), url: receipts.last?.url))
    }
}

extension HTTPRequest {
    /// A POST of a JSON document.
    static func json(_ url: URL, _ document: JSONValue, idempotent: Bool, timeout: Duration = .seconds(30)) -> HTTPRequest {
        HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": "application/json; charset=utf-8"], body: document.encoded(), timeout: timeout,
            isIdempotent: idempotent)
    }
}
