import CLibRaw
import Foundation
import ImageCore

/// A raw file opened by LibRaw (its header read, nothing decoded), alive
/// only inside ``open(bytes:_:)`` or ``open(_:_:)``: the handle is closed,
/// and a buffer LibRaw reads from released, when the call returns.
final class LibRawFile {
    private let handle: UnsafeMutablePointer<libraw_data_t>

    private init(handle: UnsafeMutablePointer<libraw_data_t>) {
        self.handle = handle
    }

    /// Opens the raw file in `bytes` and calls `body` with it.
    static func open<T>(bytes: [UInt8], _ body: (LibRawFile) throws(ImageCodecError) -> T) throws(ImageCodecError) -> T {
        // withUnsafeBytes rethrows untyped errors: the typed one travels in a Result.
        let result = bytes.withUnsafeBytes { buffer -> Result<T, ImageCodecError> in
            guard let base = buffer.baseAddress else { return .failure(.truncated(format: .cameraRAW, detail: "the data is empty")) }
            do throws(ImageCodecError) {
                return .success(try withHandle(body) { handle in libraw_open_buffer(handle, UnsafeMutableRawPointer(mutating: base), buffer.count) })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Opens the raw file in `source` and calls `body` with it. A file is
    /// read by LibRaw through the descriptor already open (its
    /// `/proc/self/fd` name: the file that was opened, wherever its path
    /// now leads), only as far as its header; other sources are read
    /// whole, up to ``maxBytes``.
    static func open<T>(_ source: any ByteSource, _ body: (LibRawFile) throws(ImageCodecError) -> T) throws(ImageCodecError) -> T {
        if let file = source as? FileByteSource {
            return try withExtendedLifetime(file) { () throws(ImageCodecError) -> T in
                try withHandle(body) { handle in libraw_open_file(handle, "/proc/self/fd/\(file.descriptor)") }
            }
        }
        guard source.count <= maxBytes else {
            throw .unsupportedFeature(format: .cameraRAW, feature: "a raw file of \(source.count) bytes (the limit is \(maxBytes))")
        }
        return try open(bytes: source.bytes(at: 0, length: source.count), body)
    }

    /// The most bytes of a raw file read into memory (the largest sensors'
    /// files are about 200 MB).
    static let maxBytes = 512 << 20

    private static func withHandle<T>(
        _ body: (LibRawFile) throws(ImageCodecError) -> T, opening: (UnsafeMutablePointer<libraw_data_t>) -> Int32
    ) throws(ImageCodecError) -> T {
        // No callbacks: LibRaw's defaults print data and memory errors to stderr.
        let flags = LIBRAW_OPIONS_NO_MEMERR_CALLBACK.rawValue | LIBRAW_OPIONS_NO_DATAERR_CALLBACK.rawValue
        guard let handle = libraw_init(UInt32(flags)) else { throw .unsupportedFeature(format: .cameraRAW, feature: "a raw file now: LibRaw could not start") }
        defer { libraw_close(handle) }
        try check(opening(handle), step: "reading the header")
        return try body(LibRawFile(handle: handle))
    }

    /// The picture's size in stored orientation: the sensor's image area
    /// (margins left out) as LibRaw develops it.
    var pictureSize: PixelSize {
        PixelSize(width: Int(handle.pointee.sizes.width), height: Int(handle.pointee.sizes.height))
    }

    /// The sensor data's size, margins included: what unpacking allocates.
    var sensorSize: PixelSize {
        PixelSize(width: Int(handle.pointee.sizes.raw_width), height: Int(handle.pointee.sizes.raw_height))
    }

    /// The orientation the camera recorded, from LibRaw's `flip` (bit 1:
    /// mirror left-right, bit 2: upside down, bit 4: transpose).
    var orientation: ImageOrientation {
        // LibRaw's flip for EXIF orientations 1...8 is "50132467"[value & 7]; this is its inverse.
        let exifValue = [1, 2, 4, 3, 5, 8, 6, 7]
        let flip = Int(handle.pointee.sizes.flip)
        return (0..<8).contains(flip) ? ImageOrientation(exifValue: exifValue[flip]) : .up
    }

    /// The capture time LibRaw read (for the raw files whose header
    /// PhotoDeck does not parse itself: RAF, CR3). LibRaw turns the
    /// camera's clock reading into seconds with the local zone; turning
    /// them back with the same zone gives the clock reading again.
    var captureDate: CaptureDate? {
        let seconds = handle.pointee.other.timestamp
        // Later than 1970 and before 2200: anything else is not a camera's clock.
        guard seconds > 0, seconds < 7_258_118_400 else { return nil }
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        guard let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour, let minute = parts.minute,
            let second = parts.second
        else { return nil }
        return CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The camera's embedded preview (a JPEG, or 8-bit RGB), when it is at
    /// least `size` in stored orientation; `nil` when there is none that
    /// large or it cannot be read (the sensor data is developed instead).
    func preview(covering size: PixelSize, limits: ImageLimits) throws(ImageCodecError) -> Bitmap? {
        let thumbnail = handle.pointee.thumbnail
        guard Int(thumbnail.twidth) >= size.width, Int(thumbnail.theight) >= size.height else { return nil }
        guard libraw_unpack_thumb(handle) == LIBRAW_SUCCESS.rawValue else { return nil }
        let unpacked = handle.pointee.thumbnail
        guard let data = unpacked.thumb, unpacked.tlength > 0 else { return nil }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: Int(unpacked.tlength)))
        switch unpacked.tformat {
        case LIBRAW_THUMBNAIL_JPEG:
            // The preview's own EXIF (if any) is not the raw file's: its stored pixels are taken as they are.
            let options = DecodeOptions(targetSize: .fitting(size), appliesOrientation: false, limits: limits, prefersFastScaling: true)
            guard let decoded = try? JPEGCodec().decode(bytes, options: options) else { return nil }
            let bitmap = decoded.bitmap
            return bitmap.width >= size.width && bitmap.height >= size.height ? bitmap : nil
        case LIBRAW_THUMBNAIL_BITMAP:
            let (width, height) = (Int(unpacked.twidth), Int(unpacked.theight))
            guard unpacked.tcolors == 3, bytes.count == width * height * 3 else { return nil }
            return Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8, pixels: bytes)
        default:
            return nil
        }
    }

    /// The sensor data developed to 8-bit sRGB in stored orientation:
    /// the camera's white balance, AHD demosaicing (or, at `halfSize`, one
    /// pixel per 2x2 block), sRGB primaries and tone curve.
    func develop(halfSize: Bool) throws(ImageCodecError) -> Bitmap {
        omp_set_num_threads(1)
        handle.pointee.params.use_camera_wb = 1
        handle.pointee.params.output_color = 1  // sRGB primaries
        handle.pointee.params.output_bps = 8
        handle.pointee.params.user_flip = 0  // stored orientation: PhotoDeck applies the file's once
        handle.pointee.params.half_size = halfSize ? 1 : 0
        handle.pointee.params.gamm.0 = 1 / 2.4  // the sRGB curve (LibRaw's default is BT.709's)
        handle.pointee.params.gamm.1 = 12.92
        try Self.check(libraw_unpack(handle), step: "unpacking the sensor data")
        try Self.check(libraw_dcraw_process(handle), step: "developing the sensor data")
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(handle, &status) else {
            try Self.check(status, step: "making the picture")
            throw .corrupt(format: .cameraRAW, message: "LibRaw made no picture")
        }
        defer { libraw_dcraw_clear_mem(image) }
        let (width, height) = (Int(image.pointee.width), Int(image.pointee.height))
        let count = width * height * 3
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.colors == 3, image.pointee.bits == 8, width > 0, height > 0,
            Int(image.pointee.data_size) == count
        else {
            throw .corrupt(format: .cameraRAW, message: "LibRaw made a picture PhotoDeck does not read (\(width)x\(height), \(image.pointee.colors) colours)")
        }
        let pixels = withUnsafePointer(to: &image.pointee.data) { start in
            [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: count))
        }
        return Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8, pixels: pixels)
    }

    /// Throws the error a LibRaw result code stands for.
    private static func check(_ code: Int32, step: String) throws(ImageCodecError) {
        guard code != LIBRAW_SUCCESS.rawValue else { return }
        let message = String(cString: libraw_strerror(code))
        switch code {
        case LIBRAW_FILE_UNSUPPORTED.rawValue:
            throw .unsupportedFeature(format: .cameraRAW, feature: "this file (LibRaw: \(message); a TIFF that is not a camera's raw file?)")
        case LIBRAW_IO_ERROR.rawValue:
            throw .truncated(format: .cameraRAW, detail: "\(step): \(message)")
        case LIBRAW_TOO_BIG.rawValue, LIBRAW_UNSUFFICIENT_MEMORY.rawValue, LIBRAW_MEMPOOL_OVERFLOW.rawValue:
            throw .unsupportedFeature(format: .cameraRAW, feature: "a file this large (\(step): LibRaw: \(message))")
        default:
            throw .corrupt(format: .cameraRAW, message: "\(step): LibRaw: \(message)")
        }
    }
}
