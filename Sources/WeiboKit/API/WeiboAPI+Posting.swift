public import Foundation
public import ServiceKit
import SystemSupport

/// The end user's IP address, which Weibo asks every write to report
/// (`rip`, required by `statuses/share`, `statuses/repost` and the other
/// writes in the current documentation).
///
/// ```swift
/// let onDevice = WeiboAPI(http: http)                                  // .thisDevice
/// let onServer = WeiboAPI(http: http, endUserAddress: .fixed(request.clientIP))
/// ```
public enum WeiboEndUserAddress: Hashable, Sendable {
    /// This address: a server acting for a user passes the user's own.
    case fixed(String)
    /// The address this device sends from (the route toward the API's
    /// host, or the default route when the host is a name): right for an
    /// app or a tool on the user's own device.
    case thisDevice
}

/// How a repost also comments (`is_comment`).
public enum WeiboRepostComment: Int, Hashable, Sendable {
    /// Only repost.
    case none = 0
    /// Also comment on the post being reposted.
    case onPost = 1
    /// Also comment on the original post of a repost chain.
    case onOriginal = 2
    /// Both.
    case onBoth = 3
}

extension WeiboAPI {
    /// Reposts a post (`2/statuses/repost.json`) with optional text; sent once.
    public func repost(
        _ postID: String, text: String? = nil, comment: WeiboRepostComment = .none, endUserIP: String? = nil, token: String, uid: String? = nil
    ) async throws(WeiboError) -> WeiboWriteOutcome<WeiboPost> {
        try Self.checkID(postID, "the post id")
        if let text { try Self.checkLength(text, allowEmpty: true) }
        var fields = [("id", postID), ("is_comment", String(comment.rawValue))]
        if let text, !text.isEmpty { fields.append(("status", text)) }
        fields.append(("rip", try self.endUserIP(endUserIP)))
        let request = request("POST", "2/statuses/repost.json", form: URLEncodedForm(fields), token: token)
        return try await write(request, endpoint: "statuses/repost", uid: uid, sentText: text, decode: WeiboDecoder.post)
    }

