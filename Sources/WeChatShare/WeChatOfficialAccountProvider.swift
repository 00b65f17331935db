public import Foundation
import ImageCodecs
public import ShareKit
public import ShareKitHTTP

/// WeChat through an Official Account's documented server APIs:
/// - ``ShareDestination/session``: a chat with one follower (customer-service
///   messages: the picture is uploaded as temporary media, then sent; text
///   follows as a second message);
/// - ``ShareDestination/timeline``: an article published to the account's
///   followers (pictures uploaded, a cover made from the thumbnail, a draft
///   saved, then published; the publish job is polled until WeChat says
///   whether it went out).
///
/// The credential is the account's access token (``WeChatAuthorizer``);
/// WeChat's "token expired" answers surface as
/// ``ShareError/authorizationExpired(_:)`` so the share can be resumed.
///
/// ```swift
/// let wechat = WeChatOfficialAccountProvider(configuration: .init(appID: "wx123", sessionRecipient: followerOpenID))
/// await center.register(wechat)
/// try await credentials.save(try await WeChatAuthorizer(appID: "wx123", appSecret: secret).credential())
/// ```
public struct WeChatOfficialAccountProvider: ShareProvider {
    /// The provider's identifier, `"wechat"`.
    public static let id: ProviderID = "wechat"

    /// Where WeChat's server API lives: `https://api.weixin.qq.com`.
    public static let defaultAPIBase = URL(string: "https://api.weixin.qq.com")!

    /// The account's configuration.
    public struct Configuration: Hashable, Sendable {
        /// The Official Account's app id.
        public var appID: String
        /// The follower (`openid`) session shares go to; `nil` offers no session destination.
        public var sessionRecipient: String?
        /// Where the API lives (tests point this at a loopback server).
        public var apiBase: URL
        /// How often, and how far apart, a published article's status is read.
        public var publishPolls: Int
        /// The wait between polls.
        public var publishPollInterval: Duration

        /// Creates a configuration.
        public init(
            appID: String, sessionRecipient: String? = nil, apiBase: URL = WeChatOfficialAccountProvider.defaultAPIBase, publishPolls: Int = 5,
            publishPollInterval: Duration = .seconds(2)
        ) {
            self.appID = appID
            self.sessionRecipient = sessionRecipient
            self.apiBase = apiBase
            self.publishPolls = publishPolls
            self.publishPollInterval = publishPollInterval
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let client: ProviderHTTPClient
    private let networkMonitor: (any NetworkMonitor)?

    public var id: ProviderID { Self.id }
    public var displayName: String { "WeChat" }
    public var destinations: [ShareDestination] { configuration.sessionRecipient == nil ? [.timeline] : [.session, .timeline] }

    /// Creates the provider.
    public init(
        configuration: Configuration, client: ProviderHTTPClient = ProviderHTTPClient(transport: URLSessionTransport()),
        networkMonitor: (any NetworkMonitor)? = nil
    ) {
        self.configuration = configuration
        self.client = client
        self.networkMonitor = networkMonitor
    }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        switch destination {
        case .session where configuration.sessionRecipient != nil:
            // Customer-service messages: text up to 2048 bytes; temporary image
            // media up to 10 MB. Each picture is its own message, then the text.
            return ShareConstraints(
                text: .init(maxLength: 2048, counting: .utf8Bytes),
                images: .init(maxCount: 9, maxBytes: 10 * 1024 * 1024, formats: [.jpeg, .png]),
                links: .inText
            )
        case .timeline:
            // An article: pictures in the body up to 1 MB each (uploadimg), a
            // cover as "thumb" material (JPEG up to 64 KB), a title of 32 characters.
            return ShareConstraints(
                text: .init(maxLength: 20_000, counting: .characters, isRequired: true),
                images: .init(maxCount: 9, maxBytes: 1024 * 1024, formats: [.jpeg, .png]),
                thumbnail: .init(maxBytes: 64 * 1024, maxSize: PixelSize(width: 360, height: 360), format: .jpeg),
                links: .object(maxTitleLength: 32, maxSummaryLength: 120)
            )
        default:
            return nil
        }
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(isConfigured: !configuration.appID.isEmpty, credential: credential, clock: client.clock, network: networkMonitor)
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        guard let credential else { throw .notAuthorized(id) }
        let token = credential.accessToken
        do throws(ShareError) {
            switch (destination, configuration.sessionRecipient) {
            case (.session, let recipient?):
                return try await shareToSession(content, recipient: recipient, token: token).redacting([token])
            case (.timeline, _):
                return try await publishArticle(content, token: token).redacting([token])
            default:
                throw .unknownTarget(ShareTarget(provider: id, destination: destination, displayName: displayName))
            }
        } catch {
            throw error.redacting([token])
        }
    }

