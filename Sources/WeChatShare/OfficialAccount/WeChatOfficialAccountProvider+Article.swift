import Foundation
import ServiceKit
import ShareKit

extension WeChatOfficialAccountProvider {
    func publishArticle(_ content: PreparedContent, token: String) async throws(ShareError) -> ShareOutcome {
        guard let thumbnail = content.thumbnail else {
            throw .invalidContent([.thumbnailUnavailable("a WeChat article needs a cover: share at least one picture or a link thumbnail")])
        }
        let text = content.text ?? ""
        let title = content.link?.title.flatMap { $0.isEmpty ? nil : $0 } ?? TextCounting.characters.truncate(Self.firstLine(of: text), to: 32)
        client.log.log(ServiceLogRecord(.info, "wechat-oa: publishing an article with \(content.images.count) picture(s)"))
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
        let draft = try await client.sendForShare(.json(endpoint("cgi-bin/draft/add", token: token), ["articles": [.object(article)]], idempotent: true))
        let draftID = try requiredString(TencentAnswer.check(draft, provider: id, step: "draft/add", now: client.clock.now), "media_id", step: "draft/add")

        let submitted: HTTPResponse
        switch try await client.publishForShare(.json(endpoint("cgi-bin/freepublish/submit", token: token), ["media_id": .string(draftID)], idempotent: false))
        {
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

    /// Reads the publish job's status until WeChat says it finished, or gives up with "outcome unknown".
    private func pollPublish(_ publishID: String, token: String) async throws(ShareError) -> ShareOutcome {
        var lastReason = "WeChat is still publishing"
        for attempt in 0..<max(1, configuration.publishPolls) {
            if attempt > 0 {
                do { try await client.clock.sleep(for: configuration.publishPollInterval) } catch { break }
            }
            do throws(ShareError) {
                let response = try await client.sendForShare(
                    .json(endpoint("cgi-bin/freepublish/get", token: token), ["publish_id": .string(publishID)], idempotent: true))
                let json = try TencentAnswer.check(response, provider: id, step: "freepublish/get", now: client.clock.now)
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
