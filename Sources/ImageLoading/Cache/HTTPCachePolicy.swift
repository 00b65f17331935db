import Foundation
import ServiceKit

/// What a response's headers say about keeping and reusing it, for a
/// private cache (RFC 9111): which directives hold, how long it stays
/// fresh, and how to ask the server whether it changed.
///
/// - Stored: a `200` whose `Cache-Control` has no `no-store` and whose
///   `Vary` is not `*`.
/// - Fresh for `max-age` (`s-maxage` is for shared caches and ignored),
///   else `Expires − Date`, else 10% of the time since `Last-Modified`
///   (at most a day), else not at all.
/// - `no-cache`: stored, but asked about every time. `must-revalidate`:
///   never served stale, not even offline.
/// - Stale with an `ETag` or `Last-Modified`: revalidated with
///   `If-None-Match` / `If-Modified-Since`; a `304` refreshes the stored
///   headers and the stored bytes are served.
struct HTTPCachePolicy: Hashable, Sendable, Codable {
    /// The header fields caching reads, as the response (or its latest `304`) gave them.
    var headers: [String: String]
    /// When the response (or its latest `304`) arrived, on the cache's clock.
    var receivedAt: Date

    /// The header fields kept with a stored response.
    static let fields = ["cache-control", "expires", "date", "etag", "last-modified", "age", "pragma", "content-type"]

    /// The longest a heuristic freshness lasts.
    static let maxHeuristicLifetime: TimeInterval = 86_400

    /// The policy of `response`, received at `now`.
    init(_ response: HTTPResponse, receivedAt now: Date) {
        headers = response.headers.filter { Self.fields.contains($0.key) }
        receivedAt = now
    }

    /// The directives of one `Cache-Control` value, lowercased, with their arguments.
    static func directives(_ header: String?) -> [String: String?] {
        var found: [String: String?] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pair.first?.lowercased(), !name.isEmpty else { continue }
            found[name] = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
        }
        return found
    }

    /// Whether `response` may be kept at all.
    static func isStorable(_ response: HTTPResponse) -> Bool {
        guard response.status == 200 else { return false }
        if directives(response.headers["cache-control"]).keys.contains("no-store") { return false }
        return response.headers["vary"]?.trimmingCharacters(in: .whitespaces) != "*"
    }

    private var control: [String: String?] { Self.directives(headers["cache-control"]) }

    /// `no-cache` (or HTTP/1.0's `Pragma: no-cache` without `Cache-Control`): ask before every use.
    var revalidatesAlways: Bool {
        control.keys.contains("no-cache") || (headers["cache-control"] == nil && headers["pragma"]?.lowercased().contains("no-cache") == true)
    }

    /// `must-revalidate` or `no-cache`: never serve it stale, not even offline.
    var forbidsStale: Bool { revalidatesAlways || control.keys.contains("must-revalidate") }

    /// `ETag`.
    var etag: String? { headers["etag"] }
    /// `Last-Modified`.
    var lastModified: String? { headers["last-modified"] }

    /// The age it had on arrival: `Age`, or the gap between `Date` and
    /// arrival when larger (a `Date` in the future adds nothing).
    var initialAge: TimeInterval {
        let ageHeader = headers["age"].flatMap { TimeInterval($0) }.map { max(0, $0) } ?? 0
        let date = headers["date"].flatMap(HTTPDate.parse)
        return max(ageHeader, date.map { max(0, receivedAt.timeIntervalSince($0)) } ?? 0)
    }

    /// How long it stays fresh from its origin.
    var lifetime: TimeInterval {
        let date = headers["date"].flatMap(HTTPDate.parse)
        if let maxAge = control["max-age"].flatMap({ $0 }).flatMap({ TimeInterval($0) }) { return max(0, maxAge) }
        if let expires = headers["expires"] {
            // An Expires that cannot be read means "already expired".
            return HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date ?? receivedAt)) } ?? 0
        }
        if let modified = lastModified.flatMap(HTTPDate.parse) {
            return min(Self.maxHeuristicLifetime, max(0, (date ?? receivedAt).timeIntervalSince(modified) * 0.1))
        }
        return 0
    }

    /// Its age at `now`.
    func age(at now: Date) -> TimeInterval { initialAge + max(0, now.timeIntervalSince(receivedAt)) }

    /// Whether it may be used at `now` without asking the server.
    func isFresh(at now: Date) -> Bool { !revalidatesAlways && age(at: now) < lifetime }

    /// Whether the server can be asked if it changed.
    var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The headers of a conditional request for it.
    var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }

    /// The policy after a `304` to a conditional request, at `now`: the
    /// fields the `304` carries replace the stored ones, the others stay
    /// (RFC 9111 §4.3.4).
    func refreshed(by notModified: HTTPResponse, at now: Date) -> HTTPCachePolicy {
        var refreshed = self
        for (name, value) in notModified.headers where Self.fields.contains(name) && name != "content-type" { refreshed.headers[name] = value }
        refreshed.receivedAt = now
        return refreshed
    }
}
