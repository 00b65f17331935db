public import ImageCodecs
import SystemSupport

/// What an information panel shows about a photo: its size, format and
/// file size, when it was taken, and what the camera recorded (camera,
/// lens, exposure, position). Read from the photo's header: no pixels are
/// decoded.
///
/// ```swift
/// let details = await photo.details()
/// print(details.exif.camera ?? "camera not recorded", details.captureDate?.exifDateTime ?? "")
/// ```
public struct PhotoDetails: Hashable, Sendable {
    /// The size in pixels, upright.
    public var displaySize: PixelSize
    /// The file's format, when the photo's bytes could be read.
    public var format: ImageFormat?
    /// The encoded size in bytes, when known.
    public var byteCount: Int?
    /// When it was taken (EXIF `DateTimeOriginal`), when recorded.
    public var captureDate: CaptureDate?
    /// The camera, lens, exposure and position.
    public var exif: ExifDetails

    /// Details of a photo whose bytes could not be read: its size only.
    public init(displaySize: PixelSize, format: ImageFormat? = nil, byteCount: Int? = nil, captureDate: CaptureDate? = nil, exif: ExifDetails = ExifDetails()) {
        self.displaySize = displaySize
        self.format = format
        self.byteCount = byteCount
        self.captureDate = captureDate
        self.exif = exif
    }
}

extension BrowserPhoto {
    /// The photo's details, read from its file's or bytes' header on
    /// ImageCodecs' threads. A photo rendered elsewhere (the network), or
    /// whose header cannot be read, has its size only: reading details
    /// never fails.
    public func details() async -> PhotoDetails {
        let size = displaySize
        let source: any ByteSource
        switch self.source {
        case .file(let path):
            guard let file = try? FileByteSource(path: path) else { return PhotoDetails(displaySize: size) }
            source = file
        case .encoded(let bytes): source = MemoryByteSource(bytes)
        case .rendered: return PhotoDetails(displaySize: size)
        }
        return await ImageWorkers.shared.run {
            let info = try? ImageCodecRegistry.shared.probe(source)
            let exif = (try? ExifMetadata(readingHeaderOf: source)) ?? nil
            return PhotoDetails(
                displaySize: size, format: info?.format, byteCount: source.count, captureDate: info?.captureDate, exif: exif?.details ?? ExifDetails())
        }
    }
}
