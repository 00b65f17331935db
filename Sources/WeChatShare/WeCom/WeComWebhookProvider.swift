public import Foundation
public import ServiceKit
public import ShareKit
import SystemSupport

/// WeCom (WeChat Work): posts to a group chat through the group robot's
/// documented webhook (`cgi-bin/webhook/send?key=...`). The webhook key is
/// the only secret and lives in the configuration, so no credential is
/// needed; it never appears in logs or errors.
///
/// One webhook call posts one message, so a picture with text is two
/// messages (the picture first); a failure between them is reported as
/// ``ShareKit/ShareError/partiallyPosted(posted:total:failure:)``. The robot takes 20
/// messages a minute (``messagesPerMinute``), which the center applies.
///
/// A video goes as the robot's file message: uploaded first
/// (`webhook/upload_media?type=file`, at most 20 MB, kept by WeCom for
/// three days), then posted by its `media_id`; the robot has no video
/// message of its own. Text goes after it as a message of its own.
///
/// ```swift
/// let wecom = WeComWebhookProvider(configuration: .init(webhookKey: key))
/// await center.register(wecom)
/// ```
public struct WeComWebhookProvider: ShareProvider {
    /// The provider's identifier, `"wecom"`.
    public static let id: ProviderID = "wecom"
    /// The robot's documented limit: 20 messages a minute. A share of a
    /// picture with text is two messages, so the center counts shares
    /// against half of it.
    public static let messagesPerMinute = 20

    /// The robot's file limit: 20 MB.
    public static let maxFileBytes = 20 * 1024 * 1024

    /// Where WeCom's API lives: `https://qyapi.weixin.qq.com`.
    public static let defaultAPIBase = URL(string: "https://qyapi.weixin.qq.com")!

    /// The robot's configuration.
    public struct Configuration: Hashable, Sendable, CustomStringConvertible {
        /// The webhook key (the `key` query parameter of the robot's URL).
        public var webhookKey: String
        /// Where the API lives (tests point this at a loopback server).
        public var apiBase: URL

        /// Creates a configuration.
        public init(webhookKey: String, apiBase: URL = WeComWebhookProvider.defaultAPIBase) {
            self.webhookKey = webhookKey
            self.apiBase = apiBase
        }

        public var description: String { "WeComWebhookProvider.Configuration(key <redacted>, \(apiBase))" }
    }

    /// The configuration.
    public let configuration: Configuration
    private let client: ServiceClient

    public var id: ProviderID { Self.id }
    public var displayName: String { "WeCom" }
    public var destinations: [ShareDestination] { [.session] }
    public var requiresCredential: Bool { false }

