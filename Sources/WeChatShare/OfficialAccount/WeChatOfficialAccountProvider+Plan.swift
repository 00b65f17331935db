import Foundation
import ServiceKit
public import ShareKit

extension WeChatOfficialAccountProvider {
    /// Stand-ins for what WeChat answers (a media id, a picture URL, a job
    /// id), at least as long as WeChat's: a plan built with them is never
    /// shorter than the requests really sent.
    static let plannedMediaID = String(repeating: "m", count: 128)
    static let plannedPictureURL = String(repeating: "u", count: 512)

    /// Every request body of the share, overhead included, built as the
    /// share builds them (answers stood in for by the longest they can be),
    /// so the progress total announced first is the share's total.
    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 {
        func upload(_ image: PreparedContent.Image) -> Int { Self.uploadForm(image).byteCount }
        let media = Self.plannedMediaID
        var bytes = 0
        switch destination {
        case .message:
            let recipient = configuration.messageRecipient ?? ""
            for message in Self.followerMessages(for: content) {
                switch message {
                case .image(let image): bytes += upload(image) + Self.imageMessage(to: recipient, mediaID: media).encoded().count
                case .text(let text): bytes += Self.textMessage(to: recipient, text).encoded().count
                case .video(let video):
                    // The thumb, the video with its form's overhead (a few hundred bytes), the message.
                    bytes += (video.thumbnail.map(upload) ?? 0) + video.byteCount + 1_024
                    bytes += Self.videoMessage(to: recipient, mediaID: media, thumbID: media).encoded().count
                }
            }
        case .article:
            bytes += content.images.reduce(0) { $0 + upload($1) } + (content.thumbnail.map(upload) ?? 0)
            let pictures = Array(repeating: Self.plannedPictureURL, count: content.images.count)
            bytes += Self.draft(content, pictures: pictures, coverID: media).encoded().count
            bytes += Self.submission(media).encoded().count
            bytes += max(1, configuration.publishPolls) * Self.publishQuery(media).encoded().count
        case .broadcast:
            bytes += content.images.reduce(0) { $0 + upload($1) }
            let audience = configuration.broadcastAudience ?? .allFollowers
            bytes += Self.broadcastBody(content, to: audience, mediaIDs: content.images.map { _ in media }).encoded().count
        default:
            break
        }
        return Int64(bytes)
    }
}
