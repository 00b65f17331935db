import Foundation
import ServiceKit
import ShareKit

extension WeChatOfficialAccountProvider {
    /// A follower message share's messages: the picture first (if its
    /// upload fails, nothing has been posted), then the text.
    enum FollowerMessage: Sendable {
        case image(PreparedContent.Image)
        case text(String)
        /// A video: its thumb uploaded as temporary media, the video as
        /// permanent material, then the message naming both.
        case video(PreparedContent.Video)
    }

    /// Sends messages to one follower.
    struct FollowerSender: MessageSender {
        let provider: WeChatOfficialAccountProvider
        let recipient: String
        let token: String

        func send(_ message: FollowerMessage) async throws(ShareError) -> ShareOutcome {
            switch message {
            case .image(let image):
                let mediaID = try await provider.upload(image, to: "cgi-bin/media/upload", type: "image", token: token, resultKey: "media_id")
                return try await provider.sendMessage(WeChatOfficialAccountProvider.imageMessage(to: recipient, mediaID: mediaID), token: token)
            case .text(let text):
                return try await provider.sendMessage(WeChatOfficialAccountProvider.textMessage(to: recipient, text), token: token)
            case .video(let video):
                guard let thumb = video.thumbnail else { throw .invalidContent([.thumbnailUnavailable("a video message needs its thumb")]) }
                // The thumb is temporary media; WeChat answers its id as thumb_media_id, not media_id.
                let thumbID = try await provider.upload(thumb, to: "cgi-bin/media/upload", type: "thumb", token: token, resultKey: "thumb_media_id")
                switch try await provider.uploadPermanentVideo(video, title: "Video", token: token) {
                case .unknown(let reason): return .outcomeUnknown(reason: reason)
                case .stored(let mediaID):
                    return try await provider.sendMessage(
                        WeChatOfficialAccountProvider.videoMessage(to: recipient, mediaID: mediaID, thumbID: thumbID), token: token)
                }
            }
        }
    }

    /// The `message/custom/send` document of a picture.
    static func imageMessage(to recipient: String, mediaID: String) -> JSONValue {
        ["touser": .string(recipient), "msgtype": "image", "image": ["media_id": .string(mediaID)]]
    }

    /// The `message/custom/send` document of a video.
    static func videoMessage(to recipient: String, mediaID: String, thumbID: String) -> JSONValue {
        ["touser": .string(recipient), "msgtype": "video", "video": ["media_id": .string(mediaID), "thumb_media_id": .string(thumbID)]]
    }

    /// The `message/custom/send` document of a text.
    static func textMessage(to recipient: String, _ text: String) -> JSONValue {
        ["touser": .string(recipient), "msgtype": "text", "text": ["content": .string(text)]]
    }

    /// A share's messages: each picture (or the video), then the text.
    static func followerMessages(for content: PreparedContent) -> [FollowerMessage] {
        var messages = content.images.map(FollowerMessage.image)
        if let video = content.video { messages.append(.video(video)) }
        if let text = content.text, !text.isEmpty { messages.append(.text(text)) }
        return messages
    }

    func sendToFollower(_ content: PreparedContent, recipient: String, token: String) async throws(ShareError) -> ShareOutcome {
        let messages = Self.followerMessages(for: content)
        client.log.log(ServiceLogRecord(.info, "wechat-oa: sending \(messages.count) message(s) to a follower"))
        return try await MessageSequence.post(messages, via: FollowerSender(provider: self, recipient: recipient, token: token))
    }

    fileprivate func sendMessage(_ message: JSONValue, token: String) async throws(ShareError) -> ShareOutcome {
        let request = HTTPRequest.json(endpoint("cgi-bin/message/custom/send", token: token), message, idempotent: false)
        switch try await client.publishForShare(request) {
        case .unknown(let reason): return .outcomeUnknown(reason: reason)
        case .answered(let response):
            return try TencentAnswer.outcome(ofPublished: response, provider: id, step: "message/custom/send", now: client.clock.now)
        }
    }
}
