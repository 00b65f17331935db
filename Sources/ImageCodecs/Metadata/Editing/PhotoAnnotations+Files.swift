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
        try self.init(embeddedInFileAt: path)
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

    /// The marks in an encoded photo's own XMP (JPEG, PNG, WebP, HEIC,
    /// AVIF); none when it has no packet or is no such photo. A sidecar is
    /// not looked for: see ``init(readingFileAt:)``.
    ///
    /// ```swift
    /// let marks = PhotoAnnotations(embeddedIn: jpegBytes)
    /// ```
    public init(embeddedIn bytes: [UInt8]) {
        self = XMPPacket.text(inFile: bytes).map(XMPPacket.annotations(in:)) ?? PhotoAnnotations()
    }

    /// The marks in the own XMP of the photo at `path`, its sidecars
    /// not looked for; none for a file that is no photo PhotoDeck reads
    /// marks from. Only the packet is read (with its container's chunk
    /// headers or boxes), never the picture.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)`` when
    ///   the file cannot be opened.
    public init(embeddedInFileAt path: String) throws(ImageCodecError) {
        self = try XMPPacket.text(inFileAt: path).map(XMPPacket.annotations(in:)) ?? PhotoAnnotations()
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
    /// The largest XMP packet read from a PNG chunk, a WebP chunk or a HEIF item.
    static let maxPacketBytes = 16 << 20

    /// The XMP packet of the image file at `path` (see ``text(in:)``);
    /// `nil` for anything else (a movie's marks are in its sidecar).
    static func text(inFileAt path: String) throws(ImageCodecError) -> String? {
        try text(in: try FileByteSource(path: path))
    }

    /// The XMP packet of an encoded image in memory (see ``text(in:)``).
    static func text(inFile bytes: [UInt8]) -> String? {
        try? text(in: MemoryByteSource(bytes))
    }

    /// The XMP packet of a JPEG (its first APP1 packet, from the header),
    /// PNG (its XMP text chunk, inflated within 16 MiB), WebP (its `XMP `
    /// chunk) or HEIF file (its `application/rdf+xml` item); `nil` when it
    /// has none, it is over 16 MiB, or the container is none of these or
    /// cannot be walked. Only chunk headers, boxes and the packet are read:
    /// never the compressed picture.
    ///
    /// - Throws: only when `source` cannot be read at all.
    static func text(in source: any ByteSource) throws(ImageCodecError) -> String? {
        let head = try source.bytes(at: 0, length: min(64, source.count))
        if JPEGHeader.recognizes(head[...]) {
            return (try? JPEGHeader(reading: source))?.xmp.map { String(decoding: $0, as: UTF8.self) }
        }
        let packet: [UInt8]?
        if head.starts(with: PNGMetadata.signature) {
            packet = try? pngPacket(in: source)
        } else if WebPContainer.recognizes(head[...]) {
            packet = try? webPPacket(in: source)
        } else {
            packet = HEIFMetadata.xmpPacket(in: source)
        }
        return packet.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A PNG's XMP text chunk, walked to chunk by chunk (up to `IEND`).
    private static func pngPacket(in source: any ByteSource) throws(ImageCodecError) -> [UInt8]? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        var offset = 8
        while offset <= source.count - 12 {
            let header = try source.bytes(at: offset, length: 8)
            guard header.count == 8 else { return nil }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length <= source.count - offset - 12 else { return nil }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IEND" { return nil }
            if ["iTXt", "zTXt", "tEXt"].contains(type), length >= keyword.count,
                try source.bytes(at: offset + 8, length: keyword.count) == keyword
            {
                guard length <= maxPacketBytes else { return nil }
                return PNGMetadata.xmpPacket(type, try source.bytes(at: offset + 8, length: length))
            }
            offset += 12 + length
        }
        return nil
    }

    /// A WebP's `XMP ` chunk, walked to chunk by chunk.
    private static func webPPacket(in source: any ByteSource) throws(ImageCodecError) -> [UInt8]? {
        var offset = 12
        while offset <= source.count - 8 {
            let header = try source.bytes(at: offset, length: 8)
            guard header.count == 8 else { return nil }
            let length = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
            guard length <= source.count - offset - 8 else { return nil }
            if header.starts(with: Array("XMP ".utf8)) {
                guard length <= maxPacketBytes else { return nil }
                return try source.bytes(at: offset + 8, length: length)
            }
            offset += 8 + length + (length & 1)
        }
        return nil
    }
}
