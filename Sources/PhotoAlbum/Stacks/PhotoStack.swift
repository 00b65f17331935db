/// Photos of one moment shown as one: a burst's frames, or the files a
/// camera wrote of one shot (HEIC and JPEG, RAW and JPEG).
public struct PhotoStack: Hashable, Sendable {
    /// What ties the photos together.
    public enum Kind: String, Hashable, Sendable {
        /// Frames of one camera within ``StackRules/burstGap`` of each other,
        /// or named as one burst by the phone.
        case burst
        /// The files of one shot: one base name, one capture time (and one
        /// `ImageUniqueID` where the camera writes it).
        case pair
    }

    /// What ties the photos together.
    public let kind: Kind
    /// The photos in shot order (capture time, then name).
    public let assets: [AssetID]
    /// The photo shown for the stack: the one the user chose
    /// (``AlbumStore/setCover(_:)``), else the sharpest frame, exposure
    /// breaking a tie (``ImageCore/ImageSharpness``); of a pair alone, its JPEG.
    public let cover: AssetID
    /// Whether the user chose ``cover``.
    public let coverIsChosen: Bool
}

/// When photos stack.
public struct StackRules: Hashable, Sendable {
    /// The longest gap between two frames of one burst (same make, model
    /// and body serial): 2 seconds by default.
    public var burstGap: Double = 2
    /// The largest difference of capture times within a pair: 1 second by default.
    public var pairTolerance: Double = 1

    /// The rules as stated above.
    public init() {}
}
