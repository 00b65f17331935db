import Foundation

/// What a camera wrote about a shot, for an information panel: the camera,
/// the lens, the exposure and where it was taken. Read from an EXIF block
/// by ``ExifMetadata/details``.
///
/// Every field is a claim by whoever wrote the file: a value that is out of
/// range (a zero denominator, a latitude past the pole, an ISO of zero) is
/// left out rather than shown wrong, and texts are cut to 128 characters
/// with surrounding spaces removed. Texts may still hold control
/// characters; make them terminal-safe before printing them.
///
/// ```swift
/// if let exif = try ExifMetadata(readingFileAt: path) {
///     let shot = exif.details
///     print(shot.camera ?? "unknown camera", shot.exposureTime?.description ?? "")
/// }
/// ```
public struct ExifDetails: Hashable, Sendable {
    /// `Make` (IFD0): the camera's maker, as written.
    public var cameraMake: String?
    /// `Model` (IFD0).
    public var cameraModel: String?
    /// `LensMake` (Exif IFD).
    public var lensMake: String?
    /// `LensModel` (Exif IFD).
    public var lensModel: String?
    /// `ExposureTime`, in seconds, as the camera's fraction.
    public var exposureTime: ExifRational?
    /// `FNumber`: the aperture (8.0 for f/8).
    public var fNumber: Double?
    /// `PhotographicSensitivity` (formerly `ISOSpeedRatings`).
    public var isoSpeed: Int?
    /// `FocalLength`, in millimetres.
    public var focalLength: Double?
    /// `FocalLengthIn35mmFilm`, in millimetres.
    public var focalLengthIn35mmFilm: Int?
    /// The GPS position, when both coordinates are present and in range.
    public var location: GeoLocation?
    /// `BodySerialNumber` (Exif IFD): tells two bodies of one model apart.
    public var bodySerialNumber: String?
    /// `ImageUniqueID` (Exif IFD): the same in every file a camera writes of one shot (its RAW and its JPEG).
    public var imageUniqueID: String?
    /// `ImageDescription` (IFD0): a caption, as Lightroom and digiKam
    /// write it; `nil` when absent, blank, or a camera's stock text
    /// (`OLYMPUS DIGITAL CAMERA`, `SONY DSC`...).
    public var imageDescription: String?
    /// `SubSecTimeOriginal` as a fraction of a second (0.123 for `"123"`),
    /// to order shots within one second of `DateTimeOriginal`.
    public var captureSubseconds: Double?

    /// Nothing known.
    public init() {}

    /// The camera, maker and model, without the maker twice ("Canon Canon
    /// EOS R5" reads "Canon EOS R5"; "NIKON CORPORATION NIKON D850" reads
    /// "NIKON D850").
    public var camera: String? {
        guard let model = cameraModel else { return cameraMake }
        guard let make = cameraMake, !make.isEmpty else { return model }
        let firstWord = make.split(separator: " ").first.map(String.init) ?? make
        if model.lowercased().hasPrefix(firstWord.lowercased()) { return model }
        return "\(make) \(model)"
    }

    /// The lens, with its maker unless the model names it already.
    public var lens: String? {
        guard let model = lensModel else { return nil }
        guard let make = lensMake, !make.isEmpty, !model.lowercased().hasPrefix(make.lowercased()) else { return model }
        return "\(make) \(model)"
    }

    /// Whether nothing is known.
    public var isEmpty: Bool { self == ExifDetails() }
}

/// An EXIF RATIONAL: a fraction of two unsigned 32-bit integers, the
/// denominator never zero.
public struct ExifRational: Hashable, Sendable, CustomStringConvertible {
    /// The numerator.
    public let numerator: UInt32
    /// The denominator (never zero).
    public let denominator: UInt32

    /// `nil` when `denominator` is zero.
    public init?(_ numerator: UInt32, _ denominator: UInt32) {
        guard denominator != 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The fraction's value.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// An exposure time as photographers write it (without the unit):
    /// `1/250` below 0.3 seconds (reduced to one over a whole number), and
    /// `1/3` or `1/2` when the camera wrote one over something; else `0.4`,
    /// `0.8`, `2` or `30`.
    public var description: String {
        let seconds = value
        let isOneOver = seconds > 0 && seconds < 1 && (numerator == 1 || seconds < 0.3)
        if !isOneOver {
            let tenths = (seconds * 10).rounded() / 10
            return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        }
        return "1/\(Int((1 / seconds).rounded()))"
    }
}
