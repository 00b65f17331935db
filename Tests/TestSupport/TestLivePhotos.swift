import Foundation
import ImageCodecs

/// Live Photos and Motion Photos built as phones write them: an iPhone's
/// still with its Apple maker note and the paired MOV with the same
/// content identifier; a Google Motion Photo (a JPEG, its XMP, the MP4
/// after it) in either XMP form.
public enum TestLivePhotos {
    /// An EXIF block as an iPhone writes it (big-endian), whose Exif IFD
    /// holds an Apple maker note (`Apple iOS`, version 1, the note's byte
    /// order, an IFD with offsets from the note's start) with `identifier`
    /// at tag 0x0011 and a maker-note version at 0x0001.
    public static func appleExif(identifier: String, noteIsLittleEndian: Bool = false) -> [UInt8] {
        var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + (noteIsLittleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        let text = Array(identifier.utf8) + [0]
        let textOffset = 14 + 2 + 2 * 12 + 4
        note += bytes(2, 2, little: noteIsLittleEndian)
        note += entry(0x0001, type: 9, count: 1, value: 14, little: noteIsLittleEndian)
        note += entry(0x0011, type: 2, count: text.count, value: textOffset, little: noteIsLittleEndian)
        note += bytes(0, 4, little: noteIsLittleEndian)
        note += text
        return exif(makerNote: note)
    }

    /// An EXIF block as an iPhone writes it for a burst frame (big-endian):
    /// Make, Model, the capture time with subseconds and offset, and an
    /// Apple maker note whose tag 0x000B (`BurstUUID`) is `burst` (none
    /// when `nil`: a single shot).
    public static func appleBurstExif(burst: String?, date: String, subseconds: String) -> [UInt8] {
        var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D]
        let text = Array((burst ?? "").utf8) + [0]
        let entryCount = burst == nil ? 1 : 2
        let textOffset = 14 + 2 + entryCount * 12 + 4
        note += bytes(entryCount, 2) + entry(0x0001, type: 9, count: 1, value: 14)
        if burst != nil { note += entry(0x000B, type: 2, count: text.count, value: textOffset) }
        note += bytes(0, 4)
        if burst != nil { note += text }
        let tiff = TIFFBuilder(bigEndian: true)
        return tiff.build([
            tiff.ascii(0x010F, "Apple"), tiff.ascii(0x0110, "iPhone 15 Pro"),
            tiff.pointer(
                0x8769,
                to: [
                    tiff.ascii(0x9003, date), tiff.ascii(0x9011, "+08:00"), tiff.ascii(0x9291, subseconds), tiff.undefined(0x927C, note),
                ]),
        ])
    }

    /// A big-endian EXIF block holding `note` as its maker note: IFD0 (the
    /// Exif IFD pointer), the Exif IFD (MakerNote), the note.
    public static func exif(makerNote note: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        let exifIFD = 8 + 2 + 12 + 4
        tiff += bytes(1, 2) + entry(0x8769, type: 4, count: 1, value: exifIFD) + bytes(0, 4)
        let noteOffset = exifIFD + 2 + 12 + 4
        tiff += bytes(1, 2) + entry(0x927C, type: 7, count: note.count, value: noteOffset) + bytes(0, 4)
        return tiff + note
    }

