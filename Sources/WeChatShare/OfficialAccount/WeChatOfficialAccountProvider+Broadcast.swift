import Foundation
import ServiceKit
import ShareKit
import SystemSupport

extension WeChatOfficialAccountProvider {
    /// WeChat's answer to a `clientmsgid` it has seen in the last 24 hours:
    /// the broadcast went out before, so this one is not sent again.
    static let duplicateClientMessageID = 45065

    /// Broadcasts `content` (`message/mass/sendall`): pictures are uploaded
    /// as permanent image material first (an upload posts nothing), then
    /// one request sends. Its `clientmsgid` comes from the content and the
    /// audience, so when the answer is lost the request is sent once more,
    /// safely: WeChat either sends it then or answers that it already has.
    func broadcast(_ content: PreparedContent, to audience: BroadcastAudience, token: String) async throws(ShareError) -> ShareOutcome {
        var body: [String: JSONValue] = ["filter": Self.filter(for: audience)]
        if content.images.isEmpty {
            guard let text = content.text, !text.isEmpty else { throw .invalidContent([.emptyContent]) }
            body["msgtype"] = "text"
            body["text"] = ["content": .string(text)]
        } else {
            var mediaIDs: [JSONValue] = []
            for image in content.images {
                let id = try await upload(image, to: "cgi-bin/material/add_material", type: "image", token: token, resultKey: "media_id")
                mediaIDs.append(.string(id))
            }
            body["msgtype"] = "image"
            body["images"] = [
                "media_ids": .array(mediaIDs), "recommend": .string(content.text ?? ""), "need_open_comment": 0, "only_fans_can_comment": 0,
            ]
        }
        body["clientmsgid"] = .string(Self.clientMessageID(for: content, audience: audience))
        client.log.log(ServiceLogRecord(.info, "wechat-oa: broadcasting \(content.images.isEmpty ? "text" : "\(content.images.count) picture(s)")"))
        let request = HTTPRequest.json(endpoint("cgi-bin/message/mass/sendall", token: token), .object(body), idempotent: false)
        var lostAnswer = ""
        for attempt in 1...2 {
            switch try await client.publishForShare(request) {
            case .unknown(let reason):
                lostAnswer = reason
                client.log.log(ServiceLogRecord(.warning, "wechat-oa: broadcast answer lost (attempt \(attempt)); the clientmsgid makes a second send safe"))
            case .answered(let response):
                if TencentAnswer.errorCode(of: response) == Self.duplicateClientMessageID {
                    return .posted(ShareReceipt(postID: nil))
                }
                return try TencentAnswer.outcome(ofPublished: response, provider: id, step: "message/mass/sendall", now: client.clock.now) { json in
                    ShareReceipt(postID: json["msg_id"]?.stringValue ?? json["msg_id"]?.intValue.map(String.init))
                }
            }
        }
        return .outcomeUnknown(reason: "the broadcast's answer was lost twice: \(lostAnswer)")
    }

    /// `{"is_to_all": true}` or `{"is_to_all": false, "tag_id": N}`.
    static func filter(for audience: BroadcastAudience) -> JSONValue {
        switch audience {
        case .allFollowers: ["is_to_all": .bool(true)]
        case .tag(let tag): ["is_to_all": .bool(false), "tag_id": .number(Double(tag))]
        }
    }

    /// 32 hex digits of the SHA-256 of the text, the pictures and the
    /// audience (WeChat takes up to 64 bytes): the same share always has
    /// the same `clientmsgid`.
    static func clientMessageID(for content: PreparedContent, audience: BroadcastAudience) -> String {
        var bytes = Array((content.text ?? "").utf8) + [0]
        for image in content.images { bytes += Array(Digest.sha256Hex(image.bytes).utf8) + [0] }
        bytes += Array(filter(for: audience).encoded())
        return String(Digest.sha256Hex(bytes).prefix(32))
    }
}
