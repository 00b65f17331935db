public import Foundation
public import ShareKit

/// A music video card played in WeChat's own player (`WXMusicVideoObject`,
/// OpenSDK 1.9 and later): the song's page and stream, its singer and the
/// details the player shows. To a chat or Moments.
///
/// The limits differ by platform (``limits(on:)``): both require
/// `musicUrl`, `musicDataUrl` and `singerName` (URLs 10 KB, names 1 KB,
/// lyrics 32 KB); the HD album picture is 1 MB inline on iOS
/// (`WXApiObject.h`) and a file of up to 10 MB on Android, where the
/// title is required too (OpenSDK 6.8.0's `checkArgs`).
///
/// ```swift
/// let song = WeChatMusicVideo(
///     musicURL: URL(string: "https://music.example.com/song/7")!,
///     musicDataURL: URL(string: "https://cdn.example.com/7.mp3")!,
///     singerName: "Singer", card: WeChatCard(title: "Song"))
/// ```
public struct WeChatMusicVideo: Hashable, Sendable {
    /// The song's web page (`musicUrl`): required.
    public var musicURL: URL
    /// The audio stream (`musicDataUrl`): required.
    public var musicDataURL: URL
    /// The singer (`singerName`): required.
    public var singerName: String
    /// The song's length (`duration`, whole milliseconds in a 32-bit integer).
    public var duration: Duration?
    /// The lyrics, LRC text (`songLyric`).
    public var lyric: String?
    /// The album picture the player shows (`hdAlbumThumbData`).
    public var hdAlbumThumbnail: [UInt8]?
    /// The album (`albumName`).
    public var albumName: String?
    /// The genre (`musicGenre`).
    public var genre: String?
    /// The release date (`issueDate`, seconds since 1970).
    public var issueDate: Date?
    /// The app's identifier of the song (`identification`).
    public var identification: String?
    /// The page the player's button opens (`musicOperationUrl`).
    public var operationURL: URL?
    /// What WeChat hands back when the user returns from its player (`WXMediaMessage.messageExt`).
    public var messageExt: String?
    /// The title, description and thumbnail.
    public var card: WeChatCard

    /// Creates a music video card.
    public init(
        musicURL: URL, musicDataURL: URL, singerName: String, duration: Duration? = nil, lyric: String? = nil, hdAlbumThumbnail: [UInt8]? = nil,
        albumName: String? = nil, genre: String? = nil, issueDate: Date? = nil, identification: String? = nil, operationURL: URL? = nil,
        messageExt: String? = nil, card: WeChatCard = WeChatCard()
    ) {
        self.musicURL = musicURL
        self.musicDataURL = musicDataURL
        self.singerName = singerName
        self.duration = duration
        self.lyric = lyric
        self.hdAlbumThumbnail = hdAlbumThumbnail
        self.albumName = albumName
        self.genre = genre
        self.issueDate = issueDate
        self.identification = identification
        self.operationURL = operationURL
        self.messageExt = messageExt
        self.card = card
    }

    /// The object's limits on `platform`, in the order of its fields
    /// (``WeChatRules/musicVideo``), and its card's: Android requires the
    /// title and takes the album picture as a file of up to 10 MB; iOS takes
    /// it inline, up to 1 MB, and caps `albumName` at 1 KB.
    public static func limits(on platform: AppPlatform) -> [FieldLimit] {
        let rules = WeChatRules.on(platform)
        return rules.musicVideo + WeChatCard.limits(on: platform, titleRequired: rules.musicVideoNeedsTitle)
    }

    /// `duration` in the SDK's unit (whole milliseconds), or `nil` when
    /// there is none or it does not fit a 32-bit integer.
    public var durationMilliseconds: Int32? {
        guard let duration else { return nil }
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return nil }
        let total = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        guard !total.overflow, total.partialValue >= 0, total.partialValue <= Int64(Int32.max) else { return nil }
        return Int32(total.partialValue)
    }
}

extension WeChatMusicVideo: WeChatCheckedObject {
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)] {
        let values: [WeChatFieldValue] = [
            .url(musicURL), .url(musicDataURL), .text(singerName), .text(lyric), .data(hdAlbumThumbnail?.count), .text(albumName), .text(genre),
            .text(identification), .url(operationURL), .text(messageExt),
        ]
        return zip(rules.musicVideo, values).map { ($0, $1) } + card.checkedFields(on: rules, titleRequired: rules.musicVideoNeedsTitle)
    }

    var otherViolations: [ConstraintViolation] {
        var found = WeChatFieldCheck.webURL(musicURL, field: "WXMusicVideoObject.musicUrl")
        found += WeChatFieldCheck.webURL(musicDataURL, field: "WXMusicVideoObject.musicDataUrl")
        found += WeChatFieldCheck.webURL(operationURL, field: "WXMusicVideoObject.musicOperationUrl")
        if duration != nil && durationMilliseconds == nil {
            found.append(.fieldInvalid(field: "WXMusicVideoObject.duration", reason: "whole milliseconds from 0 to \(Int32.max)"))
        }
        if let issueDate, !(0...Double(Int64.max / 2)).contains(issueDate.timeIntervalSince1970) {
            found.append(.fieldInvalid(field: "WXMusicVideoObject.issueDate", reason: "a date after 1970"))
        }
        return found
    }
}
