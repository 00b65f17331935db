public import Foundation

/// The sizes Weibo's picture servers (`wx1.sinaimg.cn` …) make of every
/// picture, named by the first part of the picture's path:
/// `https://wx1.sinaimg.cn/thumbnail/PID.jpg`, `…/orj360/PID.jpg`,
/// `…/bmiddle/PID.jpg`, `…/large/PID.jpg`. A post lists its pictures in
/// one size (`pic_urls` holds thumbnails); any other is the same URL with
/// that part replaced.
///
/// ```swift
/// // The pictures of a post for a 390-point-wide screen at 3x:
/// let urls = post.pictures.map { WeiboPictureSize.fitting(width: 1170).url(of: $0) }
/// ```
///
/// The widths are the largest each size is made at (a narrower picture is
/// not enlarged); `large` is the picture as uploaded.
public enum WeiboPictureSize: String, Hashable, Sendable, CaseIterable, Comparable {
    /// At most 120 pixels wide: a timeline's grid cell.
    case thumbnail
    /// At most 360 pixels wide, in its own proportions: a single picture in a timeline.
    case orj360
    /// At most 440 pixels wide: the classic medium size.
    case bmiddle
    /// At most 690 pixels wide.
    case mw690
    /// At most 1024 pixels wide.
    case mw1024
    /// At most 2000 pixels wide.
    case mw2000
    /// As uploaded.
    case large

    /// The widest this size is made, in pixels; `nil` for ``large`` (as uploaded).
    public var maxWidth: Int? {
        switch self {
        case .thumbnail: 120
        case .orj360: 360
        case .bmiddle: 440
        case .mw690: 690
        case .mw1024: 1024
        case .mw2000: 2000
        case .large: nil
        }
    }

    public static func < (lhs: WeiboPictureSize, rhs: WeiboPictureSize) -> Bool {
        (lhs.maxWidth ?? .max) < (rhs.maxWidth ?? .max)
    }

    /// The smallest size at least `width` pixels wide (what a box that many
    /// pixels wide needs), else ``large``.
    public static func fitting(width: Int) -> WeiboPictureSize {
        allCases.first { ($0.maxWidth ?? .max) >= width } ?? .large
    }

    /// `picture` (any size of one picture on Weibo's picture servers) in
    /// this size; a URL that is not one (another host's picture) is
    /// returned as it is. A loopback host (a local mirror, or a fake
    /// Weibo in tests) is taken to lay its pictures out as Weibo does.
    public func url(of picture: URL) -> URL {
        guard let host = picture.host?.lowercased(), host.hasSuffix(".sinaimg.cn") || host == "sinaimg.cn" || Self.isLoopback(host),
            var components = URLComponents(url: picture, resolvingAgainstBaseURL: false)
        else { return picture }
        var parts = components.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "/SIZE/PID.jpg" -> ["", "SIZE", "PID.jpg"]
        guard parts.count == 3, parts[0].isEmpty, Self.isSizeName(parts[1]), !parts[2].isEmpty else { return picture }
        parts[1] = rawValue
        components.path = parts.joined(separator: "/")
        return components.url ?? picture
    }

    /// Which size `picture` is, when it is one of Weibo's.
    public static func size(of picture: URL) -> WeiboPictureSize? {
        let parts = picture.path.split(separator: "/")
        guard parts.count == 2 else { return nil }
        return WeiboPictureSize(rawValue: String(parts[0]))
    }

    /// A path part naming a size: the ones above, or the others Weibo
    /// serves (`square`, `small`, `mw480`, `orj480`, `crop.…`), which are
    /// replaced the same way.
    private static func isSizeName(_ part: String) -> Bool {
        if WeiboPictureSize(rawValue: part) != nil { return true }
        return ["square", "small", "middle", "woriginal", "mw240", "mw480", "orj480", "orj1080", "wap180", "wap360", "wap720"].contains(part)
            || part.hasPrefix("crop.")
    }

    /// `localhost`, `::1` or an address in 127.0.0.0/8.
    private static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension WeiboPost {
    /// Its pictures in `size` (``pictures`` holds them as Weibo listed them).
    public func pictures(_ size: WeiboPictureSize) -> [URL] { pictures.map { size.url(of: $0) } }

    /// Its pictures in the smallest size that fills a box `width` pixels wide.
    public func pictures(fittingWidth width: Int) -> [URL] { pictures(.fitting(width: width)) }
}
