import CHEVCDecoder
import CHeif
import Foundation

/// An open HEIF container (HEIC, AVIF) read through libheif: the context,
/// the primary image's handle, and what the container says about it. The
/// bytes are read on demand from a ``ByteSource``, so a probe reads the
/// boxes, not the coded image.
final class HEIFFile {
    let format: ImageFormat
    let context: OpaquePointer
    let primary: OpaquePointer
    /// The items as the container declares them (read before libheif sees
    /// the file); `nil` for a probe, which reads boxes on demand.
    let declared: HEIFItems?
    /// The on-demand reader (probe), kept alive as long as the context.
    private let reader: UnsafeMutablePointer<heif_reader>?
    private let state: Unmanaged<ReaderState>?

    /// Where the reader is in the source.
    private final class ReaderState {
        let source: any ByteSource
        var position: Int64 = 0
        init(_ source: any ByteSource) { self.source = source }
    }

    /// Opens the container in memory that the caller keeps alive (and
    /// unchanged) for as long as this file: for decoding, where libheif may
    /// read tiles from several threads.
    ///
    /// Before libheif reads it, every image the container declares (the
    /// primary, a grid's canvas and tiles, thumbnails, alpha and depth
    /// images) is checked against `limits` (``HEIFItems``): libheif 1.15
    /// allocates a grid's canvas from the grid's own data, which it checks
    /// against no limit. libheif's own size limit is set from `limits` too.
    init(memory: UnsafeRawBufferPointer, format: ImageFormat, limits: ImageLimits) throws(ImageCodecError) {
        self.format = format
        let items = try HEIFItems(reading: UnsafeMemoryByteSource(memory), format: format)
        try Self.check(items, against: limits, format: format)
        declared = items
        guard let context = heif_context_alloc() else { throw .corrupt(format: format, message: "libheif could not allocate a context") }
        reader = nil
        state = nil
        // libheif refuses an ispe side above this, and a grid side at or above it.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxDimension + 1))
        let read = heif_context_read_from_memory_without_copy(context, memory.baseAddress, memory.count, nil)
        do {
            primary = try Self.primaryHandle(context, read: read, format: format)
        } catch {
            heif_context_free(context)  // deinit does not run for a failed init
            throw error
        }
        self.context = context
    }

