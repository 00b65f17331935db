/// A Motion Photo: a JPEG with a short MP4 appended after it, as Google's
/// and Samsung's cameras write it, named by the JPEG's XMP. The still shows
/// wherever stills show; ``videoRange`` is where its motion lies in the
/// file, for VideoCodecs to probe and play without copying it out.
///
/// Two XMP forms are read, with whatever namespace prefixes the writer
/// bound:
/// - Motion Photo 1.0: `GCamera:MotionPhoto="1"` and a `Container:Directory`
///   whose items (the primary JPEG first) lie end to end in the file; the
///   video is the item whose `Item:Semantic` is `MotionPhoto`, its length
///   `Item:Length`, counted back from the end with the items after it.
/// - The older MicroVideo form: `GCamera:MicroVideo="1"` and
///   `GCamera:MicroVideoOffset`, the video's start counted from the end of
///   the file.
///
/// The XMP is a claim: the range must lie after the JPEG's header and inside
/// the file, and must start with an MP4 `ftyp` box, or the claim is refused
/// with an error that says why (the still is unaffected).
///
/// ```swift
/// if let motion = try MotionPhoto(readingFileAt: "PXL_20260501_101010.MP.jpg") {
///     let info = try VideoInfo(probingFileAt: "PXL_20260501_101010.MP.jpg", range: motion.videoRange)
///     print(info.duration ?? .zero, motion.stillTime ?? .zero)
/// }
/// ```
public struct MotionPhoto: Hashable, Sendable {
    /// Which XMP form named the video.
    public enum Layout: Hashable, Sendable {
        /// Motion Photo 1.0: `GCamera:MotionPhoto` and `Container:Directory`.
        case containerDirectory
        /// The older `GCamera:MicroVideo` and `GCamera:MicroVideoOffset`.
        case microVideo
    }

    /// The bytes of the file that are the MP4.
    public var videoRange: Range<Int>
    /// When, in the video, the still was taken
    /// (`MotionPhotoPresentationTimestampUs` or
    /// `MicroVideoPresentationTimestampUs`); `nil` when not said (-1) or out
    /// of range.
    public var stillTime: Duration?
    /// Which form named it.
    public var layout: Layout

    /// The Motion Photo in the JPEG at `path`; `nil` when its XMP names no
    /// video (an ordinary photo, or not a JPEG).
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)`` when
    ///   the file cannot be read; ``ImageCore/ImageCodecError/corrupt(format:message:)``
    ///   when its XMP names a video that is not where it says.
    public init?(readingFileAt path: String) throws(ImageCodecError) {
        try self.init(readingHeaderOf: FileByteSource(path: path))
    }

    /// The Motion Photo in `source`, as ``init(readingFileAt:)``: only the
    /// JPEG's header segments and 8 bytes where the video starts are read.
    public init?(readingHeaderOf source: any ByteSource) throws(ImageCodecError) {
        let leading = try source.bytes(at: 0, length: min(64, source.count))[...]
        guard JPEGHeader.recognizes(leading), let xmp = try JPEGHeader(reading: source).xmp,
            let claim = MotionPhotoXMP(String(decoding: xmp, as: UTF8.self))
        else { return nil }
        let size = source.count
        // The header ends where the first scan starts: at least the XMP segment itself lies before any video.
        let range: Range<Int>
        switch claim.video {
        case .fromEnd(let offset):
            guard offset > 0, offset < size else { throw Self.refused("its MicroVideoOffset \(offset) is not inside the file's \(size) bytes") }
            range = size - offset..<size
        case .lastItems(let videoLength, let tail):
            guard videoLength > 0, tail >= videoLength, tail < size else {
                throw Self.refused("its Container:Directory puts a video of \(videoLength) bytes \(tail) bytes from the end of \(size)")
            }
            range = size - tail..<size - tail + videoLength
        }
        let box = try source.bytes(at: range.lowerBound, length: min(8, range.count))
        guard box.count == 8, box[4...].elementsEqual("ftyp".utf8) else {
            throw Self.refused("no MP4 starts at byte \(range.lowerBound), where its XMP puts the video")
        }
        videoRange = range
        stillTime = claim.stillMicroseconds.flatMap { (0...600_000_000).contains($0) ? .microseconds($0) : nil }
        layout = claim.layout
    }

    private static func refused(_ why: String) -> ImageCodecError {
        .corrupt(format: .jpeg, message: "the Motion Photo's video is not where its XMP says: \(why)")
    }
}
