/// The first bytes of a download that was cut, and what ties them to one
/// version of the resource, so the rest can be asked for instead of the
/// whole (RFC 9110 `Range` with `If-Range`).
///
/// Only a `200` answer whose body is not content-coded and that carries a
/// strong `ETag` or a `Last-Modified` date can be resumed: without a
/// validator, bytes of an old version could be joined to a new one.
public struct PartialDownload: Hashable, Sendable {
    /// The body's first bytes.
    public let bytes: [UInt8]
    /// The `If-Range` a resumption sends: the strong ETag, else the
    /// `Last-Modified` date.
    public let validator: String
    /// The header fields (names lowercased) of the answer the bytes began.
    public let headers: [String: String]

    /// The resumable part of an answer cut short; `nil` when it cannot be
    /// resumed (another status, no validator, a weak ETag only, a coded
    /// body, nothing received).
    public init?(status: Int, headers: [String: String], bytes: [UInt8]) {
        guard status == 200, !bytes.isEmpty else { return nil }
        let headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        if let coding = headers["content-encoding"], coding.lowercased() != "identity" { return nil }
        if let etag = headers["etag"], etag.hasPrefix("\""), etag.count >= 2, etag.count <= 256 {
            validator = etag
        } else if let modified = headers["last-modified"], !modified.isEmpty, modified.count <= 64 {
            validator = modified
        } else {
            return nil
        }
        // A header is a claim: a validator with a line break would split the request's header.
        guard !validator.contains(where: { $0.isNewline }) else { return nil }
        self.headers = headers
        self.bytes = bytes
    }

    private init(bytes: [UInt8], validator: String, headers: [String: String]) {
        self.bytes = bytes
        self.validator = validator
        self.headers = headers
    }

    /// These bytes followed by `more`.
    func appending(_ more: [UInt8]) -> PartialDownload {
        PartialDownload(bytes: bytes + more, validator: validator, headers: headers)
    }

    /// The header fields a resumption adds to its request.
    public var rangeHeaders: [String: String] { ["Range": "bytes=\(bytes.count)-", "If-Range": validator] }
}

/// How a download that can resume ended.
public enum DownloadOutcome: Sendable {
    /// The whole body (joined from a resumption when it was one), as a
    /// `200` answer; or any other answer the server gave.
    case complete(HTTPResponse)
    /// No answer; `partial` is what arrived and can be resumed from.
    case failed(TransportError, partial: PartialDownload?)
}

/// Where a `206` answer's bytes go (`Content-Range: bytes FIRST-LAST/TOTAL`).
package struct ContentRange: Equatable {
    package let first: Int
    package let last: Int
    package let total: Int?

    /// Parses the field; `nil` for anything but one well-formed byte range.
    package init?(_ field: String) {
        let text = field.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds[0].count <= 18, bounds[1].count <= 18, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 0,
            last >= first
        else { return nil }
        if parts[1] == "*" {
            total = nil
        } else {
            guard parts[1].count <= 18, let total = Int(parts[1]), total > last else { return nil }
            self.total = total
        }
        self.first = first
        self.last = last
    }
}
