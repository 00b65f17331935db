import Foundation
import ServiceKit

extension WeiboAPI {
    /// A page of comments on a post (`2/comments/show.json`), newest first.
    public func comments(on postID: String, page: Int = 1, count: Int = 50, token: String, uid: String? = nil) async throws(WeiboError)
        -> WeiboCommentPage
    {
        try Self.checkID(postID, "the post id")
        let items = [("id", postID), ("page", String(max(page, 1))), ("count", String(min(max(count, 1), 200)))]
        let endpoint = "comments/show"
        let response = try await read(request("GET", "2/comments/show.json", query: items, token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.comments)
    }

    /// Comments on a post (`2/comments/create.json`); sent once.
    /// `alsoOnOriginal` comments on the original of a repost too
    /// (`comment_ori`); `endUserIP` is sent as `rip` (else ``endUserAddress``'s).
    public func comment(
        on postID: String, text: String, alsoOnOriginal: Bool = false, endUserIP: String? = nil, token: String, uid: String? = nil
    ) async throws(WeiboError) -> WeiboWriteOutcome<WeiboComment> {
        try Self.checkID(postID, "the post id")
        try Self.checkLength(text)
        let fields = [("comment", text), ("id", postID), ("comment_ori", alsoOnOriginal ? "1" : "0"), ("rip", try self.endUserIP(endUserIP))]
        let request = request("POST", "2/comments/create.json", form: URLEncodedForm(fields), token: token)
        return try await write(request, endpoint: "comments/create", uid: uid, sentText: text, decode: WeiboDecoder.comment)
    }
}
