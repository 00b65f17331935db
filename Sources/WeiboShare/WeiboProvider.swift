public import Foundation
public import ServiceKit
public import ShareKit
import WeiboKit

/// Weibo: posts a status with at most one picture to the signed-in user's
/// timeline through the documented `2/statuses/share.json` API, comments
/// on a post (``ShareKit/ShareDestination/comment``, `2/comments/create.json`)
/// and reposts one (``ShareKit/ShareDestination/repost``,
/// `2/statuses/repost.json`); the post is ``ShareKit/ShareContent/inReplyTo``.
///
/// Weibo requires every status shared through that API to carry a link to
/// one of the app's registered safe domains: the provider appends
/// ``Configuration/safeDomainLink`` when the text has no link to that host,
/// and its constraints keep room for it.
///
/// **No video.** `statuses/share` takes text and one picture, and Weibo's
/// open platform has no video upload an ordinary app may call (its video
/// APIs are granted to partners case by case): the constraints carry no
/// video rules, so the center never offers Weibo for a share with a video
/// (``ShareKit/ConstraintViolation/videoNotAccepted``). Share the video's
/// first frame, or a link to the video, instead.
///
/// ```swift
/// let weibo = WeiboProvider(configuration: .init(appKey: "123", safeDomainLink: URL(string: "https://example.com/app")!))
/// await center.register(weibo)
/// try await credentials.save(try await WeiboAuthorizer(appKey: "123", appSecret: secret, redirectURI: redirect).credential(forCode: code))
/// ```
public struct WeiboProvider: ShareProvider {
    /// The provider's identifier, `"weibo"`.
    public static let id: ProviderID = "weibo"

    /// Where Weibo's API lives: `https://api.weibo.com`.
    public static let defaultAPIBase = WeiboAPI.defaultBase

    /// The app's registration with Weibo.
    public struct Configuration: Hashable, Sendable {
        /// The app key (`client_id`).
        public var appKey: String
        /// A link on one of the app's safe domains (the share API rejects statuses without one).
        public var safeDomainLink: URL
        /// Where the API lives (tests point this at a loopback server).
        public var apiBase: URL
        /// The end user's IP address, sent as `rip` (Weibo asks server-side
        /// callers for it); ``endUserIP`` set for one share wins.
        public var endUserIP: String?

        /// Creates a configuration.
        public init(appKey: String, safeDomainLink: URL, apiBase: URL = WeiboProvider.defaultAPIBase, endUserIP: String? = nil) {
            self.appKey = appKey
            self.safeDomainLink = safeDomainLink
            self.apiBase = apiBase
            self.endUserIP = endUserIP
        }
    }

    /// Weibo's limit, counted the Weibo way (CJK 1, ASCII 1/2, a link 10):
    /// WeiboKit's ``WeiboKit/WeiboAPI/maxTextLength``, the one copy.
    public static let maxTextLength = WeiboAPI.maxTextLength
    /// The largest picture the API takes.
    public static let maxImageBytes = 5 * 1024 * 1024
    /// Weibo's posting limit for a third-party app: 30 statuses an hour per
    /// account (WeiboKit's ``WeiboKit/WeiboRateLimits/documented``, from the
    /// rate-limiting page of open.weibo.com); the center applies it in any
    /// rolling hour.
    public static let postsPerHour = WeiboRateLimits.documented.posts

    /// The end user's IP address for the shares run with it (`rip`), over
    /// the configuration's:
    ///
    /// ```swift
    /// let outcome = try await WeiboProvider.$endUserIP.withValue(request.clientIP) {
    ///     try await center.share(content, to: weiboTarget)
    /// }
    /// ```
    @TaskLocal public static var endUserIP: String?

    /// The configuration.
    public let configuration: Configuration
    private let client: ServiceClient

    public var id: ProviderID { Self.id }
    public var displayName: String { "Weibo" }
    public var destinations: [ShareDestination] { [.timeline, .comment, .repost] }

