/// What metadata may stay in an image that leaves the device: the rule
/// applied to every image a share sends, an album exports or a tool writes.
///
/// Photos carry far more than their pixels: the GPS position where they
/// were taken, the camera's and lens's serial numbers, the owner's name,
/// the editing software's XMP history, IPTC captions, maker notes, an
/// embedded thumbnail of the uncropped original. A policy says which kinds
/// may stay ("the fields"); everything it does not keep is removed by
/// rewriting the container, without touching the compressed pixels
/// (`rewriting(_:registry:)`, which ImageCodecs adds), or is never written
/// into a re-encoded image. The
/// colour profile is always kept (display needs it), and so is the
/// orientation (reset to 1 once it has been applied to the pixels). An HDR
/// gain map is display data too: every built-in policy keeps it
/// (``keepsGainMap``).
///
/// ```swift
/// let shared = try MetadataPolicy.default.rewriting(jpegBytes)
/// print(shared.removed)          // [.location, .identifying, .xmp, .iptc]
/// upload(shared.bytes)           // the same pixels, no GPS, no serial numbers
/// ```
public struct MetadataPolicy: Hashable, Sendable, Codable {
    /// Whether GPS data stays (the EXIF GPS block, XMP `exif:GPS*`).
    public var keepsLocation: Bool
    /// Whether the capture date and time stay (`DateTimeOriginal`,
    /// `DateTimeDigitized`, `DateTime`, their offsets and subseconds).
    public var keepsCaptureDate: Bool
    /// Whether the camera and exposure description stays: make, model,
    /// lens make and model, software, exposure time, aperture, ISO, focal
    /// length, flash, white balance and the like.
    public var keepsCamera: Bool
    /// Whether identifying and personal fields stay: body and lens serial
    /// numbers, the owner's, artist's and copyright holder's names, the
    /// image's unique ID, comments and descriptions, maker notes, the host
    /// computer, Windows' XP tags.
    public var keepsIdentifying: Bool
    /// Whether everything else stays: XMP, IPTC (Photoshop APP13), JPEG
    /// comments and other application segments, PNG text chunks, EXIF
    /// thumbnails, the secondary images of a multi-picture JPEG, data after
    /// the image's end, and any tag this policy does not know.
    public var keepsEverythingElse: Bool
    /// Whether an HDR gain map stays (``GainMap``: the second picture of
    /// an Ultra HDR JPEG, with its parameters and the directory that finds
    /// it). It says how bright each part of the photo is on an HDR display,
    /// nothing about who took it or where: kept unless this is `false`.
    public var keepsGainMap: Bool
    /// Whether the photo's ratings, labels and tags stay (``PhotoAnnotations``:
    /// `xmp:Rating`, `xmp:Label`, digiKam's and darktable's labels,
    /// `dc:subject`, `lr:hierarchicalSubject`). They can say more than they
    /// seem to (a tag is often a person's name), so only
    /// ``keepAll`` keeps them unless asked. Kept, they go in an XMP packet
    /// of their own when the rest of the XMP goes; dropped, they are taken
    /// out of an XMP packet that otherwise stays.
    public var keepsAnnotations: Bool

    /// Creates a policy that keeps the kinds it is told to.
    public init(
        keepsLocation: Bool = false, keepsCaptureDate: Bool = true, keepsCamera: Bool = true, keepsIdentifying: Bool = false,
        keepsEverythingElse: Bool = false, keepsGainMap: Bool = true, keepsAnnotations: Bool = false
    ) {
        self.keepsLocation = keepsLocation
        self.keepsCaptureDate = keepsCaptureDate
        self.keepsCamera = keepsCamera
        self.keepsIdentifying = keepsIdentifying
        self.keepsEverythingElse = keepsEverythingElse
        self.keepsGainMap = keepsGainMap
        self.keepsAnnotations = keepsAnnotations
    }

    private enum CodingKeys: String, CodingKey {
        case keepsLocation, keepsCaptureDate, keepsCamera, keepsIdentifying, keepsEverythingElse, keepsGainMap, keepsAnnotations
    }