    /// Opens the container in `source`, reading boxes on demand: for a
    /// probe, which reads no coded image data.
    init(_ source: any ByteSource, format: ImageFormat) throws(ImageCodecError) {
        self.format = format
        declared = nil
        guard let context = heif_context_alloc() else { throw .corrupt(format: format, message: "libheif could not allocate a context") }
        let state = Unmanaged.passRetained(ReaderState(source))
        let reader = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        self.state = state
        self.reader = reader
        reader.initialize(
            to: heif_reader(
                reader_api_version: 1,
                get_position: { userdata in Unmanaged<ReaderState>.fromOpaque(userdata!).takeUnretainedValue().position },
                read: { data, size, userdata in
                    let state = Unmanaged<ReaderState>.fromOpaque(userdata!).takeUnretainedValue()
                    if size == 0 { return 0 }
                    guard let data, let bytes = try? state.source.bytes(at: Int(state.position), length: size), bytes.count == size else { return 1 }
                    bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: size) }
                    state.position += Int64(size)
                    return 0
                },
                seek: { position, userdata in
                    let state = Unmanaged<ReaderState>.fromOpaque(userdata!).takeUnretainedValue()
                    guard position >= 0, position <= Int64(state.source.count) else { return 1 }
                    state.position = position
                    return 0
                },
                wait_for_file_size: { target, userdata in
                    let state = Unmanaged<ReaderState>.fromOpaque(userdata!).takeUnretainedValue()
                    return target <= Int64(state.source.count) ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
                }))
        // A probe decodes nothing, so it can report a size over any limit
        // (libheif's check at read time would refuse without saying it); the
        // decode opens the file again with its limits (init(memory:format:limits:)).
        heif_context_set_maximum_image_size_limit(context, Int32.max)
        let read = heif_context_read_from_reader(context, reader, state.toOpaque(), nil)
        do {
            primary = try Self.primaryHandle(context, read: read, format: format)
        } catch {
            heif_context_free(context)  // deinit does not run for a failed init
            reader.deinitialize(count: 1)
            reader.deallocate()
            state.release()
            throw error
        }
        self.context = context
    }

    /// The primary image's handle after a read.
    private static func primaryHandle(_ context: OpaquePointer, read: heif_error, format: ImageFormat) throws(ImageCodecError) -> OpaquePointer {
        guard read.code == heif_error_Ok else { throw Self.error(read, format: format, while: "reading the container") }
        var handle: OpaquePointer?
        let found = heif_context_get_primary_image_handle(context, &handle)
        guard found.code == heif_error_Ok, let handle else { throw Self.error(found, format: format, while: "finding the primary image") }
        return handle
    }

    deinit {
        heif_image_handle_release(primary)
        heif_context_free(context)
        reader?.deinitialize(count: 1)
        reader?.deallocate()
        state?.release()
    }

    /// The primary image's size after the container's own transforms
    /// (`irot`, `imir`, `clap`), which libheif applies on decode.
    var size: PixelSize { PixelSize(width: Int(heif_image_handle_get_width(primary)), height: Int(heif_image_handle_get_height(primary))) }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(primary) != 0 }
    var bitDepth: Int { max(Int(heif_image_handle_get_luma_bits_per_pixel(primary)), 8) }

    /// The EXIF block (`Exif` item: a 4-byte offset, then the TIFF header).
    var exif: ExifMetadata? {
        var ids = [heif_item_id](repeating: 0, count: 4)
        let count = heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &ids, Int32(ids.count))
        guard count > 0 else { return nil }
        let size = heif_image_handle_get_metadata_size(primary, ids[0])
        guard size > 4, size <= 1 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard bytes.withUnsafeMutableBytes({ heif_image_handle_get_metadata(primary, ids[0], $0.baseAddress).code }) == heif_error_Ok else { return nil }
        let offset = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard offset >= 0, 4 + offset < bytes.count else { return nil }
        return ExifMetadata(bytes: Array(bytes[(4 + offset)...]))
    }

    /// The colour of the primary image: its `colr` ICC profile, else its
    /// `nclx` code points, else sRGB.
    var color: EmbeddedColor {
        let size = heif_image_handle_get_raw_color_profile_size(primary)
        if size > 0, size <= ColorProfile.maxByteCount {
            var bytes = [UInt8](repeating: 0, count: size)
            if bytes.withUnsafeMutableBytes({ heif_image_handle_get_raw_color_profile(primary, $0.baseAddress).code }) == heif_error_Ok {
                return EmbeddedColor(icc: bytes, source: "\(format) colr")
            }
        }
        guard let codes = Self.codePoints(of: primary) else { return .sRGB }
        // HDR (PQ, HLG) is tone-mapped to sRGB as it is read (HEIFPicture).
        if HDRToneMap.supports(transfer: codes.transfer, primaries: codes.primaries) { return .sRGB }
        let built = ColorProfile.fromCodePoints(primaries: codes.primaries, transfer: codes.transfer)
        return EmbeddedColor(profile: built.profile, warnings: built.warning.map { [$0] } ?? [])
    }

    /// The `nclx` colour primaries and transfer characteristics of `handle`, if it has them.
    static func codePoints(of handle: OpaquePointer) -> (primaries: Int, transfer: Int)? {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let found = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        // libheif 1.15 allocates the profile even when it then reports an error.
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        guard found.code == heif_error_Ok, let nclx else { return nil }
        return (Int(nclx.pointee.color_primaries.rawValue), Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// `handle`'s code points when they are HDR ones PhotoDeck tone-maps (PQ
    /// or HLG with BT.709, BT.2020 or Display P3 primaries) and no ICC
    /// profile overrides them.
    static func hdrCodePoints(of handle: OpaquePointer) -> (primaries: Int, transfer: Int)? {
        guard heif_image_handle_get_raw_color_profile_size(handle) == 0, let codes = codePoints(of: handle),
            HDRToneMap.supports(transfer: codes.transfer, primaries: codes.primaries)
        else { return nil }
        return codes
    }

    /// The thumbnails' handles with their sizes (caller releases each).
    func thumbnails() -> [(handle: OpaquePointer, size: PixelSize)] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let found = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
        return ids.prefix(found).compactMap { id in
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { return nil }
            return (handle, PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle))))
        }
    }

    /// HEVC through libde265 on worker threads (PhotoDeck's plugin), registered once.
    private static let threadedHEVC: Void = pd_hevc_register(Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)))

    /// Which HEVC decoder libheif uses.
    enum HEVCDecoder {
        /// PhotoDeck's plugin: libde265 with worker threads (the default).
        case threaded
        /// libheif's own libde265 plugin, on one thread: the fallback when
        /// the threaded one fails, and the reference in tests.
        case builtIn
    }

    /// Decodes `handle` (the primary or a thumbnail) into libheif's own
    /// buffer, read out as 8-bit RGB(A) by ``HEIFPicture`` (HDR tone-mapped
    /// to sRGB), with the
    /// container's transforms applied. `threads` tiles decode in parallel
    /// (grid images). A failure of the threaded HEVC decoder is retried with
    /// libheif's own.
    func picture(_ handle: OpaquePointer, threads: Int, hevc: HEVCDecoder = .threaded) throws(ImageCodecError) -> HEIFPicture {
        Self.threadedHEVC
        do {
            return try decodeOnce(handle, threads: threads, hevc: hevc)
        } catch {
            guard hevc == .threaded, format == .heic else { throw error }
            return try decodeOnce(handle, threads: threads, hevc: .builtIn)
        }
    }

    private func decodeOnce(_ handle: OpaquePointer, threads: Int, hevc: HEVCDecoder) throws(ImageCodecError) -> HEIFPicture {
        heif_context_set_max_decoding_threads(context, Int32(threads))
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        let chroma: heif_chroma =
            switch (alpha, deep) {
            case (false, false): heif_chroma_interleaved_RGB
            case (true, false): heif_chroma_interleaved_RGBA
            case (false, true): heif_chroma_interleaved_RRGGBB_LE
            case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
            }
        guard let options = heif_decoding_options_alloc() else { throw .corrupt(format: format, message: "libheif could not allocate options") }
        defer { heif_decoding_options_free(options) }
        if hevc == .builtIn { options.pointee.decoder_id = pd_hevc_builtin_decoder_id }
        var image: OpaquePointer?
        let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
        guard decoded.code == heif_error_Ok, let image else {
            // libheif may hand back an image with an error: it is ours to release.
            if let image { heif_image_release(image) }
            throw Self.error(decoded, format: format, while: "decoding")
        }
        guard let picture = HEIFPicture(image, alpha: alpha, deep: deep, hdr: Self.hdrCodePoints(of: handle)) else {
            throw .corrupt(format: format, message: "libheif returned no pixels")
        }
        // What was decoded must be what was declared (and checked against the limits).
        let declared = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        guard picture.size == declared else {
            throw .corrupt(format: format, message: "the image decoded to \(picture.size), but the container declares \(declared)")
        }
        return picture
    }

    /// The ``ImageCore/ImageCodecError`` for a libheif error.
    static func error(_ error: heif_error, format: ImageFormat, while step: String) -> ImageCodecError {
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Invalid_input where error.subcode == heif_suberror_End_of_data:
            return .truncated(format: format, detail: "\(message) while \(step)")
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            return .unsupportedFeature(format: format, feature: "\(message) (while \(step))")
        case heif_error_Memory_allocation_error where error.subcode == heif_suberror_Security_limit_exceeded:
            return .corrupt(format: format, message: "\(message) while \(step)")
        default:
            return .corrupt(format: format, message: "\(message) while \(step)")
        }
    }
}
