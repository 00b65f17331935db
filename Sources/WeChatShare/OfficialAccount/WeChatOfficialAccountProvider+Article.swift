import Foundation
import ServiceKit
import ShareKit

extension WeChatOfficialAccountProvider {
    func publishArticle(_ content: PreparedContent, token: String) async throws(ShareError) -> ShareOutcome {
        guard let thumbnail = content.thumbnail else {
            throw .invalidContent([.thumbnailUnavailable("a WeChat article needs a cover: share at least one picture or a link thumbnail")])
        }
        client.log.log(ServiceLogRecord(.info, "wechat-oa: publishing an article with \(content.images.count) picture(s)"))
        var pictureURLs: [String] = []
        for image in content.images {
            // A picture URL for the body creates no material: safe to retry.
            pictureURLs.append(try await upload(image, to: "cgi-bin/media/uploadimg", type: nil, token: token, resultKey: "url"))
        }
        let coverID: String
        switch try await uploadPermanent(thumbnail, type: "thumb", token: token) {
        case .unknown(let reason): return .outcomeUnknown(reason: "the article was not published; its cover: \(reason)")
        case .stored(let id): coverID = id
        }
        // A draft is a lasting item too: sent once, never a second draft.
        let draftRequest = HTTPRequest.json(
            endpoint("cgi-bin/draft/add", token: token), Self.draft(content, pictures: pictureURLs, coverID: coverID), idempotent: false)
        let draftID: String
        switch try await client.publishForShare(draftRequest) {
        case .unknown(let reason): return .outcomeUnknown(reason: "the article was not published; its draft may have been saved: \(reason)")
        case .answered(let response):
            do throws(ShareError) {
                draftID = try requiredString(
                    TencentAnswer.check(response, provider: id, step: "draft/add", now: client.clock.now), "media_id", step: "draft/add")
            } catch {
                if case .server = error, (200..<300).contains(response.status) {
                    return .outcomeUnknown(reason: "the article was not published; its draft may have been saved: \(error)")
                }
                throw error
            }
        }

        let submitted: HTTPResponse
        switch try await client.publishForShare(.json(endpoint("cgi-bin/freepublish/submit", token: token), Self.submission(draftID), idempotent: false)) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response): submitted = response
        }
        let publishID: String
        do throws(ShareError) {
            publishID = try requiredString(
                TencentAnswer.check(submitted, provider: id, step: "freepublish/submit", now: client.clock.now), "publish_id", step: "freepublish/submit")
        } catch {
            if case .server = error, (200..<300).contains(submitted.status) { return .outcomeUnknown(reason: "\(error)") }
            throw error
        }
        return try await pollPublish(publishID, token: token)
    }

    /// The `draft/add` document of an article: its title (the link's, else
    /// the text's first line), its body, its cover.
    static func draft(_ content: PreparedContent, pictures: [String], coverID: String) -> JSONValue {
        let text = content.text ?? ""
        let title = content.link?.title.flatMap { $0.isEmpty ? nil : $0 } ?? TextCounting.characters.truncate(firstLine(of: text), to: 32)
        var article: [String: JSONValue] = [
            "title": .string(title), "content": .string(articleHTML(text: text, pictures: pictures)), "thumb_media_id": .string(coverID),
            "need_open_comment": 0,
        ]
        if let summary = content.link?.summary { article["digest"] = .string(summary) }
        if let url = content.link?.url { article["content_source_url"] = .string(url.absoluteString) }
        return ["articles": [.object(article)]]
    }

    /// The `freepublish/submit` document.
    static func submission(_ draftID: String) -> JSONValue { ["media_id": .string(draftID)] }

    /// The `freepublish/get` document.
    static func publishQuery(_ publishID: String) -> JSONValue { ["publish_id": .string(publishID)] }

    /// Reads the publish job's status until WeChat says it finished, or gives up with "outcome unknown".
    private func pollPublish(_ publishID: String, token: String) async throws(ShareError) -> ShareOutcome {
        var lastReason = "WeChat is still publishing"
        for attempt in 0..<max(1, configuration.publishPolls) {
            if attempt > 0 {
                do { try await client.clock.sleep(for: configuration.publishPollInterval) } catch { break }
            }
            do throws(ShareError) {
                let response = try await client.sendForShare(
                    .json(endpoint("cgi-bin/freepublish/get", token: token), Self.publishQuery(publishID), idempotent: true))
                let json = try TencentAnswer.check(response, provider: id, step: "freepublish/get", now: client.clock.now)
                switch json["publish_status"]?.intValue {
                case 0?:
                    let url = json["article_detail"]?["item"]?[0]?["article_url"]?.stringValue.flatMap(ServerURL.parse)
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

    /// The article title: the text's first line.
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
