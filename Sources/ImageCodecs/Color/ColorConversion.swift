import CLCMS2
import Execution
import SystemSupport

/// Converts pixels between ICC profiles through Little CMS 2, with the
/// transforms cached (creating one costs about a millisecond; applying it
/// to a 1170x2532 image, a few).
enum ColorConversion {
    /// A cached lcms2 transform.
    ///
    /// `@unchecked Sendable` is safe: the handle is created once, never
    /// mutated, and deleted only in `deinit`; lcms2 documents
    /// `cmsDoTransform` as safe to call from several threads on one
    /// transform when it was created with `cmsFLAGS_NOCACHE` (no
    /// per-transform pixel cache), which every transform here is.
    final class Transform: @unchecked Sendable {
        let handle: cmsHTRANSFORM
        init(_ handle: cmsHTRANSFORM) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }
    }

    private struct Key: Hashable {
        let profile: [UInt8]
        let pixelFormat: PixelFormat
    }

    /// How pixels get converted: the matrix-shaper fast path (14-bit linear
    /// light), a table of the 256 grey levels (computed in floating point),
    /// or lcms2's optimised 8-bit transform (for LUT-based profiles; within
    /// a level of lcms2's unoptimised double-precision result, measured on
    /// Adobe RGB, where its 16-bit optimised transform is 17 levels off and
    /// its unoptimised one 23 times slower).
    enum Converter: Sendable {
        case matrixShaper(MatrixShaper)
        case grayTable([UInt8])
        case lcms(Transform)
    }

    /// At most this many converters are kept (a photo library has few distinct profiles).
    private static let capacity = 16
    private static let cache = Lock<[Key: Converter]>([:])

    /// The converter from `profile` to sRGB for `pixelFormat`, or the reason there is none.
    static func converter(from profile: ColorProfile, pixelFormat: PixelFormat) -> Result<Converter, ColorWarning> {
        let key = Key(profile: profile.data, pixelFormat: pixelFormat)
        if let cached = cache.withLock({ $0[key] }) { return .success(cached) }
        let made: Converter
        if pixelFormat != .gray8, let handle = profile.data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) {
            defer { cmsCloseProfile(handle) }
            if let fast = MatrixShaper(handle) {
                made = .matrixShaper(fast)
                remember(made, for: key)
                return .success(made)
            }
        }
        switch transform(from: profile, pixelFormat: pixelFormat) {
        case .success(let transform):
            // Grey has 256 inputs: each converted once by lcms2 in floating point, then looked up.
            made = pixelFormat == .gray8 ? .grayTable(grayTable(transform)) : .lcms(transform)
        case .failure(let warning): return .failure(warning)
        }
        remember(made, for: key)
        return .success(made)
    }

    private static func remember(_ converter: Converter, for key: Key) {
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = converter
        }
    }

    /// The 256 grey levels through `transform` (a floating-point one).
    private static func grayTable(_ transform: Transform) -> [UInt8] {
        var levels = (0..<256).map { Float($0) / 255 }
        var converted = [Float](repeating: 0, count: 256)
        cmsDoTransform(transform.handle, &levels, &converted, 256)
        return converted.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    }

    /// The lcms2 transform from `profile` to sRGB for `pixelFormat`, or the
    /// reason there is none: 8 bits a channel for colour, floating point for
    /// grey (``grayTable(_:)``: lcms2's 8-bit grey pipeline loses the
    /// shadows of linear light, gAMA 1.0 level 2 coming out 12 instead of 22).
    static func transform(from profile: ColorProfile, pixelFormat: PixelFormat) -> Result<Transform, ColorWarning> {
        let lcmsFormat: cmsUInt32Number
        switch (profile.colorSpace, pixelFormat) {
        case (.rgb, .rgb8): lcmsFormat = PD_TYPE_RGB_8
        case (.rgb, .rgba8): lcmsFormat = PD_TYPE_RGBA_8
        case (.gray, .gray8): lcmsFormat = PD_TYPE_GRAY_FLT
        default:
            return .failure(
                ColorWarning(
                    "the \(profile.colorSpace.rawValue) profile \"\(profile.name ?? "unnamed")\" does not match \(pixelFormat) pixels; they are taken as sRGB"))
        }
        guard let input = profile.data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            return .failure(ColorWarning("the embedded colour profile cannot be read; the pixels are taken as sRGB"))
        }
        defer { cmsCloseProfile(input) }
        let output: cmsHPROFILE?
        if pixelFormat == .gray8 {
            var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
            defer { cmsFreeToneCurve(curve) }
            output = cmsCreateGrayProfile(cmsD50_xyY(), curve)
        } else {
            output = cmsCreate_sRGBProfile()
        }
        guard let output else { return .failure(ColorWarning("lcms2 cannot build sRGB")) }
        defer { cmsCloseProfile(output) }
        guard let handle = cmsCreateTransform(input, lcmsFormat, output, lcmsFormat, PD_INTENT_PERCEPTUAL, PD_FLAGS_TRANSFORM) else {
            return .failure(
                ColorWarning("the colour profile \"\(profile.name ?? "unnamed")\" cannot be converted (lcms2 refused it); the pixels are taken as sRGB"))
        }
        return .success(Transform(handle))
    }

    /// Converts `bitmap` from `profile` to sRGB in place. A profile that
    /// cannot be used leaves the pixels as they are and says why.
    static func convertToSRGB(_ bitmap: inout Bitmap, from profile: ColorProfile) -> ColorWarning? {
        if profile.isSRGB { return nil }
        let converter: Converter
        switch self.converter(from: profile, pixelFormat: bitmap.pixelFormat) {
        case .success(let found): converter = found
        case .failure(let warning): return warning
        }
        let channels = bitmap.pixelFormat.bytesPerPixel
        let width = bitmap.width
        let height = bitmap.height
        let rowBytes = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            // The address crosses into the helpers as an integer: each band
            // touches only its own rows, and the caller waits for all of them
            // while `buffer` is alive.
            let address = Int(bitPattern: base)
            forEachBand(rows: height, pixels: width * height) { rows in
                guard let base = UnsafeMutableRawPointer(bitPattern: address) else { return }
                // In place, a row at a time (rows may be padded).
                for row in rows {
                    let pointer = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
                    switch converter {
                    case .matrixShaper(let fast): fast.convert(pointer, count: width, channels: channels)
                    case .grayTable(let table):
                        table.withUnsafeBufferPointer { table in
                            for index in 0..<width { pointer[index] = table[Int(pointer[index])] }
                        }
                    case .lcms(let transform): cmsDoTransform(transform.handle, pointer, pointer, cmsUInt32Number(width))
                    }
                }
            }
        }
        return nil
    }
}

extension ColorConversion {
    /// Runs `body` over bands of `rows` that together cover them: two bands
    /// on helper threads for an image of a quarter megapixel or more (lcms2
    /// converts some tens of MP/s), where the caller may block (see
    /// ParallelWork); else all rows on the caller.
    static func forEachBand(rows: Int, pixels: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) {
        let bands = pixels >= 262_144 ? 2 : 1
        ParallelWork.forEach(bands) { band in body(rows * band / bands..<rows * (band + 1) / bands) }
    }
}

/// Why colour management was skipped for an image (the decode goes on).
struct ColorWarning: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
