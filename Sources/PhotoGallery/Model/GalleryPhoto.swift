/// One photo of a gallery: its bytes, an id that names its files, and its caption.
///
/// ```swift
/// let photo = GalleryPhoto(id: sha256Hex, caption: "The tram up to Graça") { try FileByteSource(path: path).readAll(limit: 256 << 20) }
/// ```
public struct GalleryPhoto: Sendable {
    /// Names the photo's files and page: 8 to 64 lowercase letters and
    /// digits, the same for the same picture each time it is published
    /// (an album's asset id, a digest of the bytes), so a republished
    /// gallery keeps what it made before.
    public let id: String
    /// The caption under the photo, and its pictures' text alternative;
    /// `nil` for none.
    public var caption: String?
    /// Reads the photo's encoded bytes (called once, off the cooperative pool).
    public let bytes: @Sendable () throws -> [UInt8]

    /// A photo, `nil` when `id` is not 8 to 64 lowercase letters and digits.
    public init?(id: String, caption: String? = nil, bytes: @escaping @Sendable () throws -> [UInt8]) {
        guard (8...64).contains(id.utf8.count), id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        self.id = id
        self.caption = caption
        self.bytes = bytes
    }

    /// The first 16 characters of the id: the photo's files and page are named by it.
    var shortID: String { String(id.prefix(16)) }
}