    /// Creates the provider. `client` carries the transport, retries for
    /// idempotent steps, the log and the network monitor that decides
    /// ``availability(credential:)``'s reachability.
    public init(configuration: Configuration, client: ServiceClient = ServiceClient(transport: CurlTransport())) {
        self.configuration = configuration
        self.client = client
    }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        switch destination {
        case .comment, .repost:
            // Text only (a link in it counts as Weibo counts links); a comment needs text, a repost may have none.
            return ShareConstraints(
                text: .init(maxLength: Self.maxTextLength, counting: .weibo, isRequired: destination == .comment, overflow: .refuse), images: nil,
                links: .inText, replies: .required)
        case .timeline: break
        default: return nil
        }
        // Room for " " + the safe-domain link, which the provider appends.
        let reserved = TextCounting.weibo.length(of: " " + configuration.safeDomainLink.absoluteString)
        return ShareConstraints(
            text: .init(maxLength: Self.maxTextLength - reserved, counting: .weibo),
            images: .init(maxCount: 1, maxBytes: Self.maxImageBytes, formats: [.jpeg, .png]),
            links: .inText
        )
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(isConfigured: !configuration.appKey.isEmpty, credential: credential, client: client)
    }

    /// Posts and reposts count against the hourly post limit; comments
    /// against WeiboKit's comment limits (none stated by the current page).
    public func rateLimits(for destination: ShareDestination) -> [RateLimit] {
        destination == .comment ? WeiboRateLimits.documented.comments : [Self.postsPerHour]
    }

    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 {
        // One request: its body, exactly as it will be sent.
        let picture = content.images.first.map { WeiboPicture(bytes: $0.bytes, mediaType: $0.format.mediaType) }
        let request = try? api.shareRequest(status: status(for: content.text), picture: picture, endUserIP: endUserIP, token: "")
        return Int64(request?.body.count ?? 0)
    }

    /// The `rip` of a share: the task's, else the configuration's, else the API's own rule.
    private var endUserIP: String? { Self.endUserIP ?? configuration.endUserIP }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        guard destinations.contains(destination) else { throw .unknownTarget(ShareTarget(provider: id, destination: destination, displayName: "Weibo")) }
        guard let credential else { throw .notAuthorized(id) }
        try validate(content, for: destination)
        if destination != .timeline { return try await answer(content, on: destination, credential: credential) }
        let text = status(for: content.text)
        let picture = content.images.first.map { WeiboPicture(bytes: $0.bytes, mediaType: $0.format.mediaType) }
        client.log.log(ServiceLogRecord(.info, "weibo: posting a status\(content.images.isEmpty ? "" : " with a picture")"))
        do throws(WeiboError) {
            let written = try await api.share(status: text, picture: picture, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
            return WeiboResponse.outcome(written).redacting([credential.accessToken])
        } catch {
            throw WeiboResponse.shareError(error).redacting([credential.accessToken])
        }
    }

    /// A comment on, or a repost of, ``ShareKit/PreparedContent/inReplyTo``; sent once.
    private func answer(_ content: PreparedContent, on destination: ShareDestination, credential: Credential) async throws(ShareError) -> ShareOutcome {
        guard let postID = content.inReplyTo else { throw .invalidContent([.fieldRequired(field: "inReplyTo")]) }
        let text = content.text ?? ""
        client.log.log(ServiceLogRecord(.info, "weibo: \(destination == .comment ? "commenting on" : "reposting") a post"))
        do throws(WeiboError) {
            let outcome: ShareOutcome
            if destination == .comment {
                switch try await api.comment(on: postID, text: text, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account) {
                case .done(let comment): outcome = .posted(ShareReceipt(postID: comment.id, url: nil))
                case .outcomeUnknown(let reason): outcome = .outcomeUnknown(reason: reason)
                }
            } else {
                switch try await api.repost(
                    postID, text: text.isEmpty ? nil : text, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
                {
                case .done(let post): outcome = .posted(ShareReceipt(postID: post.id, url: nil))
                case .outcomeUnknown(let reason): outcome = .outcomeUnknown(reason: reason)
                }
            }
            return outcome.redacting([credential.accessToken])
        } catch {
            throw WeiboResponse.shareError(error).redacting([credential.accessToken])
        }
    }

    /// The status text: the prepared text plus the safe-domain link unless it already has one.
    func status(for text: String?) -> String {
        let text = text ?? ""
        guard let domain = configuration.safeDomainLink.host?.lowercased() else { return text }
        let hasLink = text.split(whereSeparator: \.isWhitespace).contains { word in
            URL(string: String(word))?.host.map { Self.host($0, isIn: domain) } == true
        }
        if hasLink { return text }
        return text.isEmpty ? configuration.safeDomainLink.absoluteString : text + " " + configuration.safeDomainLink.absoluteString
    }

    /// Whether `host` is `domain` or one of its subdomains, compared label
    /// by label: `www.example.com` is in `example.com`, `badexample.com` is not.
    static func host(_ host: String, isIn domain: String) -> Bool {
        let hostLabels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        let domainLabels = domain.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard !domainLabels.isEmpty, hostLabels.count >= domainLabels.count else { return false }
        return Array(hostLabels.suffix(domainLabels.count)) == domainLabels
    }

    /// WeiboKit's API, which the provider posts through.
    var api: WeiboAPI { WeiboAPI(base: configuration.apiBase, http: client) }
}
