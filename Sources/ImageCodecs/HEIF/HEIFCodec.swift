import CHeif
import Execution

/// HEIF images, HEIC (HEVC, what iPhones write) and AVIF (AV1), decoded
/// through libheif (libde265 and dav1d or libaom underneath).
///
/// The primary image decodes to 8-bit RGB, or RGBA when it has alpha; 10-
/// and 12-bit images are rounded to 8 bits. HDR images (a `colr nclx` box
/// with PQ or HLG transfer, what cameras' "HEIF HDR" and HDR AVIF carry)
/// are tone-mapped to sRGB from their full depth: reference white (203
/// cd/m²) near sRGB white, highlights rolled off by the BT.2390 EETF from
/// the stated content light level (else 1,000 cd/m²), BT.2020 or Display P3
/// converted to BT.709. Grid images decode their tiles
/// on both cores when the caller may block (not inside a Swift task). The
/// container's own `irot`/`imir`/`clap` transforms are applied by libheif,
/// so an EXIF orientation inside a HEIF is never applied again (its tag is
/// reset to 1). A target size uses the embedded thumbnail when one covers
/// it; otherwise the full image is decoded and shrunk by averaging whole
/// blocks (2x2 ... 8x8, never below the target: the HEIF counterpart of
/// JPEG's DCT scaling), and a rendition resamples the rest.
/// Encoding is not offered.
public struct HEIFCodec: ImageDecoding {
    public let format: ImageFormat

    /// A decoder for HEIC (`.heic`) or AVIF (`.avif`).
    public init(format: ImageFormat = .heic) {
        self.format = format
    }

    public var signatureLength: Int { 64 }

    /// The `ftyp` brands of each format: HEIC's image and sequence brands
    /// (and the generic `mif1`/`msf1` when no AV1 brand is listed), AVIF's.
    static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
    static let avifBrands: Set<String> = ["avif", "avis"]

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool {
        guard let brands = Self.brands(leadingBytes) else { return false }
        let isAVIF = !brands.isDisjoint(with: Self.avifBrands)
        return format == .avif ? isAVIF : !isAVIF && !brands.isDisjoint(with: Self.heicBrands)
    }

    /// The major and compatible brands of a leading `ftyp` box.
    static func brands(_ bytes: ArraySlice<UInt8>) -> Set<String>? {
        let bytes = Array(bytes)
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard boxSize >= 16 else { return nil }
        var brands: Set<String> = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= min(boxSize, bytes.count) {
            brands.insert(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        return brands
    }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let file = try HEIFFile(source, format: format)
        let exif = file.exif
        return ImageInfo(
            format: format, size: file.size, orientation: .up, hasAlpha: file.hasAlpha, bitDepth: file.bitDepth,
            captureDate: exif?.captureDate, isAnimated: false)
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let result: Result<DecodedImage, ImageCodecError> = data.withUnsafeBytes { memory in
            do throws(ImageCodecError) {
                return .success(try decode(memory, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func decode(_ memory: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let (file, plan, picture) = try open(memory, options: options)
        let factor = plan.wantsScaling ? picture.shrinkFactor(keeping: plan.requiredStoredSize) : 1
        return withExtendedLifetime(file) { plan.finish(picture.bitmap(shrinkingBy: factor), warnings: [], options: options) }
    }

    /// Opens the container, plans the decode and decodes the picture that
    /// serves it: the smallest thumbnail that covers the target (with the
    /// primary's aspect ratio), else the primary image.
    private func open(_ memory: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageCodecError) -> (HEIFFile, DecodePlan, HEIFPicture) {
        let file = try HEIFFile(memory: memory, format: format, limits: options.limits)
        // libheif has already applied irot/imir: the EXIF orientation is informational.
        let plan = try DecodePlan(format: format, storedSize: file.size, exif: file.exif, color: file.color, options: options, appliesExifOrientation: false)
        // libheif's decoder threads count against the process's image threads:
        // a second one only when the budget has it (the caller waits meanwhile).
        let extra = ParallelWork.mayBlock() ? ThreadBudget.shared.reserve(upTo: 1) : 0
        defer { ThreadBudget.shared.release(extra) }
        let threads = 1 + extra
        var thumbnails = plan.wantsScaling ? file.thumbnails() : []
        defer { for thumbnail in thumbnails { heif_image_handle_release(thumbnail.handle) } }
        thumbnails.sort { $0.size.pixelCount < $1.size.pixelCount }
        let required = plan.requiredStoredSize
        let aspect = Double(file.size.width) / Double(file.size.height)
        let covering = thumbnails.first { thumbnail in
            thumbnail.size.width >= required.width && thumbnail.size.height >= required.height
                && abs(Double(thumbnail.size.width) / Double(thumbnail.size.height) - aspect) < 0.02 * aspect
        }
        return (file, plan, try file.picture(covering?.handle ?? file.primary, threads: threads))
    }
}

extension HEIFCodec: RowDecoding {
    /// Streams the decoded picture's rows into a rendition instead of copying it whole first.
    func rowSource(for data: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(ImageCodecError) -> StreamingDecode? {
        let (file, plan, picture) = try open(UnsafeRawBufferPointer(data), options: options)
        let factor = plan.wantsScaling ? picture.shrinkFactor(keeping: plan.requiredStoredSize) : 1
        return StreamingDecode(source: HEIFRowSource(file: file, picture: picture, factor: factor), plan: plan)
    }
}

extension ImageFormat {
    /// HEIC: HEIF with HEVC-coded images (what iPhones write), decoded through libheif.
    public static let heic = ImageFormat(identifier: "heic", mediaType: "image/heic", fileExtensions: ["heic", "heif", "hif"])
    /// AVIF: HEIF with AV1-coded images, decoded through libheif.
    public static let avif = ImageFormat(identifier: "avif", mediaType: "image/avif", fileExtensions: ["avif"])
}
