// The PhotoAlbum code samples of the README and the doc comments, compiled.

import ImageCodecs
import PhotoAlbum

enum PhotoAlbumSnippets {
    static func readme(myInterface: any PickerInteraction) async throws {
        let store = try await AlbumStore.open(directory: "/var/lib/myapp/albums")  // repairs interrupted writes, off the pool
        try await store.createAlbum(named: "Trip")
        let item = try await store.add(fileAt: "IMG_0001.jpg", to: "Trip")  // copied once, content-addressed

        let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
        try await library.scan()  // rescans read only changed files
        let session = PickerSession(
            configuration: PickerConfiguration(selectionLimit: 3, editing: .square),
            sources: [CameraSource(), library])  // camera first, library as fallback
        if case .picked(let photos) = try await session.run(with: myInterface) {
            let thumbnail = try photos[0].editedImage(fitting: PixelSize(width: 512, height: 512))
            print(thumbnail?.size as Any)  // nil when the picker was not set to edit
        }
        _ = item
    }

    static func albumStore() async throws {
        let store = try await AlbumStore.open(directory: "/var/lib/myapp/albums")
        try await store.createAlbum(named: "Favourites")
        let item = try await store.add(fileAt: "/photos/IMG_0001.jpg", to: "Favourites")
        for item in try await store.items(in: "Favourites") { print(item.asset.shortForm, item.orientedSize) }
        _ = item
    }

    static func close(folder: String) async throws {
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        await store.close()
        let reopened = try await AlbumStore.open(directory: folder)  // never storeInUse
        _ = reopened
    }

    static func importFile(store: AlbumStore) async throws {
        switch try await store.importFile(at: "IMG_0001.jpg", into: "Trip") {
        case .added(let item): print("added", item.asset.shortForm)
        case .alreadyInAlbum(let item): print("already in album", item.asset.shortForm)
        }
    }

    static func rotate(store: AlbumStore, item: AlbumItem) async throws {
        let turned = try await store.rotate(item.asset, in: "Trip", by: .rotate90)  // a quarter turn clockwise
        _ = turned
    }

    static func filter() -> AssetFilter {
        let filter: AssetFilter = .all([
            .formats([.jpeg, .webp]), .minimumSize(PixelSize(width: 1000, height: 1000)),
            .not(.shape(.portrait)),
        ])
        return filter
    }

    static func library() async throws {
        let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
        let summary = try await library.scan()  // first scan probes every file
        let wide = try await library.assets(matching: .shape(.landscape))
        for await change in await library.changes() { print(change) }  // inotify, or polling
        _ = (summary, wide)
    }

    static func picker(library: FolderPhotoLibrary, terminalUI: any PickerInteraction) async throws {
        let session = PickerSession(
            configuration: PickerConfiguration(selectionLimit: 3, editing: .square),
            sources: [CameraSource(), library])
        switch try await session.run(with: terminalUI) {
        case .picked(let photos): for photo in photos { _ = try photo.editedImage(fitting: PixelSize(width: 512, height: 512)) }
        case .cancelled: break
        }
    }

    static func sources(library: FolderPhotoLibrary) async {
        let selection = await SourceSelector().select(from: [CameraSource(), library])
        if let skipped = selection.skipped.first { print("no \(skipped.kind): \(skipped.reason)") }
    }
}

extension PhotoAlbumSnippets {
    /// README: "Quick start".
    static func firstApp() async throws {
        let store = try await AlbumStore.open(directory: "Albums")
        try await store.createAlbum(named: "Trip")
        let addition = try await store.importFile(at: "IMG_0001.jpg", into: "Trip")
        print(addition.isNew ? "added" : "already in album", addition.item.asset.shortForm)
    }

    static func assetMedia(library: FolderPhotoLibrary) async throws {
        for asset in try await library.assets(matching: .media([.livePhoto, .motionPhoto])) {
            if case .livePhoto(let motionPath, _, let duration) = asset.media {
                print(asset.id, "moves for", duration ?? .zero, "from", motionPath)
            }
        }
    }

    static func importLivePhoto(store: AlbumStore) async throws {
        let addition = try await store.importLivePhoto(still: "IMG_0001.HEIC", motion: "IMG_0001.MOV", into: "Trip")
        if case .livePhoto(let motion, _, let duration) = addition.item.media { print(motion, duration ?? .zero) }
    }

    static func importGroups(store: AlbumStore) async throws {
        for group in await store.importGroups(for: ["IMG_1.HEIC", "IMG_1.MOV", "clip.mp4"]) {
            let addition = try await store.importGroup(group, into: "Trip")  // .livePhoto, then .file
            print(group.paths, addition.isNew)
        }
    }

    static func pickerMedia() {
        let everything = PickerConfiguration(selectionLimit: 0, media: Set(AssetMediaKind.allCases))
        _ = everything
    }

    static func exportMotion(store: AlbumStore, item: AlbumItem) async throws {
        let report = try await store.exportMotion(of: item.asset, to: "/tmp/IMG_0001.MOV")
        print(report?.removedTags ?? [])  // ["com.apple.quicktime.location.ISO6709", ...]
    }

    static func motionName(store: AlbumStore, clip: AssetID) async throws {
        let name = "00001." + (try await store.motionFileExtension(of: clip))  // "00001.mp4", not "00001.MTS"
        _ = name
    }

    static func marks(store: AlbumStore, library: FolderPhotoLibrary, item: AlbumItem) async throws {
        var marks = item.annotations
        marks.rating = 5
        marks.colorLabel = .green
        try await store.annotate(item.asset, with: marks)
        let picks = try await store.items(in: "Trip", matching: .all([.rated(atLeast: 4), .not(.colorLabels([.red]))]))
        let keepers = try await library.assets(matching: .all([.rated(atLeast: 4), .not(.colorLabels([.red]))]))
        let paris = try await store.items(in: "Trip", matching: .tagged("Paris"))
        _ = (picks, keepers, paris)
    }

    static func filter() {
        let filter: AssetFilter = .all([
            .formats([.jpeg, .webp]), .minimumSize(PixelSize(width: 1000, height: 1000)),
            .not(.shape(.portrait)), .rated(atLeast: 3), .not(.colorLabels([.red])),
        ])
        _ = filter
    }
}
