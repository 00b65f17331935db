import CLCMS2

extension ColorProfile {
    /// The chromaticities of an RGB space: white point and primaries as CIE xy.
    struct Chromaticities: Hashable {
        var white: (Double, Double)
        var red: (Double, Double)
        var green: (Double, Double)
        var blue: (Double, Double)

        static func == (a: Chromaticities, b: Chromaticities) -> Bool {
            [a.white, a.red, a.green, a.blue].elementsEqual([b.white, b.red, b.green, b.blue]) { $0 == $1 }
        }
        func hash(into hasher: inout Hasher) {
            for (x, y) in [white, red, green, blue] {
                hasher.combine(x)
                hasher.combine(y)
            }
        }

        static let d65 = (0.3127, 0.3290)
        /// BT.709 / sRGB (H.273 colour primaries 1).
        static let bt709 = Chromaticities(white: d65, red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
        /// Display P3 (H.273 primaries 12, SMPTE EG 432-1).
        static let displayP3 = Chromaticities(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        /// BT.2020 (H.273 primaries 9).
        static let bt2020 = Chromaticities(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))
    }

    /// A tone curve (electro-optical transfer).
    enum Transfer: Hashable {
        /// IEC 61966-2-1 (H.273 transfer 13).
        case sRGB
        /// BT.709 / BT.2020 (H.273 transfer 1, 6, 14, 15).
        case bt709
        /// A pure power law, `value = encoded ^ gamma`.
        case gamma(Double)
    }

    /// Builds an RGB profile from chromaticities and a tone curve (PNG
    /// `cHRM` + `gAMA`, `cICP`, HEIF `nclx`).
    static func rgb(_ chromaticities: Chromaticities, transfer: Transfer, name: String) -> ColorProfile? {
        var white = cmsCIExyY(x: chromaticities.white.0, y: chromaticities.white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: chromaticities.red.0, y: chromaticities.red.1, Y: 1),
            Green: cmsCIExyY(x: chromaticities.green.0, y: chromaticities.green.1, Y: 1),
            Blue: cmsCIExyY(x: chromaticities.blue.0, y: chromaticities.blue.1, Y: 1))
        guard let curve = toneCurve(transfer) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let handle = cmsCreateRGBProfile(&white, &primaries, &curves) else { return nil }
        defer { cmsCloseProfile(handle) }
        setDescription(handle, name)
        return save(handle).flatMap(ColorProfile.init(iccData:))
    }

    /// A grey profile with a tone curve (a greyscale PNG's `gAMA`).
    static func gray(transfer: Transfer, name: String) -> ColorProfile? {
        guard let curve = toneCurve(transfer), let white = cmsD50_xyY() else { return nil }
        defer { cmsFreeToneCurve(curve) }
        guard let handle = cmsCreateGrayProfile(white, curve) else { return nil }
        defer { cmsCloseProfile(handle) }
        setDescription(handle, name)
        return save(handle).flatMap(ColorProfile.init(iccData:))
    }

    private static func toneCurve(_ transfer: Transfer) -> OpaquePointer? {
        switch transfer {
        case .gamma(let gamma):
            guard gamma.isFinite, gamma > 0.01, gamma < 100 else { return nil }
            return cmsBuildGamma(nil, gamma)
        case .sRGB:
            // IEC 61966-2-1 as lcms2's parametric type 4: Y = ((aX + b)^g) for X >= d, else cX.
            var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return cmsBuildParametricToneCurve(nil, 4, &parameters)
        case .bt709:
            var parameters: [Double] = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
            return cmsBuildParametricToneCurve(nil, 4, &parameters)
        }
    }

    private static func setDescription(_ handle: cmsHPROFILE, _ name: String) {
        guard let text = cmsMLUalloc(nil, 1) else { return }
        defer { cmsMLUfree(text) }
        cmsMLUsetASCII(text, "en", "US", name)
        cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(text))
    }

    /// The profile H.273 code points describe (PNG `cICP`, HEIF `nclx`);
    /// `nil` for sRGB itself (nothing to convert) and for code points
    /// PhotoDeck cannot convert (PQ, HLG), with the reason.
    static func fromCodePoints(primaries: Int, transfer: Int) -> (profile: ColorProfile?, warning: String?) {
        let chromaticities: Chromaticities
        switch primaries {
        case 1, 2: chromaticities = .bt709  // 2: unspecified, taken as BT.709
        case 12: chromaticities = .displayP3
        case 9: chromaticities = .bt2020
        default: return (nil, "colour primaries \(primaries) are not supported; the pixels are taken as sRGB")
        }
        let curve: Transfer
        switch transfer {
        case 13, 2: curve = .sRGB  // 2: unspecified
        case 1, 6, 14, 15: curve = .bt709
        case 8: curve = .gamma(1)
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 16, 18:
            // HEIF tone-maps these (HDRToneMap) before asking; here: PNG cICP, or primaries it does not convert.
            return (nil, "HDR transfer \(transfer == 16 ? "PQ" : "HLG") is not tone-mapped here; the pixels are taken as sRGB")
        default: return (nil, "transfer characteristics \(transfer) are not supported; the pixels are taken as sRGB")
        }
        if chromaticities == .bt709 && curve == .sRGB { return (nil, nil) }
        return (rgb(chromaticities, transfer: curve, name: "H.273 primaries \(primaries), transfer \(transfer)"), nil)
    }
}