    /// Posts a status with at most one picture (`2/statuses/share.json`,
    /// the API for third-party apps: the text must carry a link to one of
    /// the app's safe domains and no `#topic#`); sent once.
    public func share(status: String, picture: WeiboPicture? = nil, endUserIP: String? = nil, token: String, uid: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        let request = try shareRequest(status: status, picture: picture, endUserIP: endUserIP, token: token)
        switch try await publish(request) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response): return try Self.shareOutcome(of: response, sentText: status, uid: uid)
        }
    }

    /// What a `statuses/share.json` answer means: a receipt when Weibo
    /// names the new status (or answers 20032, "posted, syncing"); outcome
    /// unknown for a 2xx answer that proves nothing; else the error.
    package static func shareOutcome(of response: HTTPResponse, sentText: String?, uid: String? = nil) throws(WeiboError)
        -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        do {
            try check(response, endpoint: "statuses/share", uid: uid, sentText: sentText)
        } catch {
            if case .rejected(_, WeiboErrorCode.postedWithDelay, _) = error { return .done(WeiboPostReceipt(postID: nil, authorID: nil, post: nil)) }
            throw error
        }
        guard let field = try? WeiboDecoder.json(response.body), let postID = try? field.identifier(in: field) else {
            return .outcomeUnknown(
                reason: "Weibo answered HTTP \(response.status) without a readable status id; the status may have been posted")
        }
        let user = field["user"]
        let authorID = user.isMissing ? nil : try? user.identifier(in: user)
        return .done(WeiboPostReceipt(postID: postID, authorID: authorID, post: try? WeiboPost(field)))
    }

    /// The `statuses/share.json` request, as the documentation gives it:
    /// URL-encoded without a picture, `multipart/form-data` with one; `rip`
    /// always; the token in the `Authorization` header. Refuses (before
    /// anything is sent) a status with a `#topic#`, which the API forbids.
    public func shareRequest(status: String, picture: WeiboPicture?, endUserIP: String?, token: String) throws(WeiboError) -> HTTPRequest {
        if let topic = Self.topic(in: status) {
            throw .invalidArgument("statuses/share does not take #topics# (\"\(topic.prefix(40))\"); remove the # marks")
        }
        let rip = try self.endUserIP(endUserIP)
        let url = base.appending(path: "2/statuses/share.json")
        var headers = ["Authorization": "OAuth2 \(token)"]
        let body: [UInt8]
        if let picture {
            var form = MultipartForm()
            form.addField("status", status)
            form.addField("rip", rip)
            form.addFile("pic", filename: picture.filename, contentType: picture.mediaType, data: picture.bytes)
            headers["Content-Type"] = form.contentType
            body = form.body
        } else {
            headers["Content-Type"] = URLEncodedForm.contentType
            body = URLEncodedForm([("status", status), ("rip", rip)]).body
        }
        return HTTPRequest(method: "POST", url: url, headers: headers, body: body, timeout: .seconds(60), isIdempotent: false)
    }

    /// The first `#topic#` in `text`: a `#`, one or more characters on
    /// the same line that are not `#`, and a closing `#`.
    static func topic(in text: String) -> Substring? {
        var rest = text[...]
        while let open = rest.firstIndex(of: "#") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(where: { $0 == "#" || $0.isNewline }) else { return nil }
            if after[close] == "#", close > after.startIndex { return rest[open...close] }
            rest = after[close...]
        }
        return nil
    }

    /// The `rip` to send: `given` (checked to be an IP address), else
    /// ``endUserAddress``'s.
    func endUserIP(_ given: String?) throws(WeiboError) -> String {
        if let given {
            guard IPAddress.isLiteral(given) else { throw .invalidArgument("the end user's IP \"\(given.prefix(46))\" is not an IP address") }
            return given
        }
        switch endUserAddress {
        case .fixed(let address):
            guard IPAddress.isLiteral(address) else { throw .invalidArgument("the end user's IP \"\(address.prefix(46))\" is not an IP address") }
            return address
        case .thisDevice:
            // Looking the route up sends nothing; a host name routes as the default route does.
            let host = base.host.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) } ?? ""
            let toward = IPAddress.isLiteral(host) ? host : "203.0.113.1"
            guard let address = IPAddress.sourceAddress(toward: toward) else {
                throw .invalidArgument("Weibo asks for the end user's IP (rip) and this device has no route to \(host); pass endUserIP")
            }
            return address
        }
    }
}

/// A picture for a status: encoded bytes (JPEG, PNG or GIF, at most 5 MB)
/// and their media type.
public struct WeiboPicture: Hashable, Sendable {
    /// The encoded picture.
    public var bytes: [UInt8]
    /// `image/jpeg`, `image/png` or `image/gif`.
    public var mediaType: String

    /// Creates a picture.
    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }

    /// `photo.jpg`, `photo.png` or `photo.gif`.
    var filename: String {
        switch mediaType {
        case "image/png": "photo.png"
        case "image/gif": "photo.gif"
        default: "photo.jpg"
        }
    }
}

/// What Weibo answered to a new status: its id and author when it said,
/// and the whole status when the answer had one.
public struct WeiboPostReceipt: Hashable, Sendable {
    /// The new status's id; `nil` when Weibo answered "posted, syncing" (20032).
    public var postID: String?
    /// The author's uid, when the answer named it.
    public var authorID: String?
    /// The status as Weibo returned it, when complete.
    public var post: WeiboPost?

    /// Creates a receipt.
    public init(postID: String?, authorID: String?, post: WeiboPost?) {
        self.postID = postID
        self.authorID = authorID
        self.post = post
    }

    /// The status's page, `https://weibo.com/UID/ID`, when both are known.
    public var url: URL? {
        guard let postID, let authorID else { return nil }
        return URL(string: "https://weibo.com/\(authorID)/\(postID)")
    }
}
