import CHeif
import Foundation

/// AVIF encoding through libheif with libaom (Debian's libheif1 and
/// libaom3).
///
/// ```swift
/// var options = EncodeOptions(quality: 60)
/// options.speed = 6
/// let avif = try bitmap.encoded(as: .avif, options: options)
/// ```
///
/// Pixels are written as 8-bit 4:2:0 (4:4:4 for ``EncodeOptions/quality``
/// 100) with an sRGB `nclx` colour box (full range, BT.601 matrix), alpha
/// as an auxiliary image, and ``EncodeOptions/exif`` as an `Exif` item.
/// libaom runs its own worker threads inside the call (two per core); the
/// call itself blocks the thread it runs on, which is why renditions and
/// shares call encoders on ImageWorkers.
public struct AVIFEncoder: ImageEncoding {
    /// Creates the encoder.
    public init() {}

    public var format: ImageFormat { .avif }

    /// The largest side AV1 (and libaom) accepts.
    public static let maxDimension = 65_536

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8] {
        try options.validate()
        guard bitmap.width <= Self.maxDimension, bitmap.height <= Self.maxDimension else {
            throw .encodingFailed(format: .avif, message: "AV1 holds at most \(Self.maxDimension) pixels a side; the bitmap is \(bitmap.size)")
        }
        let source = bitmap.pixelFormat == .gray8 ? bitmap.converted(to: .rgb8) : bitmap
        guard let context = heif_context_alloc() else { throw .encodingFailed(format: .avif, message: "libheif could not allocate a context") }
        defer { heif_context_free(context) }

        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder), "finding an AV1 encoder")
        guard let encoder else { throw .noEncoder(format: .avif) }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(options.quality)), "setting the quality")
        try check(heif_encoder_set_parameter(encoder, "speed", String(options.speed)), "setting the speed")
        try check(heif_encoder_set_parameter(encoder, "chroma", options.quality == 100 ? "444" : "420"), "setting the chroma")
        try check(heif_encoder_set_parameter(encoder, "threads", String(Self.threadCount)), "setting the threads")

        let image = try makeImage(source)
        defer { heif_image_release(image) }
        if let nclx = heif_nclx_color_profile_alloc() {
            defer { heif_nclx_color_profile_free(nclx) }
            nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
            nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
            nclx.pointee.full_range_flag = 1
            try check(heif_image_set_nclx_color_profile(image, nclx), "setting the colour")
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, nil, &handle), "encoding")
        defer { heif_image_handle_release(handle) }
        if let exif = options.exif {
            // libheif finds the TIFF header and writes the 4-byte offset to it that HEIF requires.
            let added = exif.tiffData.withUnsafeBytes { bytes in heif_context_add_exif_metadata(context, handle, bytes.baseAddress, Int32(bytes.count)) }
            try check(added, "adding the EXIF")
        }
        return try HEIFWriting.bytes(of: context)
    }

    /// An interleaved 8-bit RGB(A) libheif image holding `bitmap`'s pixels.
    private func makeImage(_ bitmap: Bitmap) throws(ImageCodecError) -> OpaquePointer {
        let hasAlpha = bitmap.pixelFormat == .rgba8
        var image: OpaquePointer?
        try check(
            heif_image_create(
                Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                &image), "allocating the image")
        guard let image else { throw .encodingFailed(format: .avif, message: "libheif could not allocate the image") }
        do {
            try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8), "allocating the plane")
        } catch {
            heif_image_release(image)
            throw error
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride), stride > 0 else {
            heif_image_release(image)
            throw .encodingFailed(format: .avif, message: "libheif gave no plane")
        }
        let rowBytes = bitmap.width * bitmap.pixelFormat.bytesPerPixel
        bitmap.withUnsafeBytes { pixels in
            for row in 0..<bitmap.height {
                (plane + row * Int(stride)).update(
                    from: pixels.baseAddress!.advanced(by: row * bitmap.bytesPerRow).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        return image
    }

    /// libaom's worker threads for one encode: two per core, at least 4
    /// and at most 16 (libheif's limit).
    ///
    /// libaom splits a still picture into superblock rows that wait on the
    /// row above (row-based multithreading); with one thread per core a
    /// core idles whenever its row waits. On 2 cores, 4 threads encoded a
    /// 1920x1280 photo 6% faster than 2 (interleaved runs,
    /// `make bench NAME=avif`), with byte-identical output.
    static var threadCount: Int {
        min(16, max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
    }

    private func check(_ error: heif_error, _ step: String) throws(ImageCodecError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw .encodingFailed(format: .avif, message: "\(message) (\(step))")
    }
}
