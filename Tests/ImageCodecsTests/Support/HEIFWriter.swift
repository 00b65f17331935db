import CHeif
import Foundation
import ImageCodecs

/// Writes HEIC and AVIF files with libheif's encoder (x265, libaom), for
/// tests: the container's orientation (`irot`/`imir`), an EXIF block, a
/// colour profile or `nclx` code points, a thumbnail, alpha.
enum HEIFWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Options {
        var avif = false
        var lossless = false
        var quality = 90
        /// EXIF-style orientation written as `irot`/`imir` (1...8).
        var containerOrientation = 1
        /// A TIFF-header EXIF block to attach.
        var exif: [UInt8]?
        var iccProfile: [UInt8]?
        var nclx: (primaries: UInt16, transfer: UInt16)?
        var thumbnailSize: Int?
    }

    static func check(_ error: heif_error, _ step: String) throws {
        guard error.code == heif_error_Ok else {
            throw Failure(description: "\(step): \(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")")
        }
    }

    /// `bitmap` as a photo in `format`: HEIC and AVIF through libheif with an
    /// EXIF item (orientation up, as cameras write one), the others through
    /// ImageCodecs at quality 90.
    static func photo(_ bitmap: Bitmap, as format: ImageFormat) throws -> [UInt8] {
        guard format == .heic || format == .avif else { return try bitmap.encoded(as: format, options: EncodeOptions(quality: 90)) }
        return try encode(bitmap, Options(avif: format == .avif, exif: ExifMetadata(orientation: .up).tiffData))
    }

    /// Encodes `bitmap` (RGB or RGBA).
    static func encode(_ bitmap: Bitmap, _ options: Options = Options()) throws -> [UInt8] {
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, options.avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        if options.lossless {
            try check(heif_encoder_set_lossless(encoder, 1), "lossless")
        } else {
            try check(heif_encoder_set_lossy_quality(encoder, Int32(options.quality)), "quality")
        }
        let alpha = bitmap.pixelFormat == .rgba8
        var image: OpaquePointer?
        try check(
            heif_image_create(
                Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image),
            "image")
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8), "plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw Failure(description: "no plane") }
        let rowBytes = bitmap.width * bitmap.pixelFormat.bytesPerPixel
        bitmap.withUnsafeBytes { pixels in
            for row in 0..<bitmap.height {
                (plane + row * Int(stride)).update(from: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * bitmap.bytesPerRow, count: rowBytes)
            }
        }
        if let icc = options.iccProfile {
            try icc.withUnsafeBytes { try check(heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count), "icc") }
        }
        if let codes = options.nclx { try setCodePoints(codes, on: image) }
        guard let encoding = heif_encoding_options_alloc() else { throw Failure(description: "no options") }
        defer { heif_encoding_options_free(encoding) }
        encoding.pointee.image_orientation = heif_orientation(rawValue: UInt32(options.containerOrientation))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, encoding, &handle), "encode")
        defer { heif_image_handle_release(handle) }
        if let size = options.thumbnailSize {
            var thumbnail: OpaquePointer?
            try check(heif_context_encode_thumbnail(context, image, handle, encoder, encoding, Int32(size), &thumbnail), "thumbnail")
            heif_image_handle_release(thumbnail)
        }
        if let exif = options.exif {
            try exif.withUnsafeBytes { try check(heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)), "exif") }
        }
        return try written(context)
    }

    /// Marks `image` with `nclx` code points (matrix BT.601, full range).
    static func setCodePoints(_ codes: (primaries: UInt16, transfer: UInt16), on image: OpaquePointer?) throws {
        guard let nclx = heif_nclx_color_profile_alloc() else { throw Failure(description: "no nclx profile") }
        defer { heif_nclx_color_profile_free(nclx) }
        try check(heif_nclx_color_profile_set_color_primaries(nclx, codes.primaries), "primaries")
        try check(heif_nclx_color_profile_set_transfer_characteristics(nclx, codes.transfer), "transfer")
        try check(heif_nclx_color_profile_set_matrix_coefficients(nclx, 6), "matrix")
        nclx.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(image, nclx), "nclx")
    }

    /// The file `context` holds.
    static func written(_ context: OpaquePointer) throws -> [UInt8] {
        try HEIFWriting.bytes(of: context)
    }
}

extension HEIFWriter {
    /// A 10-bit HEIC of one grey `value` (0...1023).
    static func encodeTenBit(width: Int, height: Int, value: UInt16) throws -> [UInt8] {
        try encodeDeep(width: width, height: height, samples: [UInt16](repeating: value, count: width * height * 3))
    }

    /// A `bits`-deep RGB picture of `samples` (three per pixel, row by row),
    /// as HEIC or AVIF, with `nclx` code points (matrix BT.601, full range)
    /// and a content light level when given. Debian 12's libaom 3.6 asserts
    /// on 10-bit AVIF (libheif asks for profile 2 without 4:2:2): AVIF takes 12 bits.
    static func encodeDeep(
        width: Int, height: Int, samples: [UInt16], bits: Int = 10, avif: Bool = false, nclx codes: (primaries: UInt16, transfer: UInt16)? = nil,
        maxContentLightLevel: UInt16? = nil
    ) throws -> [UInt8] {
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 95), "quality")
        var image: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RRGGBB_LE, &image), "image")
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), Int32(bits)), "plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw Failure(description: "no plane") }
        for row in 0..<height {
            for index in 0..<width * 3 {
                let value = samples[row * width * 3 + index]
                (plane + row * Int(stride) + index * 2).pointee = UInt8(value & 0xFF)
                (plane + row * Int(stride) + index * 2 + 1).pointee = UInt8(value >> 8)
            }
        }
        if let codes { try setCodePoints(codes, on: image) }
        if let maxContentLightLevel {
            var level = heif_content_light_level(max_content_light_level: maxContentLightLevel, max_pic_average_light_level: maxContentLightLevel / 4)
            heif_image_set_content_light_level(image, &level)
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, nil, &handle), "encode")
        heif_image_handle_release(handle)
        return try written(context)
    }
}
