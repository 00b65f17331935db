import Foundation
import ServiceKit
import ShareKit
import SystemSupport

extension WeChatOfficialAccountProvider {
    /// WeChat's answer to a `clientmsgid` it has seen in the last 24 hours:
    /// the broadcast went out before, so this one is not sent again.
    static let duplicateClientMessageID = 45065

    /// Broadcasts `content` (`message/mass/sendall`): pictures are uploaded
    /// as permanent image material first (each upload sent once: it stores
    /// an item and spends quota, so a lost answer ends the share as
    /// "outcome unknown" before anything is broadcast), then one request
    /// sends. Its `clientmsgid` comes from the content and the
    /// audience, so when the answer is lost the request is sent once more,
    /// safely: WeChat either sends it then or answers that it already has.
    func broadcast(_ content: PreparedContent, to audience: BroadcastAudience, token: String) async throws(ShareError) -> ShareOutcome {
        if content.images.isEmpty, (content.text ?? "").isEmpty { throw .invalidContent([.emptyContent]) }
        var mediaIDs: [String] = []
        for (index, image) in content.images.enumerated() {
            switch try await uploadPermanent(image, type: "image", token: token) {
            case .stored(let id): mediaIDs.append(id)
            case .unknown(let reason):
                return .outcomeUnknown(reason: "nothing was broadcast; picture \(index + 1) of \(content.images.count): \(reason)")
            }
        }
        let body = Self.broadcastBody(content, to: audience, mediaIDs: mediaIDs)
        client.log.log(ServiceLogRecord(.info, "wechat-oa: broadcasting \(content.images.isEmpty ? "text" : "\(content.images.count) picture(s)")"))
        let request = HTTPRequest.json(endpoint("cgi-bin/message/mass/sendall", token: token), body, idempotent: false)
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

    /// The `message/mass/sendall` document: text alone, or the pictures'
    /// media ids with the text as the recommendation; its `clientmsgid`
    /// comes from the content and the audience.
    static func broadcastBody(_ content: PreparedContent, to audience: BroadcastAudience, mediaIDs: [String]) -> JSONValue {
        var body: [String: JSONValue] = ["filter": filter(for: audience)]
        if mediaIDs.isEmpty {
            body["msgtype"] = "text"
            body["text"] = ["content": .string(content.text ?? "")]
        } else {
            body["msgtype"] = "image"
            body["images"] = [
                "media_ids": .array(mediaIDs.map(JSONValue.string)), "recommend": .string(content.text ?? ""), "need_open_comment": 0,
                "only_fans_can_comment": 0,
            ]
        }
        body["clientmsgid"] = .string(clientMessageID(for: content, audience: audience))
        return .object(body)
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
