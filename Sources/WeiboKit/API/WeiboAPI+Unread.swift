import Foundation
import ServiceKit

extension WeiboAPI {
    /// What is new for the user `uid` (`2/remind/unread_count.json`), from
    /// the reminder host ``remindBase`` (`rm.api.weibo.com`), which takes
    /// the same token as the API. It counts against the same request
    /// limits as every read; poll it with ``WeiboUnreadPoller``, which
    /// keeps to them.
    public func unreadCounts(of uid: String, token: String) async throws(WeiboError) -> WeiboUnreadCounts {
        try Self.checkID(uid, "the uid")
        let endpoint = "remind/unread_count"
        let request = request("GET", "2/remind/unread_count.json", on: remindBase, query: [("uid", uid)], token: token)
        let response = try await read(request, endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.unreadCounts)
    }
}
