import ImageCodecs

extension ShotRecord {
    /// The shot of the photo file at `path` as stacking reads it: its EXIF
    /// header (camera, capture time with subseconds, `ImageUniqueID`, an iPhone's burst),
    /// nothing when the header cannot be read. Blocking (a bounded header
    /// read): call it off Swift's cooperative pool.
    init(fileAt path: String, name: String, key: String, format: ImageFormat) {
        let exif = try? ExifMetadata(readingFileAt: path)
        let facts = exif.map(HeaderFacts.init) ?? HeaderFacts()
        var instant = exif?.captureDate.map { $0.date.timeIntervalSince1970 }
        if let seconds = instant, let fraction = facts.subseconds { instant = seconds + fraction }
        self.init(
            key: key, name: name, format: format.identifier, camera: facts.camera, instant: instant, uniqueID: facts.uniqueID, burstID: facts.burstID)
    }
}