    // MARK: Session

    /// A session share's messages: the picture first (if its upload fails,
    /// nothing has been posted), then the text.
    enum SessionMessage: Sendable {
        case image(PreparedContent.Image)
        case text(String)
    }

    /// Sends session messages to one follower.
    struct SessionSender: MessageSender {
        let provider: WeChatOfficialAccountProvider
        let recipient: String
        let token: String

        func send(_ message: SessionMessage) async throws(ShareError) -> ShareOutcome {
            switch message {
            case .image(let image):
                let mediaID = try await provider.upload(image, to: "cgi-bin/media/upload", type: "image", token: token, resultKey: "media_id")
                return try await provider.sendMessage(
                    ["touser": .string(recipient), "msgtype": "image", "image": ["media_id": .string(mediaID)]], token: token)
            case .text(let text):
                return try await provider.sendMessage(["touser": .string(recipient), "msgtype": "text", "text": ["content": .string(text)]], token: token)
            }
        }
    }

    private func shareToSession(_ content: PreparedContent, recipient: String, token: String) async throws(ShareError) -> ShareOutcome {
        var messages = content.images.map(SessionMessage.image)
        if let text = content.text, !text.isEmpty { messages.append(.text(text)) }
        client.log.log(ShareLogRecord(.info, "wechat: sending \(messages.count) message(s) to a follower"))
        return try await MessageSequence.post(messages, via: SessionSender(provider: self, recipient: recipient, token: token))
    }

