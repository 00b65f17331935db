import ShareKit
import WeChatShare
import WeiboShare

/// Every target photo-share knows, in a stable order, with where the content
/// goes in the user's terms and what the environment must set up. The limits
/// are the providers' own data, never restated here.
enum TargetDescriptions {
    struct Entry {
        let name: String
        let description: String
        /// What to set when the target is not registered here.
        let setup: String
    }

    static let all: [Entry] = [
        Entry(
            name: "weibo/timeline", description: "a status on the signed-in user's Weibo timeline (statuses/share.json; \(WeiboProvider.postsPerHour))",
            setup: "set PHOTODECK_WEIBO_APP_KEY and PHOTODECK_WEIBO_TOKEN"),
        Entry(
            name: "wechat/session", description: "handed to the WeChat app, where the user picks a chat (needs the app's WeChat bridge)",
            setup: "needs an app's WeChat bridge"),
        Entry(
            name: "wechat/timeline", description: "handed to the WeChat app for the user's Moments (needs the app's WeChat bridge)",
            setup: "needs an app's WeChat bridge"),
        Entry(
            name: "wechat/favorites", description: "handed to the WeChat app to save in the user's Favorites (needs the app's WeChat bridge)",
            setup: "needs an app's WeChat bridge"),
        Entry(
            name: "qq/session", description: "handed to the QQ app, where the user picks a chat (needs the app's QQ bridge)",
            setup: "needs an app's QQ bridge"),
        Entry(name: "qq/timeline", description: "handed to the QQ app for the user's Qzone (needs the app's QQ bridge)", setup: "needs an app's QQ bridge"),
        Entry(
            name: "qq/favorites", description: "handed to the QQ app to save in QQ's Favorites (needs the app's QQ bridge)",
            setup: "needs an app's QQ bridge"),
        Entry(
            name: "qq/dataline", description: "handed to the QQ app for My Computer, the user's own devices (needs the app's QQ bridge)",
            setup: "needs an app's QQ bridge"),
        Entry(
            name: "wechat-oa/message", description: "a message from the Official Account to one follower, only within 48 h of their last message to it",
            setup: "set PHOTODECK_WECHAT_APP_ID, PHOTODECK_WECHAT_TOKEN and PHOTODECK_WECHAT_TO"),
        Entry(
            name: "wechat-oa/article", description: "an article published by the Official Account (not pushed to followers' chats or Moments)",
            setup: "set PHOTODECK_WECHAT_APP_ID and PHOTODECK_WECHAT_TOKEN"),
        Entry(
            name: "wechat-oa/broadcast",
            description:
                "a broadcast from the Official Account to all followers or a tag (subscription accounts: \(WeChatOfficialAccountProvider.AccountKind.subscription.broadcastQuota); service accounts: \(WeChatOfficialAccountProvider.AccountKind.service.broadcastQuota))",
            setup: "set PHOTODECK_WECHAT_APP_ID, PHOTODECK_WECHAT_TOKEN and PHOTODECK_WECHAT_BROADCAST"),
        Entry(
            name: "wecom/session",
            description: "a message to a WeCom group chat through its robot webhook (\(WeComWebhookProvider.messagesPerMinute) messages per minute)",
            setup: "set PHOTODECK_WECOM_KEY"),
    ]

    static func text(for target: ShareTarget) -> String {
        all.first { $0.name == target.description }?.description ?? target.displayName
    }
}
