public import Foundation

/// A change to when and where a photo was taken, and to the marks it
/// carries (``PhotoAnnotations``), written into its metadata without
/// touching its compressed pixels (see `MetadataEdit.applied(to:)` in
/// ImageCodecs).
///
/// The dates changed are the three ExifTool calls `AllDates`
/// (`DateTimeOriginal`, `CreateDate`, `ModifyDate`), each with its offset
/// tag (`OffsetTimeOriginal`, `OffsetTimeDigitized`, `OffsetTime`), which
/// are kept consistent: every date that gets an offset gets the same one.
/// The GPS time stamps are the satellites' clock: they are written, in
/// UTC, only with a place (from the capture date, when its offset is
/// known), and a shift or a zone change leaves them as they are.
///
/// ```swift
/// // The camera was an hour ahead, and the trip was in Tokyo.
/// let edit = MetadataEdit(
///     date: .shift(seconds: -3600),
///     place: .set(GeoLocation(latitude: 35.6586, longitude: 139.7454)!))
/// ```
public struct MetadataEdit: Hashable, Sendable {
    /// A change to the capture date.
    public enum DateChange: Hashable, Sendable {
        /// Every date set to this clock time. With an offset, every offset
        /// tag says it; without one, the offsets the photo records stay.
        case set(CaptureDate)
        /// Every date's clock moved by this many seconds (negative:
        /// earlier); the offsets stay.
        case shift(seconds: Int)
        /// Every date moved to this zone, keeping the instant or the clock
        /// (``CaptureDate/inZone(_:keeping:)``); a date whose instant is
        /// unknown (no offset recorded) is refused when keeping the instant.
        case zone(TimeZone, CaptureDate.ZoneChange)
    }

    /// A change to the place.
    public enum PlaceChange: Hashable, Sendable {
        /// A new GPS position (and altitude, when it has one); the old GPS
        /// tags all go, since they described another position.
        case set(GeoLocation)
        /// Every GPS tag removed, and the XMP copies of the position.
        case remove
    }

    /// The date change, if any.
    public var date: DateChange?
    /// The place change, if any.
    public var place: PlaceChange?
    /// The marks to record in the file's XMP in place of the ones it
    /// records (read them first to change one: ``PhotoAnnotations``), if any.
    public var annotations: PhotoAnnotations?

    /// An edit of the date, the place, the marks or any of them.
    public init(date: DateChange? = nil, place: PlaceChange? = nil, annotations: PhotoAnnotations? = nil) {
        self.date = date
        self.place = place
        self.annotations = annotations
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { date == nil && place == nil && annotations == nil }

    /// Whether the edit changes the EXIF block (a date or a place).
    public var changesExif: Bool { date != nil || place != nil }
}
