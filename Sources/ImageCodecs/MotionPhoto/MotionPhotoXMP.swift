import Foundation

/// What a Motion Photo's XMP claims, read from the packet's text by local
/// names (any namespace prefix), as attributes or as elements. Numbers
/// are range-checked here; where they point is checked by ``MotionPhoto``.
struct MotionPhotoXMP {
    /// Where the XMP says the video is.
    enum Video: Equatable {
        /// MicroVideo: the video starts this many bytes before the end.
        case fromEnd(Int)
        /// Container:Directory: the video's length, and the bytes from its
        /// start to the end of the file (it and the items after it).
        case lastItems(videoLength: Int, tail: Int)
    }

    let video: Video
    let layout: MotionPhoto.Layout
    let stillMicroseconds: Int?

    /// The largest item length or offset believed: 4 GiB.
    static let maxBytes = 1 << 32

    /// The claim in `text`; `nil` when it names no Motion Photo, or names
    /// one with numbers that are not numbers (negative, overflowing, text).
    init?(_ text: String) {
        let motion = XMPText.property("MotionPhoto", in: text) == "1"
        let micro = XMPText.property("MicroVideo", in: text) == "1"
        if motion, let found = Self.directoryVideo(in: text) {
            video = found
            layout = .containerDirectory
            stillMicroseconds = XMPText.property("MotionPhotoPresentationTimestampUs", in: text).flatMap { Int($0) }
        } else if micro, let offset = XMPText.property("MicroVideoOffset", in: text).flatMap(Self.byteCount) {
            video = .fromEnd(offset)
            layout = .microVideo
            stillMicroseconds = XMPText.property("MicroVideoPresentationTimestampUs", in: text).flatMap { Int($0) }
        } else {
            return nil
        }
    }

    /// The video item of the `Container:Directory` and the bytes from its
    /// start to the end of the file; `nil` when there is no such item, or
    /// an item at or after it has a length that is not a byte count.
    private static func directoryVideo(in text: String) -> Video? {
        // Each item's attributes, in order (`<Container:Item Item:Mime=... />`).
        let items = text.matches(of: #/<[A-Za-z0-9_.-]+:Item\b([^>]*)>/#).map { String($0.output.1) }
        guard
            let index = items.indices.dropFirst().first(where: {
                XMPText.property("Semantic", in: items[$0]) == "MotionPhoto"
            })
        else { return nil }
        var tail = 0
        for item in items[index...] {
            guard let length = XMPText.property("Length", in: item).flatMap(byteCount) else { return nil }
            let padding = XMPText.property("Padding", in: item).map(byteCount) ?? 0
            guard let padding else { return nil }
            tail += length + padding
            guard tail <= maxBytes else { return nil }
        }
        guard let length = XMPText.property("Length", in: items[index]).flatMap(byteCount) else { return nil }
        return .lastItems(videoLength: length, tail: tail)
    }

    /// A byte count: decimal digits only, at most ``maxBytes``.
    private static func byteCount(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text), value <= maxBytes
        else { return nil }
        return value
    }
}
