import CLCMS2

/// An ICC colour profile: the colour space an image's pixel values are in.
///
/// Decoders read it from the file (JPEG `APP2 ICC_PROFILE`, PNG `iCCP`, or
/// `gAMA`/`cHRM`/`cICP`, WebP `ICCP`, HEIF `colr`); by default the pixels are
/// converted to sRGB on decode (``DecodeOptions/colorHandling``), and
/// encoders embed the profile of the pixels they write.
///
/// ```swift
/// let photo = try DecodedImage(decoding: adobeRGBJPEG, options: DecodeOptions(colorHandling: .preserve))
/// print(photo.colorProfile?.name ?? "sRGB")   // "Adobe RGB (1998)"
/// ```
public struct ColorProfile: Hashable, Sendable, CustomStringConvertible {
    /// The ICC bytes.
    public let data: [UInt8]
    /// The profile's description tag (`desc`), when it has one.
    public let name: String?
    /// What the profile describes.
    public let colorSpace: ColorSpace

    /// The colour spaces PhotoDeck converts from.
    public enum ColorSpace: String, Hashable, Sendable {
        /// Red, green, blue.
        case rgb
        /// One grey channel.
        case gray
        /// Cyan, magenta, yellow, black.
        case cmyk
        /// Anything else (Lab, XYZ...): kept, never converted.
        case other
    }

    /// Reads ICC bytes; `nil` when lcms2 cannot parse them.
    public init?(iccData: [UInt8]) {
        guard iccData.count >= 132, iccData.count <= Self.maxByteCount,
            let handle = iccData.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(handle) }
        data = iccData
        name = Self.description(of: handle)
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData: colorSpace = .rgb
        case cmsSigGrayData: colorSpace = .gray
        case cmsSigCmykData: colorSpace = .cmyk
        default: colorSpace = .other
        }
    }

    /// The largest profile read (16 MB, what 255 JPEG chunks can hold).
    public static let maxByteCount = 16 * 1024 * 1024

    /// sRGB IEC61966-2.1, as lcms2 builds it.
    public static let sRGB: ColorProfile = {
        let handle = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(handle) }
        return ColorProfile(iccData: save(handle)!)!
    }()

    /// Whether this profile is sRGB by its name (conversion is then skipped).
    public var isSRGB: Bool {
        guard colorSpace == .rgb, let name else { return false }
        return name.localizedLowercaseASCII.contains("srgb")
    }

    public var description: String { "\(name ?? "unnamed") (\(colorSpace.rawValue), \(data.count) bytes)" }

    /// A profile's `desc` text in English.
    static func description(of handle: cmsHPROFILE) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard length > 1 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// A profile handle's ICC bytes.
    static func save(_ handle: cmsHPROFILE?) -> [UInt8]? {
        var size: cmsUInt32Number = 0
        guard let handle, cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(handle, $0.baseAddress, &size) }) != 0 else { return nil }
        return bytes
    }
}

extension String {
    /// Lowercased, ASCII letters only (no locale).
    fileprivate var localizedLowercaseASCII: String {
        String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// What a decode does with the colours of a tagged image.
public enum ColorHandling: String, Hashable, Sendable {
    /// Convert the pixels to sRGB (what screens and the web assume); the
    /// result's ``DecodedImage/colorProfile`` is `nil`. The default.
    case convertToSRGB
    /// Keep the pixel values and hand the profile to the caller in
    /// ``DecodedImage/colorProfile``. Two exceptions become sRGB whatever
    /// this says, because a ``ImageCore/Bitmap`` cannot hold them: CMYK JPEGs (through
    /// their CMYK profile when they have one) and HDR HEIF and AVIF
    /// (tone-mapped).
    case preserve
}
