public import Foundation
import ImageCore
public import ServiceKit
public import ShareKit

extension ShareDestination {
    /// A message to one follower of an Official Account (`wechat-oa/message`).
    public static let message = ShareDestination("message")
    /// An article published by an Official Account (`wechat-oa/article`).
    public static let article = ShareDestination("article")
    /// A broadcast to all of an Official Account's followers, or a tag of
    /// them (`wechat-oa/broadcast`).
    public static let broadcast = ShareDestination("broadcast")
}

/// An Official Account sharing through WeChat's documented server APIs.
/// These are not what the WeChat app's share sheet does (that is
/// ``WeChatShare/WeChatAppProvider`` in WeChatShare): they post as the account.
///
/// - ``ShareKit/ShareDestination/message``: a customer-service message to one
///   follower (``Configuration/messageRecipient``). WeChat allows these only
///   within 48 hours of the follower writing to the account, and caps them
///   in that window: each picture is a message and the text another, so a
///   share takes at most one picture (two messages). A closed window is
///   ``ShareKit/ShareError/rejected(reason:)`` saying only the follower's next
///   message reopens it; it is never retried.
/// - ``ShareKit/ShareDestination/article``: an article published to the account
///   (pictures uploaded, a cover from the thumbnail, a draft saved, then
///   published; the job is polled until WeChat says whether it went out).
///   WeChat does not push these to followers' chats or Moments.
/// - ``ShareKit/ShareDestination/broadcast``: `message/mass/sendall` to every
///   follower or a tag (``Configuration/broadcastAudience``), as text or
///   pictures with a recommendation text. Each share carries a
///   `clientmsgid` made from its content, so a retry (or the same share
///   again within 24 hours) is refused by WeChat as a duplicate instead
///   of sent twice. Subscription accounts may broadcast once a day,
///   service accounts four times a month; beyond that WeChat answers
///   45028, a ``ShareKit/ShareError/rateLimited(retryAfter:)``. With
///   ``Configuration/accountKind`` set, the center applies that quota
///   itself (``AccountKind/broadcastQuota``) before sending.
///
/// The credential is the account's access token (``WeChatAuthorizer``).
/// WeChat's "token expired" answers surface as
/// ``ShareKit/ShareError/authorizationExpired(_:)`` so the share can be resumed;
/// 45009 (the account's daily API quota) is a rate limit until midnight,
/// Beijing time; 48001 (an API the account may not use) says so.
///
/// ```swift
/// let wechat = WeChatOfficialAccountProvider(configuration: .init(appID: "wx123", messageRecipient: followerOpenID))
/// await center.register(wechat)
/// try await credentials.save(try await WeChatAuthorizer(appID: "wx123", appSecret: secret).credential())
/// ```
public struct WeChatOfficialAccountProvider: ShareProvider {
    /// The provider's identifier, `"wechat-oa"`.
    public static let id: ProviderID = "wechat-oa"

    /// Where WeChat's server API lives: `https://api.weixin.qq.com`.
    public static let defaultAPIBase = URL(string: "https://api.weixin.qq.com")!

    /// Who a broadcast goes to.
    public enum BroadcastAudience: Hashable, Sendable {
        /// Every follower (`is_to_all`).
        case allFollowers
        /// The followers with this tag (`tag_id`).
        case tag(Int)
    }

    /// The kind of Official Account, which sets its broadcast quota.
    public enum AccountKind: Hashable, Sendable {
        /// A subscription account (订阅号): one broadcast a day.
        case subscription
        /// A service account (服务号): four broadcasts a month.
        case service

        /// The broadcast quota as data, per account, in WeChat's own
        /// windows: calendar days and months, Beijing time (UTC+8), as the
        /// 群发 documentation counts them (订阅号 1 per day, 服务号 4 per
        /// 自然月). The center checks its send log against them, so a fifth
        /// broadcast in a month is held back instead of refused with 45028.
        public var broadcastQuota: RateLimit {
            switch self {
            case .subscription: RateLimit(1, per: .calendarDay(utcOffsetSeconds: 8 * 3_600), scope: .account)
            case .service: RateLimit(4, per: .calendarMonth(utcOffsetSeconds: 8 * 3_600), scope: .account)
            }
        }
    }

    /// The account's configuration.
    public struct Configuration: Hashable, Sendable {
        /// The Official Account's app id.
        public var appID: String
        /// The follower (`openid`) messages go to; `nil` offers no message destination.
        public var messageRecipient: String?
        /// Who broadcasts go to; `nil` offers no broadcast destination.
        public var broadcastAudience: BroadcastAudience?
        /// The kind of account, when known: its broadcast quota is then
        /// applied before anything is sent (else only WeChat's 45028 says so).
        public var accountKind: AccountKind?
        /// Where the API lives (tests point this at a loopback server).
        public var apiBase: URL
        /// How often, and how far apart, a published article's status is read.
        public var publishPolls: Int
        /// The wait between polls.
        public var publishPollInterval: Duration

