import ImageCodecs

// How the album store and the library index write header metadata to SQLite
// columns, and read it back.

extension ImageFormat {
    /// The format stored under `identifier`: the registered one, or a
    /// stand-in that keeps the identifier when no decoder for it is registered.
    static func stored(_ identifier: String) -> ImageFormat {
        ImageCodecRegistry.shared.decodableFormats.first { $0.identifier == identifier }
            ?? ImageFormat(identifier: identifier, mediaType: "application/octet-stream", fileExtensions: [identifier])
    }
}

extension ImageFormat {
    /// The video format stored under `identifier`, MP4 for one PhotoDeck does not list.
    static func storedVideo(_ identifier: String) -> ImageFormat {
        videoFormats.first { $0.identifier == identifier } ?? .mp4
    }
}

extension CaptureDate {
    /// A capture date stored as EXIF text (``exifDateTime``) and an offset in seconds.
    static func stored(_ text: String?, utcOffsetSeconds: Int?) -> CaptureDate? {
        guard let text, let date = CaptureDate(exifDateTime: text) else { return nil }
        return CaptureDate(
            year: date.year, month: date.month, day: date.day, hour: date.hour, minute: date.minute, second: date.second,
            utcOffsetSeconds: utcOffsetSeconds)
    }
}
