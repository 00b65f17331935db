public import ImageCore
import SystemSupport

extension PhotoAnnotations {
    /// The sidecars a photo's marks may be in, in the order they are read:
    /// `IMG_0001.jpg.xmp` (darktable's and digiKam's, and what PhotoDeck
    /// writes), then `IMG_0001.xmp` (Lightroom's, Capture One's).
    public static func sidecarPaths(for path: String) -> [String] {
        let (folder, name) = DurableFile.split(path)
        var paths = [path + ".xmp"]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { paths.append("\(folder)/\(name[..<dot]).xmp") }
        return paths
    }

    /// The marks of the photo (or movie) at `path`: its own XMP's (JPEG,
    /// PNG, WebP, HEIC, AVIF), with what a sidecar says winning field by
    /// field (the first of ``sidecarPaths(for:)`` that exists). A file that
    /// is no image PhotoDeck reads (a movie) is read for its sidecar alone,
    /// past its first bytes never.
    ///
    /// ```swift
    /// let marks = try PhotoAnnotations(readingFileAt: "IMG_0001.jpg")
    /// print(marks.rating ?? 0, marks.tags)
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)`` when
    ///   the photo or its sidecar cannot be read.
    public init(readingFileAt path: String) throws(ImageCodecError) {
        self = try XMPPacket.text(inFileAt: path).map(XMPPacket.annotations(in:)) ?? PhotoAnnotations()
        for sidecar in Self.sidecarPaths(for: path) where FileSystem.kind(of: sidecar, followingSymlinks: false) == .regular {
            let text: [UInt8]
            do {
                text = try RegularFile.contents(of: sidecar, limit: 16 << 20, followingSymlinks: false)
            } catch {
                throw .fileAccess(path: sidecar, reason: error.reason)
            }
            merge(XMPPacket.annotations(in: String(decoding: text, as: UTF8.self)))
            break
        }
    }

    /// Writes these marks to the photo's sidecar, `path.xmp`, in place of
    /// the ones it records and keeping everything else it holds (darktable's
    /// history, Lightroom's develop settings); a new sidecar when there is
    /// none. Durable: the old sidecar or the new one. The photo is not read
    /// or touched.
    public func writeSidecar(for path: String) throws(ImageCodecError) {
        let sidecar = path + ".xmp"
        var existing: String?
        if FileSystem.kind(of: sidecar, followingSymlinks: false) != nil {
            do {
                existing = String(decoding: try RegularFile.contents(of: sidecar, limit: 16 << 20, followingSymlinks: false), as: UTF8.self)
            } catch {
                throw .fileAccess(path: sidecar, reason: error.reason)
            }
        }
        do {
            try DurableFile.write(Array(XMPPacket.recording(self, in: existing).utf8), to: sidecar)
        } catch {
            throw .fileAccess(path: sidecar, reason: error.reason)
        }
    }

    /// `other`'s marks over these, where it says something.
    mutating func merge(_ other: PhotoAnnotations) {
        if let rating = other.rating { self.rating = rating }
        if other.colorLabel != nil || other.label != nil {
            colorLabel = other.colorLabel
            label = other.label
        }
        if let pick = other.pick { self.pick = pick }
        if !other.tags.isEmpty { tags = other.tags }
        if !other.hierarchicalTags.isEmpty { hierarchicalTags = other.hierarchicalTags }
    }
}

extension XMPPacket {
    /// The XMP packet of the image file at `path` (see ``text(inFile:)``):
    /// a JPEG's from its header alone, a PNG's, WebP's or HEIF file's from
    /// the file read whole (at most 1 GiB); `nil` for anything else (a
    /// movie's marks are in its sidecar), read no further than its first bytes.
    static func text(inFileAt path: String) throws(ImageCodecError) -> String? {
        let source = try FileByteSource(path: path)
        let head = try source.bytes(at: 0, length: min(64, source.count))
        if JPEGHeader.recognizes(head[...]) {
            return try JPEGHeader(reading: source).xmp.map { String(decoding: $0, as: UTF8.self) }
        }
        let isHEIF = [ImageFormat.heic, .avif].contains { HEIFCodec(format: $0).recognizes(head[...]) }
        guard head.starts(with: PNGMetadata.signature) || WebPContainer.recognizes(head[...]) || isHEIF else { return nil }
        do {
            return text(inFile: try RegularFile.contents(of: path, limit: 1 << 30))
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
    }

    /// The XMP packet of a JPEG (its first APP1 packet), PNG (its XMP text
    /// chunk, inflated within 16 MiB), WebP (its `XMP ` chunk) or HEIF file
    /// (its `application/rdf+xml` item); `nil` when it has none.
    static func text(inFile bytes: [UInt8]) -> String? {
        let head = bytes.prefix(16)
        if JPEGHeader.recognizes(head) {
            return (try? JPEGHeader(reading: MemoryByteSource(bytes)))?.xmp.map { String(decoding: $0, as: UTF8.self) }
        }
        if head.starts(with: PNGMetadata.signature) {
            var offset = 8
            let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
            while offset + 12 <= bytes.count {
                let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length <= bytes.count - offset - 12 else { return nil }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
                if ["iTXt", "zTXt", "tEXt"].contains(type), data.starts(with: keyword) {
                    return PNGMetadata.xmpPacket(type, data).map { String(decoding: $0, as: UTF8.self) }
                }
                offset += 12 + length
            }
            return nil
        }
        if WebPContainer.recognizes(head) {
            var offset = 12
            while offset + 8 <= bytes.count {
                let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
                let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
                guard length <= bytes.count - offset - 8 else { return nil }
                if type == "XMP " { return String(decoding: bytes[(offset + 8)..<(offset + 8 + length)], as: UTF8.self) }
                offset += 8 + length + (length & 1)
            }
            return nil
        }
        return HEIFMetadata.xmpPacket(in: bytes).map { String(decoding: $0, as: UTF8.self) }
    }
}
