/// The key that makes a still and a short video one Live Photo: the UUID
/// an iPhone writes into both halves, in the still's Apple maker note
/// (tag `0x0011`, exiftool's `MediaGroupUUID`) and in the video's
/// `com.apple.quicktime.content.identifier`.
///
/// Both halves are claims of whoever wrote the files: an identifier is
/// kept only when it is printable ASCII without spaces of at most 128
/// bytes, and compared without regard to case (Apple writes upper case;
/// tools that copy it sometimes lower it).
///
/// ```swift
/// let still = LivePhotoIdentifier("4F1B2C3D-0000-4A5B-8C9D-112233445566")
/// let motion = LivePhotoIdentifier("4f1b2c3d-0000-4a5b-8c9d-112233445566")
/// print(still == motion)   // true
/// ```
public struct LivePhotoIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, upper-cased.
    public let rawValue: String

    /// `text` as an identifier; `nil` when it is empty, longer than 128
    /// bytes, or holds anything but printable ASCII (spaces and control
    /// characters included).
    public init?(_ text: String) {
        let bytes = text.utf8
        guard (1...128).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        rawValue = text.uppercased()
    }

    public var description: String { rawValue }
}
