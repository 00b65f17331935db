extension ImageFormat {
    /// A camera's raw file (DNG and the makers' own: CR2, CR3, NEF, ARW,
    /// ORF, RW2, RAF, PEF and the others LibRaw reads), decoded through
    /// LibRaw. One format for all of them: what PhotoDeck does with a raw
    /// file does not depend on the maker, and a stored copy keeps the
    /// extension it came with.
    public static let cameraRAW = ImageFormat(
        identifier: "raw", mediaType: "image/x-dcraw",
        fileExtensions: [
            "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "rwl", "raf", "pef", "srw", "3fr", "fff", "iiq",
            "erf", "kdc", "dcr", "mos", "mrw", "x3f",
        ])
}

/// Camera raw decoding through LibRaw (0.20 and later).
///
/// A raw file carries the sensor's data and, almost always, a JPEG the
/// camera made from it. The codec uses the cheaper of the two that is
/// large enough: a decode for a size the embedded preview covers (a
/// placeholder, a thumbnail, a signature, a sharpness measure, a screen)
/// decodes the preview; a larger one develops the sensor data (the
/// camera's white balance, LibRaw's AHD demosaicing at half size when that
/// still covers the request, sRGB primaries and the sRGB tone curve).
/// Either way the pixels come back in stored orientation with the file's
/// orientation applied once, as for every other format, and the EXIF
/// block (camera, capture time with subseconds, serial, `ImageUniqueID`,
/// place) is the file's own, read in Swift and rebuilt small.
///
/// The sizes LibRaw reads from the header are checked against
/// ``ImageCore/ImageLimits`` (the sensor's and the picture's) before any
/// pixel memory is allocated. LibRaw's OpenMP loops run on the calling
/// thread alone, never on threads of their own.
///
/// TIFF-based raw files start like any TIFF; PhotoDeck reads no plain TIFF,
/// so such a file is offered to this codec and refused with
/// ``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``.
public struct CameraRAWCodec: ImageDecoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .cameraRAW }
    public var signatureLength: Int { 16 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(leadingBytes)
        guard bytes.count >= 12 else { return false }
        if CameraRAWHeader.tiffMagic(bytes) != nil { return true }
        // Fujifilm's RAF, and Canon's CR3 (an ISO BMFF file of brand `crx `).
        if bytes.starts(with: Array("FUJIFILMCCD-RAW".utf8)) { return true }
        return Array(bytes[4..<12]) == Array("ftypcrx ".utf8)
    }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let exif = CameraRAWHeader.exif(of: source)
        return try LibRawFile.open(source) { file throws(ImageCodecError) in
            ImageInfo(
                format: .cameraRAW, size: file.pictureSize, orientation: file.orientation, hasAlpha: false, bitDepth: 16,
                captureDate: exif?.captureDate ?? file.captureDate)
        }
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let exif = CameraRAWHeader.exif(of: MemoryByteSource(data.prefix(CameraRAWHeader.headerBytes)))
        return try LibRawFile.open(bytes: data) { file throws(ImageCodecError) in
            try options.limits.check(file.sensorSize, format: .cameraRAW)
            let plan = try DecodePlan(format: .cameraRAW, storedSize: file.pictureSize, exif: exif, options: options, orientation: file.orientation)
            if plan.wantsScaling, let preview = try file.preview(covering: plan.requiredStoredSize, limits: options.limits) {
                return plan.finish(preview, warnings: [], options: options, color: .sRGB)
            }
            let halfSize = plan.requiredStoredSize.width * 2 <= file.pictureSize.width && plan.requiredStoredSize.height * 2 <= file.pictureSize.height
            return plan.finish(try file.develop(halfSize: halfSize), warnings: [], options: options, color: .sRGB)
        }
    }
}