    /// A small JPEG still carrying `identifier` as an iPhone's Live Photo does.
    public static func still(identifier: String, noteIsLittleEndian: Bool = false) throws -> [UInt8] {
        let exif = ExifMetadata(bytes: appleExif(identifier: identifier, noteIsLittleEndian: noteIsLittleEndian))
        return try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85, exif: exif)
    }

    /// A one-second H.264 MOV carrying `identifier` as the motion half of a
    /// Live Photo (`com.apple.quicktime.content.identifier`). Its file is
    /// named by `name` and the identifier both: videos are made once per
    /// name, and two tests that chose one name for different identifiers
    /// would otherwise get whichever ran first.
    public static func motion(_ name: String, identifier: String) throws -> String {
        let stem = (name as NSString).deletingPathExtension
        return try TestVideos.pattern(
            "\(stem)-\(identifier).mov", seconds: 1, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast"],
            extra: ["-metadata", "com.apple.quicktime.content.identifier=\(identifier)", "-movflags", "use_metadata_tags"])
    }

    /// Writes a Live Photo pair into `folder` as an iPhone names it:
    /// `STEM.JPG` (a still carrying `identifier`) and `STEM.MOV` (its
    /// motion). Returns the still's path.
    @discardableResult
    public static func writePair(in folder: String, stem: String, identifier: String) throws -> String {
        let still = "\(folder)/\(stem).JPG"
        try Data(try self.still(identifier: identifier)).write(to: URL(fileURLWithPath: still))
        try FileManager.default.copyItem(atPath: try motion("pair", identifier: identifier), toPath: "\(folder)/\(stem).MOV")
        return still
    }

    /// How a Motion Photo's XMP names its video.
    public enum Layout {
        /// Motion Photo 1.0: `GCamera:MotionPhoto` and a `Container:Directory`;
        /// `padding` bytes follow the video (its item's `Item:Padding`).
        case containerDirectory(padding: Int)
        /// `GCamera:MicroVideo` and `GCamera:MicroVideoOffset`.
        case microVideo
    }

    /// The XMP packet a Pixel writes for a video of `length` bytes, the still
    /// shown at `stillMicroseconds`; `override` replaces the numbers written
    /// (for hostile claims).
    public static func xmp(_ layout: Layout, videoLength length: Int, stillMicroseconds: Int = 968_644, override: String? = nil) -> String {
        switch layout {
        case .containerDirectory(let padding):
            let lengthText = override ?? "\(length)"
            return """
                <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.0-jc003">
                  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                    <rdf:Description rdf:about=""
                        xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
                        xmlns:Container="http://ns.google.com/photos/1.0/container/"
                        xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
                      GCamera:MotionPhoto="1"
                      GCamera:MotionPhotoVersion="1"
                      GCamera:MotionPhotoPresentationTimestampUs="\(stillMicroseconds)">
                      <Container:Directory>
                        <rdf:Seq>
                          <rdf:li rdf:parseType="Resource">
                            <Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/>
                          </rdf:li>
                          <rdf:li rdf:parseType="Resource">
                            <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(lengthText)" Item:Padding="\(padding)"/>
                          </rdf:li>
                        </rdf:Seq>
                      </Container:Directory>
                    </rdf:Description>
                  </rdf:RDF>
                </x:xmpmeta>
                """
        case .microVideo:
            let offsetText = override ?? "\(length)"
            return """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/">
                <GCamera:MicroVideo>1</GCamera:MicroVideo><GCamera:MicroVideoVersion>1</GCamera:MicroVideoVersion>
                <GCamera:MicroVideoOffset>\(offsetText)</GCamera:MicroVideoOffset>
                <GCamera:MicroVideoPresentationTimestampUs>\(stillMicroseconds)</GCamera:MicroVideoPresentationTimestampUs>
                </rdf:Description></rdf:RDF></x:xmpmeta>
                """
        }
    }

    /// A Motion Photo: `jpeg` with `xmp` in an APP1 segment after SOI, then
    /// `video`, then `padding` zero bytes.
    public static func motionPhoto(jpeg: [UInt8], xmp: String, video: [UInt8], padding: Int = 0) -> [UInt8] {
        let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
        let segment: [UInt8] = [0xFF, 0xE1] + bytes(payload.count + 2, 2) + payload
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2)) + video + [UInt8](repeating: 0, count: padding)
    }

    /// `value` in `width` bytes, big-endian unless `little`.
    static func bytes(_ value: Int, _ width: Int, little: Bool = false) -> [UInt8] {
        let bytes = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
        return little ? bytes.reversed() : bytes
    }

    /// One IFD entry (a value of at most 4 bytes is written as a 32-bit number).
    static func entry(_ tag: Int, type: Int, count: Int, value: Int, little: Bool = false) -> [UInt8] {
        bytes(tag, 2, little: little) + bytes(type, 2, little: little) + bytes(count, 4, little: little) + bytes(value, 4, little: little)
    }
}
