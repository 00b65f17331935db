// The ShareKit code samples of the README and the doc comments, compiled.

import Foundation
import ImageCodecs
import ServiceKit
import ShareKit
import ShareMedia
import WeChatShare
import WeiboKit

/// A provider's shape, for the samples that show what a provider writes.
struct SnippetProvider {
    let appKey: String
    let client: ServiceClient

    func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(isConfigured: !appKey.isEmpty, credential: credential, client: client)
    }

    func parse(_ response: HTTPResponse) throws(ShareError) -> ShareOutcome { .posted(ShareReceipt()) }

    func parseMediaID(_ response: HTTPResponse) throws(ShareError) -> String { response.text }

    func postRequest(_ mediaID: String) -> HTTPRequest {
        HTTPRequest(method: "POST", url: URL(string: "https://api.example.com/post")!, body: Array(mediaID.utf8))
    }

    /// ServiceKit's sample: the client's own errors (`TransportError`) pass through.
    func post(uploadRequest: HTTPRequest) async throws -> ShareOutcome {
        let upload = try await client.send(uploadRequest)  // retried on 5xx, timeouts
        let mediaID = try parseMediaID(upload)
        switch try await client.publish(postRequest(mediaID)) {  // sent once
        case .answered(let response): return try parse(response)
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        }
    }
}

extension SnippetProvider {
    /// ShareKit's sample: a provider turns a transport failure into its share error once.
    func upload(_ request: HTTPRequest) async throws(ShareError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await client.send(request)
        } catch {
            throw ShareError(error, sending: request)
        }
        return response
    }
}

extension ShareDestination { static let story = ShareDestination("story") }

enum ShareKitSnippets {
    static func readme(tokensPath: String, myProvider: any ShareProvider, jpegBytes: [UInt8]) async throws {
        let center = ShareCenter(credentials: FileCredentialStore(path: tokensPath), adapter: .media)  // 0600, atomic writes
        await center.register(myProvider)  // returns a token that unregisters
        let content = ShareContent(text: "Sunset 🌅", images: [.encoded(jpegBytes)])
        let targets = await center.targets(for: content)  // what a share sheet shows, stable order
        let operation = await center.startShare(content, to: targets[0])
        for await event in operation.events { print(event) }  // preparing, uploading(sent:total:), finished
    }

    static func center(tokensPath: String, robotKey: String, content: ShareContent) async throws {
        let center = ShareCenter(credentials: FileCredentialStore(path: tokensPath))
        let registration = await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey)))
        let targets = await center.targets(for: content)  // what a share sheet shows
        let outcome = try await center.share(content, to: targets[0])
        await registration.unregister()
        _ = outcome
    }

    static func progress(body: [UInt8]) {
        let request = UUID()
        TransferProgress.report(request: request, sent: 0, total: Int64(body.count))
        // ... as the body goes out ...
        TransferProgress.report(request: request, sent: Int64(body.count), total: Int64(body.count))
    }

    static func logging() {
        struct PrintLog: ServiceLogHandler {
            func log(_ record: ServiceLogRecord) { print(record) }
        }
        let transport = CurlTransport().logging(to: PrintLog())
        _ = transport
    }

    static func counting() -> Int {
        TextCounting.weibo.length(of: "你好 world")  // 2 + 6/2 = 5
    }

    static func content(jpegBytes: [UInt8]) {
        let content = ShareContent(text: "Sunset at the pier 🌅", images: [.encoded(jpegBytes)])
        _ = content
    }

    static func json(response: HTTPResponse) throws {
        let answer = try JSONValue(parsing: response.body)
        let code = answer["errcode"]?.intValue  // 42001, or nil
        let url = answer["article_detail"]?["item"]?[0]?["article_url"]?.stringValue
        _ = (code, url)
    }

    static func multipart(jpeg: [UInt8], url: URL) {
        var form = MultipartForm()
        form.addField("status", "Hello")
        form.addFile("pic", filename: "photo.jpg", contentType: "image/jpeg", data: jpeg)
        let request = HTTPRequest(method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body)
        let parts = MultipartForm.parts(of: request.body, contentType: form.contentType) ?? []
        let status = parts.first { $0.name == "status" }.map { String(decoding: $0.data, as: UTF8.self) }
        _ = status
    }

    static func urlEncoded(code: String, tokenURL: URL) {
        let form = URLEncodedForm([("grant_type", "authorization_code"), ("code", code)])
        let request = HTTPRequest(method: "POST", url: tokenURL, headers: ["Content-Type": URLEncodedForm.contentType], body: form.body)
        _ = request
    }

    static func outbox(support: String, center: ShareCenter, content: ShareContent, target: ShareTarget) async throws {
        let outbox = try await Outbox.open(path: "\(support)/outbox.sqlite", center: center)
        let id = try await outbox.enqueue(content, to: target)
        await outbox.process()  // call when the app starts, comes online, or re-authorises
        _ = id
    }
}

extension ShareKitSnippets {
    /// ContentAdapter.
    static func adapters(adapter: some ContentAdapter, caption: String, constraints: ShareConstraints) async throws {
        let center = ShareCenter(adapter: .media)  // MediaContentAdapter()
        let prepared = try await adapter.prepare(ShareContent(text: caption), for: constraints)
        print(prepared.adjustments)  // ["shortened the text to fit 140 characters"]
        _ = center
    }

