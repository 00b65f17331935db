import Foundation
import ServiceKit

extension WeiboPost {
    /// The post as read back from the cache, with only `http` and `https`
    /// URLs kept (pictures, the author's avatar, and the same in its
    /// repost). The cache holds only what Weibo's answers gave, which the
    /// decoder already limits to those; a row that says otherwise was
    /// changed behind the SDK's back, and a `file:` picture must not make
    /// the client read a local file.
    var keepingWebURLs: WeiboPost {
        var post = self
        post.pictures = pictures.filter(ServerURL.isAllowed)
        post.user = user?.keepingWebURLs
        if let repost { post.repost = repost.keepingWebURLs }
        return post
    }
}

extension WeiboUser {
    /// The user with an avatar only when its URL is `http` or `https`.
    var keepingWebURLs: WeiboUser {
        var user = self
        if let avatar, !ServerURL.isAllowed(avatar) { user.avatar = nil }
        return user
    }
}
