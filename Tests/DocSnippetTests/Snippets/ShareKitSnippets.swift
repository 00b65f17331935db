// The ShareKit code samples of the README and the doc comments, compiled.

import Foundation
import ShareKit
import WeChatShare

/// A provider's shape, for the samples that show what a provider writes.
struct SnippetProvider {
    let appKey: String
    let client: ProviderHTTPClient
    let monitor: (any NetworkMonitor)?

    func availability(credential: Credential?) async -> ProviderAvailability {
        await .assess(isConfigured: !appKey.isEmpty, credential: credential, clock: client.clock, network: monitor)
    }

    func parse(_ response: HTTPResponse) throws(ShareError) -> ShareOutcome { .posted(ShareReceipt()) }

    func parseMediaID(_ response: HTTPResponse) throws(ShareError) -> String { response.text }

    func postRequest(_ mediaID: String) -> HTTPRequest {
        HTTPRequest(method: "POST", url: URL(string: "https://api.example.com/post")!, body: Array(mediaID.utf8))
    }

    func post(uploadRequest: HTTPRequest) async throws(ShareError) -> ShareOutcome {
        let upload = try await client.send(uploadRequest)  // retried on 5xx, timeouts
        let mediaID = try parseMediaID(upload)
        switch try await client.publish(postRequest(mediaID)) {  // sent once
        case .answered(let response): return try parse(response)
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        }
    }
}

extension ShareDestination { static let story = ShareDestination("story") }

enum ShareKitSnippets {
    static func readme(tokensPath: String, myProvider: any ShareProvider, jpegBytes: [UInt8]) async throws {
        let center = ShareCenter(credentials: FileCredentialStore(path: tokensPath))  // 0600, atomic writes
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

    static func progress(transport: any HTTPTransport, upload: HTTPRequest) async throws {
        let reporter = ShareProgress.Reporter { sent, total in print("\(sent)/\(total)") }
        let response = try await ShareProgress.$reporter.withValue(reporter) { try await transport.send(upload) }
        _ = response
    }

    static func logging() {
        struct PrintLog: ShareLogHandler {
            func log(_ record: ShareLogRecord) { print(record) }
        }
        let transport = URLSessionTransport().logging(to: PrintLog())
        _ = transport
    }

    static func counting() -> Int {
        TextCounter(.weibo).length(of: "你好 world")  // 2 + 6/2 = 5
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
        _ = request
    }

    static func urlEncoded(code: String, tokenURL: URL) {
        let form = URLEncodedForm([("grant_type", "authorization_code"), ("code", code)])
        let request = HTTPRequest(method: "POST", url: tokenURL, headers: ["Content-Type": URLEncodedForm.contentType], body: form.body)
        _ = request
    }

    static func outbox(support: String, center: ShareCenter, content: ShareContent, target: ShareTarget) async throws {
        let outbox = try Outbox(path: "\(support)/outbox.sqlite", center: center)
        let id = try await outbox.enqueue(content, to: target)
        await outbox.process()  // call when the app starts, comes online, or re-authorises
        _ = id
    }
}

extension ShareKitSnippets {
    /// README: "A first app, one module at a time".
    static func firstApp(robotKey: String, jpegBytes: [UInt8]) async throws {
        let center = ShareCenter()
        await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey)))
        let content = ShareContent(text: "Team photo", images: [.encoded(jpegBytes)])
        if let target = await center.targets(for: content).first {
            print(try await center.share(content, to: target))  // .posted(receipt) or .outcomeUnknown(reason:)
        }
    }
}