        /// Creates a configuration.
        public init(
            appID: String, messageRecipient: String? = nil, broadcastAudience: BroadcastAudience? = nil, accountKind: AccountKind? = nil,
            apiBase: URL = WeChatOfficialAccountProvider.defaultAPIBase, publishPolls: Int = 5, publishPollInterval: Duration = .seconds(2)
        ) {
            self.appID = appID
            self.messageRecipient = messageRecipient
            self.broadcastAudience = broadcastAudience
            self.accountKind = accountKind
            self.apiBase = apiBase
            self.publishPolls = publishPolls
            self.publishPollInterval = publishPollInterval
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let client: ServiceClient

    public var id: ProviderID { Self.id }
    public var displayName: String { "WeChat Official Account" }
    public var destinations: [ShareDestination] {
        (configuration.messageRecipient == nil ? [] : [.message]) + [.article] + (configuration.broadcastAudience == nil ? [] : [.broadcast])
    }

    /// Creates the provider.
    public init(configuration: Configuration, client: ServiceClient = ServiceClient(transport: CurlTransport())) {
        self.configuration = configuration
        self.client = client
    }

    /// The largest video material WeChat keeps: 10 MB.
    public static let maxVideoBytes = 10 * 1024 * 1024

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        switch destination {
        case .message where configuration.messageRecipient != nil:
            // Customer-service messages: text up to 2048 bytes; temporary
            // image media up to 10 MB. The picture is one message and the
            // text another, against the window's cap: one picture a share.
            // A video: permanent video material (MP4 up to 10 MB, H.264 and
            // AAC), sent with a thumb (temporary "thumb" media, JPEG up to 64 KB).
            return ShareConstraints(
                text: .init(maxLength: 2048, counting: .utf8Bytes),
                images: .init(maxCount: 1, maxBytes: 10 * 1024 * 1024, formats: [.jpeg, .png]),
                links: .inText,
                allowsMixedContent: false,
                videos: .init(
                    maxBytes: Self.maxVideoBytes, videoCodecs: ["h264"], audioCodecs: ["aac"],
                    thumbnail: .init(maxBytes: 64 * 1024, maxSize: PixelSize(width: 320, height: 320), format: .jpeg))
            )
        case .article:
            // An article: pictures in the body up to 1 MB each (uploadimg), a
            // cover as "thumb" material (JPEG up to 64 KB), a title of 32 characters.
            return ShareConstraints(
                text: .init(maxLength: 20_000, counting: .characters, isRequired: true),
                images: .init(maxCount: 9, maxBytes: 1024 * 1024, formats: [.jpeg, .png]),
                thumbnail: .init(maxBytes: 64 * 1024, maxSize: PixelSize(width: 360, height: 360), format: .jpeg),
                links: .object(maxTitleLength: 32, maxSummaryLength: 120)
            )
        case .broadcast where configuration.broadcastAudience != nil:
            // Text up to 2048 bytes, or pictures (permanent image material,
            // up to 10 MB each) with the text as the recommendation.
            return ShareConstraints(
                text: .init(maxLength: 2048, counting: .utf8Bytes),
                images: .init(maxCount: 9, maxBytes: 10 * 1024 * 1024, formats: [.jpeg, .png]),
                links: .inText
            )
        default:
            return nil
        }
    }

    /// The broadcast quota of ``Configuration/accountKind``, when it is set.
    public func rateLimits(for destination: ShareDestination) -> [RateLimit] {
        guard destination == .broadcast, let kind = configuration.accountKind else { return [] }
        return [kind.broadcastQuota]
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(isConfigured: !configuration.appID.isEmpty, credential: credential, client: client)
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        guard let credential else { throw .notAuthorized(id) }
        try validate(content, for: destination)
        let token = credential.accessToken
        do throws(ShareError) {
            switch (destination, configuration.messageRecipient, configuration.broadcastAudience) {
            case (.message, let recipient?, _):
                return try await sendToFollower(content, recipient: recipient, token: token).redacting([token])
            case (.article, _, _):
                return try await publishArticle(content, token: token).redacting([token])
            case (.broadcast, _, let audience?):
                return try await broadcast(content, to: audience, token: token).redacting([token])
            default:
                throw .unknownTarget(ShareTarget(provider: id, destination: destination, displayName: displayName))
            }
        } catch {
            throw error.redacting([token])
        }
    }
}
