import Foundation
public import ImageCodecs

/// Camera raw files made in the tests (no raw file is in the test-data
/// pool, and no tool here writes one): a DNG as a camera or Adobe's
/// converter writes it. IFD0 is the sensor data (a 2x2 RGGB mosaic of
/// 12-bit linear values, uncompressed), with DNG's version, colour matrix
/// and white level; its EXIF IFD holds the shot; a sub-IFD holds the
/// camera's JPEG preview.
public enum TestRAWFiles {
    /// What the DNG's header says of its shot.
    public struct Shot: Sendable {
        public var make = "PhotoDeck"
        public var model = "Test Camera"
        public var serial: String? = "4711"
        /// `DateTimeOriginal`, EXIF's `YYYY:MM:DD HH:MM:SS`.
        public var date: String? = "2024:05:01 10:20:30"
        public var subseconds: String? = "25"
        public var offset: String? = "+02:00"
        public var uniqueID: String? = nil
        /// EXIF's orientation value, 1...8.
        public var orientation = 1
        public init() {}
    }

    /// `scene` as a DNG: its sensor data the scene's linear light through
    /// an RGGB mosaic; with a JPEG preview whose longer side is
    /// `previewLongSide` (none when `nil`). `declaredSize` overrides the
    /// size IFD0 declares (a hostile file).
    public static func dng(_ scene: Bitmap, previewLongSide: Int? = 256, shot: Shot = Shot(), declaredSize: PixelSize? = nil) throws -> [UInt8] {
        let rgb = scene.converted(to: .rgb8)
        let (width, height) = (rgb.width, rgb.height)
        // sRGB to linear 12-bit, once per byte value.
        let linear: [UInt16] = (0..<256).map { value in
            let c = Double(value) / 255
            let light = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            return UInt16((light * 4095).rounded())
        }
        var mosaic = [UInt8](repeating: 0, count: width * height * 2)
        rgb.withUnsafeBytes { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    // RGGB: red at even rows and columns, blue at odd ones, green between.
                    let channel = y % 2 == 0 ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)
                    let value = linear[Int(pixels[y * rgb.bytesPerRow + x * 3 + channel])]
                    mosaic[(y * width + x) * 2] = UInt8(value & 0xFF)
                    mosaic[(y * width + x) * 2 + 1] = UInt8(value >> 8)
                }
            }
        }
        var tiff = TIFFBuilder()
        var ifd0 = [
            tiff.long(0x00FE, 0), tiff.long(0x0100, declaredSize?.width ?? width), tiff.long(0x0101, declaredSize?.height ?? height),
            tiff.short(0x0102, 16), tiff.short(0x0103, 1), tiff.short(0x0106, 32803), tiff.ascii(0x010F, shot.make), tiff.ascii(0x0110, shot.model),
            tiff.offset(0x0111, of: mosaic), tiff.short(0x0112, shot.orientation), tiff.short(0x0115, 1), tiff.long(0x0116, height),
            tiff.long(0x0117, mosaic.count), tiff.short(0x011C, 1), tiff.short(0x828D, 2, 2), tiff.byte(0x828E, [0, 1, 1, 2]),
            tiff.byte(0xC612, [1, 4, 0, 0]), tiff.byte(0xC613, [1, 1, 0, 0]), tiff.ascii(0xC614, "\(shot.make) \(shot.model)"),
            tiff.long(0xC61D, 4095),
            // XYZ (D65) to camera: the inverse of sRGB's matrix, so the camera's primaries are sRGB's.
            tiff.signedRational(
                0xC621,
                [(32406, 10000), (-15372, 10000), (-4986, 10000), (-9689, 10000), (18758, 10000), (415, 10000), (557, 10000), (-2040, 10000), (10570, 10000)]),
            tiff.rational(0xC628, [(1, 1), (1, 1), (1, 1)]), tiff.short(0xC65A, 21),
        ]
        var exif = [tiff.rational(0x829A, [(1, 250)])]
        if let date = shot.date { exif.append(tiff.ascii(0x9003, date)) }
        if let offset = shot.offset { exif.append(tiff.ascii(0x9011, offset)) }
        if let subseconds = shot.subseconds { exif.append(tiff.ascii(0x9291, subseconds)) }
        if let uniqueID = shot.uniqueID { exif.append(tiff.ascii(0xA420, uniqueID)) }
        if let serial = shot.serial { exif.append(tiff.ascii(0xA431, serial)) }
        ifd0.append(tiff.pointer(0x8769, to: exif))
        if let previewLongSide {
            let scale = Double(previewLongSide) / Double(max(width, height))
            let size = PixelSize(width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
            let jpeg = try rgb.resized(to: size).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
            ifd0.append(
                tiff.pointer(
                    0x014A,
                    to: [
                        tiff.long(0x00FE, 1), tiff.long(0x0100, size.width), tiff.long(0x0101, size.height), tiff.short(0x0102, 8, 8, 8),
                        tiff.short(0x0103, 7), tiff.short(0x0106, 6), tiff.offset(0x0111, of: jpeg), tiff.short(0x0115, 3),
                        tiff.long(0x0116, size.height), tiff.long(0x0117, jpeg.count),
                    ]))
        }
        return tiff.build(ifd0)
    }

    /// A plain RGB TIFF (no camera's raw data): what the raw codec is
    /// offered by its signature and must refuse.
    public static func plainTIFF(width: Int, height: Int) -> [UInt8] {
        var tiff = TIFFBuilder()
        let pixels = [UInt8](repeating: 128, count: width * height * 3)
        let ifd0 = [
            tiff.long(0x0100, width), tiff.long(0x0101, height), tiff.short(0x0102, 8, 8, 8), tiff.short(0x0103, 1), tiff.short(0x0106, 2),
            tiff.offset(0x0111, of: pixels), tiff.short(0x0115, 3), tiff.long(0x0116, height), tiff.long(0x0117, pixels.count),
        ]
        return tiff.build(ifd0)
    }
}
