import Foundation
import ImageCodecs
import PhotoAlbum
import Synchronization
import TestSupport
import Testing

/// A picker UI that plays back a script and records what it was shown.
final class ScriptedPicker: PickerInteraction {
    private let script: Mutex<[PickerAction]>
    let shown = Mutex<[PickerState]>([])
    init(_ actions: [PickerAction]) { script = Mutex(actions) }
    func nextAction(in state: PickerState) async -> PickerAction {
        shown.withLock { $0.append(state) }
        return script.withLock { $0.isEmpty ? .cancel : $0.removeFirst() }
    }
    var lastState: PickerState? { shown.withLock { $0.last } }
}

/// A source offering in-memory photos.
struct MemorySource: PickableSource {
    let kind: PhotoSourceKind = .photoLibrary
    let photos: [(String, [UInt8])]
    func availability() async -> SourceAvailability { .available }
    func candidates(matching filter: AssetFilter) async throws -> [PickedAsset] {
        try photos.compactMap { id, bytes in
            let info = try ImageInfo(probing: bytes)
            return filter.matches(info) ? PickedAsset(id: id, info: info) { () throws(ImageCodecError) -> [UInt8] in bytes } : nil
        }
    }
}

@Suite("Picker sessions", .dedicatedThreads)
struct PickerSessionTests {
    /// A 60x40 stored PNG with four coloured quadrants, tagged with `orientation`.
    static func quadrants(_ orientation: ImageOrientation, width: Int = 60, height: Int = 40) throws -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                switch (x < width / 2, y < height / 2) {
                case (true, true): pixels += [255, 0, 0]
                case (false, true): pixels += [0, 255, 0]
                case (true, false): pixels += [0, 0, 255]
                case (false, false): pixels += [255, 255, 0]
                }
            }
        }
        let bitmap = try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        return try bitmap.encoded(as: .png, options: EncodeOptions(exif: ExifMetadata(orientation: orientation)))
    }

    static let photos: [(String, [UInt8])] = [
        ("wide", try! quadrants(.up)), ("tall", try! quadrants(.right)), ("big", try! quadrants(.up, width: 300, height: 200)),
    ]

    static func run(_ configuration: PickerConfiguration, _ actions: [PickerAction], sources: [any PhotoSource]? = nil) async throws -> (
        PickerResult, ScriptedPicker
    ) {
        let picker = ScriptedPicker(actions)
        let session = PickerSession(configuration: configuration, sources: sources ?? [MemorySource(photos: photos)])
        let result = try await session.run(with: picker)
        return (result, picker)
    }

    static func ids(_ result: PickerResult) -> [String]? {
        if case .picked(let assets) = result { assets.map(\.id) } else { nil }
    }

    @Test("stills are offered by default; with videos asked for, a video is offered with its length, and a picked video and Live Photo go into an album whole")
    func videosAndLivePhotos() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let roll = try FolderLibraryMediaTests.cameraRoll(scratch)
        let library = try await FolderPhotoLibrary.open(root: roll, indexPath: "\(scratch.path)/library.sqlite")
        let stills = try await Self.run(PickerConfiguration(selectionLimit: 0), [.confirm], sources: [library]).1
        let offered = Dictionary(uniqueKeysWithValues: (stills.lastState?.candidates ?? []).map { ($0.id, $0.media.kind) })
        #expect(offered["IMG_0001.JPG"] == .livePhoto)
        #expect(offered["PXL_01.MP.jpg"] == .motionPhoto)
        #expect(!offered.values.contains(.video), "\(offered)")

        let everything = PickerConfiguration(selectionLimit: 0, media: Set(AssetMediaKind.allCases))
        let (result, picker) = try await Self.run(everything, [.toggle("clip.mp4"), .toggle("IMG_0001.JPG"), .confirm], sources: [library])
        let clip = try #require(picker.lastState?.candidates.first { $0.id == "clip.mp4" })
        #expect(clip.media.kind == .video && clip.media.duration != nil)
        guard case .picked(let assets) = result else {
            Issue.record("not picked: \(result)")
            return
        }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Picked")
        for asset in assets { try await store.add(asset, to: "Picked") }
        #expect(try await store.items(in: "Picked").map(\.media.kind) == [.video, .livePhoto])
        #expect(try await store.check().isConsistent)
    }

    @Test("the library is used when there is no camera, and the reason is shown")
    func fallbackShown() async throws {
        let noCamera = CameraSource(provider: V4L2Camera(deviceRoot: "/nonexistent", sysfsRoot: "/nonexistent"))
        let (result, picker) = try await Self.run(PickerConfiguration(), [.toggle("wide"), .confirm], sources: [noCamera, MemorySource(photos: Self.photos)])
        #expect(Self.ids(result) == ["wide"])
        #expect(picker.lastState?.source == .photoLibrary)
        #expect(picker.lastState?.skippedSources == [SkippedSource(kind: .camera, reason: "no camera is connected")])
    }

    @Test("the camera is used when there is one")
    func cameraCapture() async throws {
        let jpeg = try Bitmap(width: 32, height: 24, pixelFormat: .rgb8, pixels: [UInt8](repeating: 77, count: 32 * 24 * 3)).encoded(as: .jpeg)
        let camera = CameraSource(provider: FakeCamera(capturing: jpeg))
        let (result, picker) = try await Self.run(PickerConfiguration(), [.confirm], sources: [camera, MemorySource(photos: Self.photos)])
        #expect(picker.lastState?.source == .camera)
        #expect(picker.lastState?.candidates.count == 1)
        #expect(Self.ids(result) == [])
        let (picked, _) = try await Self.run(PickerConfiguration(), [.toggle(picker.lastState!.candidates[0].id), .confirm], sources: [camera])
        guard case .picked(let assets) = picked else {
            Issue.record("not picked")
            return
        }
        #expect(try assets[0].encodedData() == jpeg)
    }

    @Test("limits: one replaces, N stops at N with a notice, 0 is unlimited")
    func limits() async throws {
        #expect(Self.ids(try await Self.run(PickerConfiguration(selectionLimit: 1), [.toggle("wide"), .toggle("tall"), .confirm]).0) == ["tall"])
        let (two, picker) = try await Self.run(PickerConfiguration(selectionLimit: 2), [.toggle("wide"), .toggle("tall"), .toggle("big"), .confirm])
        #expect(Self.ids(two) == ["wide", "tall"])
        #expect(picker.shown.withLock { $0[3].notice } == "at most 2 photos can be picked")
        #expect(
            Self.ids(try await Self.run(PickerConfiguration(selectionLimit: 0), [.toggle("big"), .toggle("wide"), .toggle("tall"), .confirm]).0)
                == ["big", "wide", "tall"])
    }

    @Test("order, preselection, filters, and cancel versus an empty pick")
    func orderAndFilters() async throws {
        let unordered = PickerConfiguration(selectionLimit: 0, keepsSelectionOrder: false)
        #expect(Self.ids(try await Self.run(unordered, [.toggle("big"), .toggle("wide"), .confirm]).0) == ["wide", "big"])
        let preselected = PickerConfiguration(selectionLimit: 0, preselectedAssetIDs: ["tall", "missing", "wide"])
        #expect(Self.ids(try await Self.run(preselected, [.toggle("tall"), .confirm]).0) == ["wide"])
        let (filtered, picker) = try await Self.run(PickerConfiguration(filter: .shape(.landscape)), [.toggle("tall"), .confirm])
        #expect(picker.lastState?.candidates.map(\.id) == ["wide", "big"])
        #expect(picker.shown.withLock { $0[1].notice } == "tall is not on offer")
        #expect(Self.ids(filtered) == [])
        let (cancelled, _) = try await Self.run(PickerConfiguration(), [.toggle("wide"), .cancel])
        #expect(Self.ids(cancelled) == nil)
    }

    @Test("crops are in oriented pixels and cut the same region for all 8 orientations", arguments: ImageOrientation.allCases)
    func cropEveryOrientation(_ orientation: ImageOrientation) async throws {
        let bytes = try Self.quadrants(orientation)
        let source = MemorySource(photos: [("photo", bytes)])
        let configuration = PickerConfiguration(editing: .free)
        let oriented = orientation.orientedSize(PixelSize(width: 60, height: 40))
        // The top-left displayed quadrant, whatever the storage.
        let rect = CropRect(x: 0, y: 0, width: oriented.width / 2, height: oriented.height / 2)
        let (result, _) = try await Self.run(configuration, [.toggle("photo"), .crop("photo", rect), .confirm], sources: [source])
        guard case .picked(let assets) = result, let asset = assets.first else {
            Issue.record("not picked")
            return
        }
        #expect(asset.crop == rect)
        let edited = try #require(try asset.editedImage())
        let upright = try DecodedImage(decoding: bytes).bitmap
        #expect(edited == (try upright.cropped(x: 0, y: 0, size: rect.size)))
        let corner = Array(upright[0, 0])
        #expect(Set(edited.pixels.chunked3()) == [corner])
        // Fitted into a small box, the crop keeps its shape.
        let small = try #require(try asset.editedImage(fitting: PixelSize(width: 10, height: 10)))
        #expect(small.size == rect.size.fitting(in: PixelSize(width: 10, height: 10)))
    }

    @Test("presets shape crops: square by default, fixed aspect kept, moved inside the image")
    func presets() async throws {
        let (square, _) = try await Self.run(PickerConfiguration(editing: .square), [.toggle("big"), .confirm])
        guard case .picked(let assets) = square else {
            Issue.record("not picked")
            return
        }
        #expect(assets[0].crop == CropRect(x: 50, y: 0, width: 200, height: 200))
        let (wide, _) = try await Self.run(
            PickerConfiguration(editing: .aspect(width: 16, height: 9)),
            [.toggle("big"), .crop("big", CropRect(x: 250, y: 150, width: 160, height: 160)), .confirm])
        guard case .picked(let cropped) = wide, let crop = cropped[0].crop else {
            Issue.record("not picked")
            return
        }
        #expect(crop.width == 160 && crop.height == 90)
        #expect(crop.x + crop.width <= 300 && crop.y + crop.height <= 200)
        let (off, picker) = try await Self.run(PickerConfiguration(), [.toggle("big"), .crop("big", CropRect(x: 0, y: 0, width: 5, height: 5)), .confirm])
        #expect(picker.shown.withLock { $0[2].notice } == "editing is off")
        guard case .picked(let plain) = off else {
            Issue.record("not picked")
            return
        }
        #expect(plain[0].crop == nil)
        #expect(try plain[0].editedImage() == nil)
        #expect(try plain[0].image(fitting: PixelSize(width: 30, height: 30)).size == PixelSize(width: 30, height: 20))
    }

    @Test("no available source is an error that lists the reasons")
    func noSource() async {
        let session = PickerSession(
            configuration: PickerConfiguration(sourcePreference: [.camera]),
            sources: [CameraSource(provider: V4L2Camera(deviceRoot: "/nonexistent", sysfsRoot: "/nonexistent"))])
        do {
            _ = try await session.run(with: ScriptedPicker([]))
            Issue.record("a session without sources ran")
        } catch {
            #expect(error == .noSourceAvailable([SkippedSource(kind: .camera, reason: "no camera is connected")]))
            #expect(error.description == "no photo source is available (camera: no camera is connected)")
        }
    }
}

extension Array where Element == UInt8 {
    /// Groups RGB bytes into pixels.
    func chunked3() -> [[UInt8]] { stride(from: 0, to: count - 2, by: 3).map { Array(self[$0..<$0 + 3]) } }
}