    fileprivate func sendMessage(_ message: JSONValue, token: String) async throws(ShareError) -> ShareOutcome {
        let request = HTTPRequest.json(endpoint("cgi-bin/message/custom/send", token: token), message, idempotent: false)
        switch try await client.publish(request) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response):
            do throws(ShareError) {
                _ = try TencentAnswer.check(response, provider: id, step: "message/custom/send")
                return .posted(ShareReceipt())
            } catch {
                // A 2xx answer that cannot be read: WeChat took the message.
                if case .server = error, (200..<300).contains(response.status) { return .outcomeUnknown(reason: "\(error)") }
                throw error
            }
        }
    }

    // MARK: Timeline

    private func publishArticle(_ content: PreparedContent, token: String) async throws(ShareError) -> ShareOutcome {
        guard let thumbnail = content.thumbnail else {
            throw .invalidContent([.thumbnailUnavailable("a WeChat article needs a cover: share at least one picture or a link thumbnail")])
        }
        let text = content.text ?? ""
        let title = content.link?.title.flatMap { $0.isEmpty ? nil : $0 } ?? TextCounter(.characters).truncate(Self.firstLine(of: text), to: 32)
        client.log.log(ShareLogRecord(.info, "wechat: publishing an article with \(content.images.count) picture(s)"))
        var pictureURLs: [String] = []
        for image in content.images {
            pictureURLs.append(try await upload(image, to: "cgi-bin/media/uploadimg", type: nil, token: token, resultKey: "url"))
        }
        let coverID = try await upload(thumbnail, to: "cgi-bin/material/add_material", type: "thumb", token: token, resultKey: "media_id")
        var article: [String: JSONValue] = [
            "title": .string(title), "content": .string(Self.articleHTML(text: text, pictures: pictureURLs)), "thumb_media_id": .string(coverID),
            "need_open_comment": 0,
        ]
        if let summary = content.link?.summary { article["digest"] = .string(summary) }
        if let url = content.link?.url { article["content_source_url"] = .string(url.absoluteString) }
        // Saving a draft twice makes two drafts, not two posts: safe to retry.
        let draft = try await client.send(.json(endpoint("cgi-bin/draft/add", token: token), ["articles": [.object(article)]], idempotent: true))
        let draftID = try requiredString(TencentAnswer.check(draft, provider: id, step: "draft/add"), "media_id", step: "draft/add")

        let submitted: HTTPResponse
        switch try await client.publish(.json(endpoint("cgi-bin/freepublish/submit", token: token), ["media_id": .string(draftID)], idempotent: false)) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response): submitted = response
        }
        let publishID: String
        do throws(ShareError) {
            publishID = try requiredString(TencentAnswer.check(submitted, provider: id, step: "freepublish/submit"), "publish_id", step: "freepublish/submit")
        } catch {
            if case .server = error, (200..<300).contains(submitted.status) { return .outcomeUnknown(reason: "\(error)") }
            throw error
        }
        return try await pollPublish(publishID, token: token)
    }

    /// Reads the publish job's status until WeChat says it finished, or gives up with "outcome unknown".
    private func pollPublish(_ publishID: String, token: String) async throws(ShareError) -> ShareOutcome {
        var lastReason = "WeChat is still publishing"
        for attempt in 0..<max(1, configuration.publishPolls) {
            if attempt > 0 {
                do { try await client.clock.sleep(for: configuration.publishPollInterval) } catch { break }
            }
            do throws(ShareError) {
                let response = try await client.send(
                    .json(endpoint("cgi-bin/freepublish/get", token: token), ["publish_id": .string(publishID)], idempotent: true))
                let json = try TencentAnswer.check(response, provider: id, step: "freepublish/get")
                switch json["publish_status"]?.intValue {
                case 0?:
                    let url = json["article_detail"]?["item"]?[0]?["article_url"]?.stringValue.flatMap { URL(string: $0) }
                    return .posted(ShareReceipt(postID: json["article_id"]?.stringValue ?? publishID, url: url))
                case 1?:
                    lastReason = "WeChat is still publishing"
                case let status?:
                    // 2: original-content check failed, 3: failed, 4: audit refused, 5: deleted, 6: banned.
                    let failed = json["fail_idx"]?.arrayValue.map { " (articles \($0.compactMap(\.intValue)))" } ?? ""
                    throw ShareError.rejected(reason: "WeChat did not publish job \(publishID): publish status \(status)\(failed)")
                case nil:
                    lastReason = "WeChat answered without a publish status"
                }
            } catch {
                if case .rejected = error { throw error }
                lastReason = "its status could not be read: \(error)"
            }
        }
        return .outcomeUnknown(reason: "the article was submitted as publish job \(publishID); \(lastReason)")
    }

    // MARK: Helpers

    /// Uploads `image` (an idempotent step: an upload only returns an id or URL).
    fileprivate func upload(_ image: PreparedContent.Image, to path: String, type: String?, token: String, resultKey: String) async throws(ShareError) -> String
    {
        var form = MultipartForm()
        form.addImage("media", image)
        var url = endpoint(path, token: token)
        if let type { url = url.adding([("type", type)]) }
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body, timeout: .seconds(60), isIdempotent: true)
        let response = try await client.send(request)
        let step = path.replacingOccurrences(of: "cgi-bin/", with: "")
        return try requiredString(TencentAnswer.check(response, provider: id, step: step), resultKey, step: step)
    }

    private func requiredString(_ json: JSONValue, _ key: String, step: String) throws(ShareError) -> String {
        guard let value = json[key]?.stringValue, !value.isEmpty else { throw .server(status: 200, message: "\(step): the answer has no \(key)") }
        return value
    }

    private func endpoint(_ path: String, token: String) -> URL {
        configuration.apiBase.appending(path: path).adding([("access_token", token)])
    }

    static func firstLine(of text: String) -> String {
        text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// The article body: one paragraph per line of text, then the pictures.
    static func articleHTML(text: String, pictures: [String]) -> String {
        let paragraphs = text.split(whereSeparator: \.isNewline).map { "<p>\(escapeHTML(String($0)))</p>" }
        let images = pictures.map { "<p><img src=\"\(escapeHTML($0))\"/></p>" }
        return (paragraphs + images).joined()
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