    /// TextContentAdapter.
    static func textAdapter(longCaption: String, constraints: ShareConstraints) async throws {
        let prepared = try await TextContentAdapter().prepare(ShareContent(text: longCaption), for: constraints)
        _ = prepared
    }

    /// MediaContentAdapter.
    static func mediaAdapter(store: any CredentialStore, myRegistry: ImageCodecRegistry) {
        let center = ShareCenter(credentials: store, adapter: .media)
        _ = center
    }

    /// MediaContentAdapter, tuned.
    static func tunedMediaAdapter(store: any CredentialStore, myRegistry: ImageCodecRegistry) {
        let adapter = MediaContentAdapter(minimumQuality: 60, registry: myRegistry)  // formats you registered, kept sharper
        let center = ShareCenter(credentials: store, adapter: adapter)
        _ = center
    }

    /// README: "A first app, one module at a time".
    static func firstApp(robotKey: String, jpegBytes: [UInt8]) async throws {
        let center = ShareCenter(adapter: .media)
        await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey)))
        let content = ShareContent(text: "Team photo", images: [.encoded(jpegBytes)])
        if let target = await center.targets(for: content).first {
            print(try await center.share(content, to: target))  // .posted(receipt) or .outcomeUnknown(reason:)
        }
    }
}

extension ShareKitSnippets {
    static func rateLimit() -> RateLimit {
        let limit = RateLimit(30, per: .seconds(3_600), scope: .account)
        return limit
    }

    static func windows() -> [RateLimit] {
        let weiboPosts = RateLimit(30, per: .seconds(3_600), scope: .account)
        let broadcasts = RateLimit(4, per: .calendarMonth(utcOffsetSeconds: 8 * 3_600), scope: .account)
        return [weiboPosts, broadcasts]
    }

    struct TooSoon: Error {
        let wait: Duration
        init(_ wait: Duration) { self.wait = wait }
    }

    static func ledger(support: String, uid: String) async throws {
        let ledger = FileRateLimitLedger(path: "\(support)/sent.json")
        let posts = RateLimitCheck(key: "weibo/timeline@\(uid)", limits: [RateLimit(30, per: .seconds(3_600), scope: .account)])
        if let wait = try await ledger.reserve([posts], at: Date()) { throw TooSoon(wait) }
    }

    static func fileLedger(store: any CredentialStore, dataHome: String) -> ShareCenter {
        let center = ShareCenter(credentials: store, rateLimitLedger: FileRateLimitLedger(path: "\(dataHome)/sent.json"))
        return center
    }

    static func reach(monitor: LinuxNetworkMonitor, api: WeiboAPI, showCache: () -> Void) async {
        if await monitor.canReach(api.base.host ?? "") == false { showCache() }
    }

    static func cause(_ error: ShareError, offerToRetry: () -> Void) {
        if case .network(let cause) = error, cause.error as? TransportError == .timedOut {
            offerToRetry()
        }
        print(error)  // "the network failed: GET /token: the request timed out"
    }

    static func linuxMonitor() async {
        let monitor = LinuxNetworkMonitor()
        for await path in monitor.pathUpdates() { print("now on", path) }
    }

    static func systemMonitor(outbox: Outbox) async {
        let monitor = NetworkMonitors.system
        for await path in monitor.pathUpdates() where path != .unreachable { await outbox.process() }
    }

    static func monitorUpdates(monitor: any NetworkMonitor, outbox: Outbox) async {
        for await path in monitor.pathUpdates() where path != .unreachable {
            await outbox.process()
        }
    }

    static func outboxOnReconnect(support: String, center: ShareCenter, content: ShareContent, target: ShareTarget) async throws {
        let outbox = try await Outbox.open(path: "\(support)/outbox.sqlite", center: center, network: NetworkMonitors.system)
        let id = try await outbox.enqueue(content, to: target)
        await outbox.process()  // call when the app starts or re-authorises
        let sender = Task { await outbox.sendWhenReachable() }  // and whenever the network comes back
        _ = (id, sender)
    }

    static func violations(constraints: ShareConstraints, caption: String, askForAShorterCaption: () -> Void) {
        let problems = constraints.violations(of: ShareContent(text: caption, textOverflow: .refuse))
        if problems.contains(where: { if case .textTooLong = $0 { true } else { false } }) { askForAShorterCaption() }
    }
}

/// A provider that checks prepared content against its own rules before
/// sending (`ShareProvider.validate(_:for:)`).
struct SnippetValidatingProvider: ShareProvider {
    var id: ProviderID { "snippet" }
    var displayName: String { "Snippet" }
    var destinations: [ShareDestination] { [.timeline] }

    func constraints(for destination: ShareDestination) -> ShareConstraints? {
        ShareConstraints(text: .init(maxLength: 10), images: nil)
    }

    func availability(credential: Credential?) async -> ProviderAvailability {
        ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true)
    }

    func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        try validate(content, for: destination)
        return try await send(content)
    }

    func send(_ content: PreparedContent) async throws(ShareError) -> ShareOutcome { .posted(ShareReceipt()) }
}

extension ShareKitSnippets {
    @Sendable static func show(_ received: Int64, of expected: Int64) {}

    static func receiving(transport: any HTTPTransport, request: HTTPRequest) async throws {
        let reporter = TransferProgress.Reporter { _, received, expected in show(received, of: expected) }
        let response = try await TransferProgress.$receiving.withValue(reporter) { try await transport.send(request) }
        _ = response
    }
}
