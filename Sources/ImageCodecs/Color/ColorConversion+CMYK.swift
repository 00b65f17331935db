import CLCMS2
import SystemSupport

extension ColorConversion {
    /// A CMYK profile's transform to sRGB, per ink convention.
    private struct CMYKKey: Hashable {
        let profile: [UInt8]
        let inverted: Bool
    }

    /// At most this many CMYK transforms are kept (print files use few profiles).
    private static let cmykCapacity = 4
    private static let cmykCache = Lock<[CMYKKey: Transform]>([:])

    /// Converts CMYK pixels (4 bytes each, as libjpeg writes them) to sRGB
    /// through `profile`'s CMYK-to-PCS table (Little CMS 2, perceptual
    /// intent). `inverted` is Adobe's convention, where 255 is no ink. The
    /// reason when the profile cannot be used; the caller then converts
    /// without it.
    static func sRGB(fromCMYK cmyk: [UInt8], size: PixelSize, profile: ColorProfile, inverted: Bool) -> Result<Bitmap, ColorWarning> {
        guard profile.colorSpace == .cmyk else {
            return .failure(ColorWarning("the \(profile.colorSpace.rawValue) profile \"\(profile.name ?? "unnamed")\" does not describe CMYK pixels"))
        }
        let transform: Transform
        switch cmykTransform(from: profile, inverted: inverted) {
        case .success(let made): transform = made
        case .failure(let warning): return .failure(warning)
        }
        let width = size.width
        let height = size.height
        var rgb = [UInt8](repeating: 0, count: size.pixelCount * 3)
        cmyk.withUnsafeBytes { source in
            rgb.withUnsafeMutableBytes { target in
                guard let input = source.baseAddress, let output = target.baseAddress else { return }
                // The addresses cross into the helpers as integers: each
                // band reads and writes only its own rows, and forEach
                // returns only when every band is done, while both buffers
                // are alive.
                let (inputAddress, outputAddress) = (Int(bitPattern: input), Int(bitPattern: output))
                ColorConversion.forEachBand(rows: height, pixels: width * height) { rows in
                    guard let input = UnsafeRawPointer(bitPattern: inputAddress), let output = UnsafeMutableRawPointer(bitPattern: outputAddress)
                    else { return }
                    // A row at a time keeps each call's pixel count within lcms2's 32-bit argument.
                    for row in rows {
                        cmsDoTransform(transform.handle, input + row * width * 4, output + row * width * 3, cmsUInt32Number(width))
                    }
                }
            }
        }
        return .success(Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 3, pixelFormat: .rgb8, pixels: rgb))
    }

    private static func cmykTransform(from profile: ColorProfile, inverted: Bool) -> Result<Transform, ColorWarning> {
        let key = CMYKKey(profile: profile.data, inverted: inverted)
        if let cached = cmykCache.withLock({ $0[key] }) { return .success(cached) }
        guard let input = profile.data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            return .failure(ColorWarning("the embedded CMYK profile cannot be read"))
        }
        defer { cmsCloseProfile(input) }
        guard let output = cmsCreate_sRGBProfile() else { return .failure(ColorWarning("lcms2 cannot build sRGB")) }
        defer { cmsCloseProfile(output) }
        let format = inverted ? PD_TYPE_CMYK_8_REV : PD_TYPE_CMYK_8
        guard let handle = cmsCreateTransform(input, format, output, PD_TYPE_RGB_8, PD_INTENT_PERCEPTUAL, PD_FLAGS_TRANSFORM) else {
            return .failure(ColorWarning("the CMYK profile \"\(profile.name ?? "unnamed")\" cannot be converted (lcms2 refused it)"))
        }
        let made = Transform(handle)
        cmykCache.withLock { cache in
            if cache.count >= cmykCapacity { cache.removeAll() }
            cache[key] = made
        }
        return .success(made)
    }
}