    /// Reads a policy; one written before ``keepsGainMap`` existed keeps the
    /// gain map, and one written before ``keepsAnnotations`` existed keeps
    /// the marks when it kept the XMP they were in.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keepsLocation = try container.decode(Bool.self, forKey: .keepsLocation)
        keepsCaptureDate = try container.decode(Bool.self, forKey: .keepsCaptureDate)
        keepsCamera = try container.decode(Bool.self, forKey: .keepsCamera)
        keepsIdentifying = try container.decode(Bool.self, forKey: .keepsIdentifying)
        keepsEverythingElse = try container.decode(Bool.self, forKey: .keepsEverythingElse)
        keepsGainMap = try container.decodeIfPresent(Bool.self, forKey: .keepsGainMap) ?? true
        keepsAnnotations = try container.decodeIfPresent(Bool.self, forKey: .keepsAnnotations) ?? keepsEverythingElse
    }

    /// Only what display needs: the colour profile, the HDR gain map (and
    /// the orientation, applied). No date, no camera, no location, nothing else.
    public static let strict = MetadataPolicy(keepsCaptureDate: false, keepsCamera: false)

    /// What a small preview carries: the colour profile alone (``strict``
    /// without the gain map: a link card's or a video's thumbnail is shown
    /// as it is, and its few kilobytes go to the picture).
    public static let thumbnail = MetadataPolicy(keepsCaptureDate: false, keepsCamera: false, keepsGainMap: false)

    /// The capture date and the camera and exposure description stay
    /// (albums sort by the one, photographers look for the other), and so
    /// does the HDR gain map; location, identifying and personal fields,
    /// XMP, IPTC, comments, thumbnails and everything unknown go.
    public static let `default` = MetadataPolicy()

    /// Everything stays: the bytes pass through as they are.
    public static let keepAll = MetadataPolicy(
        keepsLocation: true, keepsCaptureDate: true, keepsCamera: true, keepsIdentifying: true, keepsEverythingElse: true,
        keepsAnnotations: true)

    /// Whether this policy keeps every kind of metadata.
    public var keepsAll: Bool { self == .keepAll }

    /// The policy that keeps only what both keep: how a provider narrows
    /// the app's policy (a thumbnail keeps nothing). Narrowing can never
    /// widen: `policy.narrowed(by: .keepAll) == policy`.
    public func narrowed(by other: MetadataPolicy) -> MetadataPolicy {
        MetadataPolicy(
            keepsLocation: keepsLocation && other.keepsLocation, keepsCaptureDate: keepsCaptureDate && other.keepsCaptureDate,
            keepsCamera: keepsCamera && other.keepsCamera, keepsIdentifying: keepsIdentifying && other.keepsIdentifying,
            keepsEverythingElse: keepsEverythingElse && other.keepsEverythingElse, keepsGainMap: keepsGainMap && other.keepsGainMap,
            keepsAnnotations: keepsAnnotations && other.keepsAnnotations)
    }

    /// Whether `kind` stays under this policy.
    public func keeps(_ kind: MetadataKind) -> Bool {
        switch kind {
        case .location: keepsLocation
        case .captureDate: keepsCaptureDate
        case .camera: keepsCamera
        case .identifying: keepsIdentifying
        case .xmp, .iptc, .comment, .thumbnail, .other: keepsEverythingElse
        case .gainMap: keepsGainMap
        case .annotations: keepsAnnotations
        }
    }
}

/// A kind of metadata an image can carry, as ``MetadataPolicy`` sorts it
/// and as a rewrite reports what it removed.
public enum MetadataKind: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// GPS position, altitude, direction, time and the like.
    case location
    /// When the photo was taken.
    case captureDate = "capture-date"
    /// Camera and lens make and model, software, exposure settings.
    case camera
    /// Serial numbers, owner, artist and copyright names, unique ID,
    /// comments and descriptions, maker notes.
    case identifying
    /// An XMP packet (editing history, keywords, sometimes GPS again).
    case xmp
    /// IPTC data (captions, creator, location names), in Photoshop's APP13.
    case iptc
    /// A JPEG comment, a GIF comment or a PNG text chunk.
    case comment
    /// An embedded preview: the EXIF thumbnail, a multi-picture JPEG's other images.
    case thumbnail
    /// An HDR gain map and what finds and describes it (``GainMap``).
    case gainMap = "gain-map"
    /// Anything else: unknown tags, application segments and chunks, data after the image.
    case other
    /// Ratings, labels and tags (``PhotoAnnotations``), wherever the XMP keeps them.
    case annotations

    public var description: String { rawValue }

    public static func < (lhs: MetadataKind, rhs: MetadataKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// An image rewritten under a ``MetadataPolicy``: the same compressed
/// pixels in a container that carries only what the policy keeps.
public struct RewrittenImage: Hashable, Sendable {
    /// The new bytes.
    public let bytes: [UInt8]
    /// Their format.
    public let format: ImageFormat
    /// What was taken out (empty when nothing was there to take).
    public let removed: Set<MetadataKind>

    /// Creates the result of a rewrite.
    public init(bytes: [UInt8], format: ImageFormat, removed: Set<MetadataKind>) {
        self.bytes = bytes
        self.format = format
        self.removed = removed
    }
}