    /// Creates the provider.
    public init(configuration: Configuration, client: ServiceClient = ServiceClient(transport: CurlTransport())) {
        self.configuration = configuration
        self.client = client
    }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        guard destination == .session else { return nil }
        // Text up to 2048 bytes; a picture up to 2 MB (JPEG or PNG); a news
        // card's title up to 128 bytes and description up to 512 bytes
        // (counted as characters here, then trimmed to bytes when sent).
        return ShareConstraints(
            text: .init(maxLength: 2048, counting: .utf8Bytes),
            images: .init(maxCount: 1, maxBytes: 2 * 1024 * 1024, formats: [.jpeg, .png]),
            links: .object(maxTitleLength: 128, maxSummaryLength: 512),
            allowsMixedContent: false,
            videos: .init(maxBytes: Self.maxFileBytes)
        )
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(
            isConfigured: !configuration.webhookKey.isEmpty, credential: credential, needsCredential: false, client: client)
    }

    public func rateLimits(for destination: ShareDestination) -> [RateLimit] {
        // Shares of up to two messages each must stay under 20 messages a minute.
        [RateLimit(Self.messagesPerMinute / 2, per: .seconds(60))]
    }

    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 {
        // Each message is one JSON body; a picture goes as base64 (4/3 of its bytes); a video is uploaded as it is.
        Int64(Self.messages(for: content).reduce(0) { $0 + $1.encoded().count } + (content.video?.byteCount ?? 0))
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        guard destination == .session else { throw .unknownTarget(ShareTarget(provider: id, destination: destination, displayName: displayName)) }
        try validate(content, for: destination)
        let key = configuration.webhookKey
        do throws(ShareError) {
            var messages = Self.messages(for: content)
            if let video = content.video {
                // Uploading keeps nothing that lasts (WeCom drops it after three days): retried as any upload is.
                let mediaID = try await uploadFile(video)
                messages.insert(["msgtype": "file", "file": ["media_id": .string(mediaID)]], at: 0)
            }
            client.log.log(ServiceLogRecord(.info, "wecom: sending \(messages.count) message(s) to the group"))
            return try await MessageSequence.post(messages, via: Sender(provider: self)).redacting([key])
        } catch {
            throw error.redacting([key])
        }
    }

    /// The webhook messages for `content`, in the order they are sent.
    static func messages(for content: PreparedContent) -> [JSONValue] {
        var messages: [JSONValue] = []
        for image in content.images {
            messages.append([
                "msgtype": "image", "image": ["base64": .string(Data(image.bytes).base64EncodedString()), "md5": .string(md5Hex(image.bytes))],
            ])
        }
        if let text = content.text, !text.isEmpty {
            messages.append(["msgtype": "text", "text": ["content": .string(text)]])
        }
        if let link = content.link {
            let bytes = TextCounting.utf8Bytes
            var article: [String: JSONValue] = [
                "title": .string(bytes.truncate(link.title.flatMap { $0.isEmpty ? nil : $0 } ?? link.url.absoluteString, to: 128)),
                "url": .string(link.url.absoluteString),
            ]
            if let summary = link.summary { article["description"] = .string(bytes.truncate(summary, to: 512)) }
            messages.append(["msgtype": "news", "news": ["articles": [.object(article)]]])
        }
        return messages
    }

    /// Sends webhook messages.
    struct Sender: MessageSender {
        let provider: WeComWebhookProvider
        func send(_ message: JSONValue) async throws(ShareError) -> ShareOutcome { try await provider.send(message) }
    }

    fileprivate func send(_ message: JSONValue) async throws(ShareError) -> ShareOutcome {
        let url = configuration.apiBase.appending(path: "cgi-bin/webhook/send").appendingQuery([("key", configuration.webhookKey)])
        switch try await client.publishForShare(.json(url, message, idempotent: false)) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response):
            // The robot's 45009 is its 20-a-minute limit, not an account's daily quota.
            return try TencentAnswer.outcome(ofPublished: response, provider: id, step: "webhook/send", now: client.clock.now, quotaWindow: .seconds(60))
        }
    }

    /// Uploads a video as a file (`webhook/upload_media?type=file`) and returns its `media_id`.
    func uploadFile(_ video: PreparedContent.Video) async throws(ShareError) -> String {
        var form = MultipartForm()
        try form.addVideo("media", video, maxBytes: Self.maxFileBytes)
        let url = configuration.apiBase.appending(path: "cgi-bin/webhook/upload_media").appendingQuery([
            ("key", configuration.webhookKey), ("type", "file"),
        ])
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body, timeout: .seconds(120), isIdempotent: true,
            deadline: .seconds(600), maxResponseBytes: 64 << 10)
        let response = try await client.sendForShare(request)
        let json = try TencentAnswer.check(response, provider: id, step: "webhook/upload_media", now: client.clock.now)
        guard let mediaID = json["media_id"]?.stringValue, !mediaID.isEmpty, mediaID.utf8.count <= 512 else {
            throw .server(status: response.status, message: "webhook/upload_media: the answer has no media_id")
        }
        return mediaID
    }

    /// The MD5 of `bytes` in lowercase hex (the webhook checks pictures with it).
    static func md5Hex(_ bytes: [UInt8]) -> String { Digest.hex(bytes, .md5) }
}
