import Foundation
import ImageCodecs
import PhotoAlbum
import TestSupport
import Testing

/// A source with a fixed availability.
struct FixedSource: PhotoSource {
    let kind: PhotoSourceKind
    let state: SourceAvailability
    func availability() async -> SourceAvailability { state }
}

@Suite("Sources and the camera")
struct SourceAndCameraTests {
    @Test("the camera is preferred; without one the library is chosen and the reason kept")
    func fallback() async throws {
        let library = FixedSource(kind: .photoLibrary, state: .available)
        let noCamera = CameraSource(provider: FakeCamera(devices: []))
        let selection = await SourceSelector().select(from: [library, noCamera])
        #expect(selection.chosen?.kind == .photoLibrary)
        #expect(selection.skipped.map(\.kind) == [.camera])
        #expect(selection.skipped.first?.reason == "no camera is connected")

        let camera = CameraSource(provider: FakeCamera(devices: [CaptureDeviceInfo(id: "/dev/video0", name: "Webcam", position: .external)]))
        #expect(await SourceSelector().select(from: [library, camera]).chosen?.kind == .camera)

        let order = SourceSelector(preferredOrder: [.savedPhotosAlbum, .photoLibrary])
        let result = await order.select(from: [library, camera])
        #expect(result.chosen?.kind == .photoLibrary)
        #expect(result.skipped.map(\.reason) == ["no savedPhotosAlbum source is configured"])

        let nothing = await SourceSelector().select(from: [FixedSource(kind: .photoLibrary, state: .unavailable(reason: "unmounted"))])
        #expect(nothing.chosen == nil)
        #expect(nothing.skipped.map(\.reason) == ["no camera source is configured", "unmounted"])
    }

    @Test("a folder library is a source while its folder exists")
    func librarySource() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let library = try await FolderPhotoLibrary.open(root: scratch.path, kind: .savedPhotosAlbum)
        #expect(library.kind == .savedPhotosAlbum)
        #expect(await library.availability() == .available)
        scratch.cleanUp()
        #expect(await library.availability() == .unavailable(reason: "\(scratch.path) is not there"))
    }

    @Test("V4L2 devices are enumerated from /dev and named from sysfs")
    func enumeration() throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let dev = "\(scratch.path)/dev"
        let sys = "\(scratch.path)/sys"
        for node in ["video0", "video1", "video2", "video10", "videoX", "null"] {
            try FileManager.default.createDirectory(atPath: dev, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: "\(dev)/\(node)", contents: Data()))
        }
        for (node, name) in [
            ("video0", "Integrated Camera: Front"), ("video1", "Integrated Camera: Front"), ("video2", "USB Webcam C920"), ("video10", "Rear camera"),
        ] {
            try FileManager.default.createDirectory(atPath: "\(sys)/\(node)", withIntermediateDirectories: true)
            try Data("\(name)\n".utf8).write(to: URL(fileURLWithPath: "\(sys)/\(node)/name"))
        }
        // video1 is the metadata node of the front camera.
        let camera = V4L2Camera(deviceRoot: dev, sysfsRoot: sys) { path in
            .success(V4L2Camera.NodeCapabilities(canCapture: !path.hasSuffix("video1"), card: "card"))
        }
        let devices = camera.devices()
        #expect(devices.map(\.id) == ["\(dev)/video0", "\(dev)/video2", "\(dev)/video10"])
        #expect(devices.map(\.position) == [.front, .external, .rear])
        #expect(devices.map(\.name) == ["Integrated Camera: Front", "USB Webcam C920", "Rear camera"])
        #expect(camera.preferredDevice(facing: .rear)?.id == "\(dev)/video10")

        // With the real query, regular files are reported, not used.
        let real = V4L2Camera(deviceRoot: dev, sysfsRoot: sys)
        let reported = real.devices()
        #expect(reported.count == 4)
        #expect(reported.allSatisfy { !$0.canCapture && ($0.problem ?? "").contains("not a character device") })
    }

    @Test("with no camera hardware the camera source is unavailable, not an error")
    func noHardware() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let source = CameraSource(provider: V4L2Camera(deviceRoot: scratch.path, sysfsRoot: scratch.path))
        #expect(await source.availability() == .unavailable(reason: "no camera is connected"))
    }

    @Test("a system without a camera backend: no devices, the camera source unavailable, a capture refused with a reason")
    func noCaptureDevices() async {
        let source = CameraSource(provider: NoCaptureDevices())
        #expect(source.provider.devices().isEmpty)
        #expect(await source.availability() == .unavailable(reason: "no camera is connected"))
        await #expect(throws: CameraError.unavailable(reason: "this system has no camera PhotoDeck can use")) {
            try await NoCaptureDevices().captureStill(from: "any", near: 640, 480)
        }
        // On Linux the system's provider is V4L2.
        #expect(CameraSource.systemProvider is V4L2Camera)
    }

    @Test("YUYV frames convert with BT.601 colours")
    func yuyv() throws {
        // Black, white, red and blue pairs (two pixels each), one row, then a padded second row.
        let row: [UInt8] = [16, 128, 16, 128, 235, 128, 235, 128, 81, 90, 81, 240, 41, 240, 41, 110]
        let bytes = row + [0, 0] + row + [0, 0]
        let bitmap = try YUYVConversion.rgbBitmap(fromYUYV: bytes, width: 8, height: 2, bytesPerRow: 18)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bitmap[x, y]) }
        #expect(pixel(0, 0) == [0, 0, 0])
        #expect(pixel(3, 1) == [255, 255, 255])
        #expect(maxDifference(pixel(4, 0), [255, 0, 0]) <= 2)
        #expect(maxDifference(pixel(6, 1), [0, 0, 255]) <= 3)
        #expect(throws: ImageCodecError.invalidArgument("YUYV needs an even, positive width; got 7x2")) {
            try YUYVConversion.rgbBitmap(fromYUYV: bytes, width: 7, height: 2)
        }
        #expect(throws: ImageCodecError.invalidArgument("10 bytes are too few for 8x2 YUYV with 16 bytes per row")) {
            try YUYVConversion.rgbBitmap(fromYUYV: Array(bytes.prefix(10)), width: 8, height: 2)
        }
    }

    @Test("frames become JPEGs: MJPEG is checked and kept, YUYV is encoded, garbage is refused")
    func frames() throws {
        let jpeg = try Bitmap.testPatternRGB(width: 32, height: 16).encoded(as: .jpeg)
        #expect(try V4L2Camera.encodedImage(fromFrame: jpeg, fourcc: V4L2Camera.mjpegFourCC, width: 32, height: 16, bytesPerRow: 0, device: "cam") == jpeg)
        let yuyv = [UInt8](repeating: 128, count: 32 * 16 * 2)
        let encoded = try V4L2Camera.encodedImage(fromFrame: yuyv, fourcc: V4L2Camera.yuyvFourCC, width: 32, height: 16, bytesPerRow: 64, device: "cam")
        #expect(try ImageInfo(probing: encoded).size == PixelSize(width: 32, height: 16))
        #expect(throws: CameraError.self) {
            try V4L2Camera.encodedImage(
                fromFrame: [0xFF, 0xD8, 0xFF, 0x00], fourcc: V4L2Camera.mjpegFourCC, width: 32, height: 16, bytesPerRow: 0, device: "cam")
        }
    }
}

func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) } }

extension Bitmap {
    static func testPatternRGB(width: Int, height: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += [UInt8(x * 8 % 256), UInt8(y * 16 % 256), 90] } }
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }
}
