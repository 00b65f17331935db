import Foundation
import ImageCodecs
import PhotoAlbum
import PhotoBrowser

/// What the browser needs of an album, and all it knows of one: the photos
/// in order, and adding or removing one. PhotoBrowser and PhotoAlbum do not
/// import each other; this example joins them through this protocol.
protocol BrowsableAlbum: Sendable {
    /// The album's name, for messages.
    var name: String { get }
    /// The photos, in the album's order.
    func photos() async throws -> [BrowserPhoto]
    /// Removes the photo with `id` (as ``photos()`` gave it); returns a message.
    func remove(photoID id: String) async throws -> String
    /// Adds the file at `path`; returns a message.
    func add(fileAt path: String) async throws -> String
    /// Saves the turn the photo with `id` is shown in into its file
    /// (losslessly, a JPEG); returns a message.
    func save(_ orientation: ImageOrientation, ofPhotoID id: String) async throws -> String
}

/// An album of a photo-album store.
struct StoreAlbum: BrowsableAlbum {
    let store: AlbumStore
    let name: String

    /// The album's photos, each burst or pair one page opening on its
    /// cover, placed where its first frame is.
    func photos() async throws -> [BrowserPhoto] {
        var photos: [AssetID: BrowserPhoto] = [:]
        let items = try await store.items(in: name)
        for item in items {
            let path = try await store.originalPath(of: item.asset)
            // The id is the asset id (stable, the cache key); the name shown is the original name.
            photos[item.asset] = BrowserPhoto(
                id: "\(item.asset.rawValue)/\(item.originalName)", source: .file(path), displaySize: item.orientedSize,
                placeholder: item.placeholder.map(ImagePlaceholder.thumbHash))
        }
        var pages: [AssetID: BrowserPhoto] = [:]
        var framed = Set<AssetID>()
        for stack in try await store.stacks(in: name) {
            let frames = stack.assets.compactMap { photos[$0] }
            guard frames.count == stack.assets.count, let cover = stack.assets.firstIndex(of: stack.cover),
                let page = BrowserStack(frames: frames, coverIndex: cover)?.page,
                let first = items.first(where: { stack.assets.contains($0.asset) })?.asset
            else { continue }
            pages[first] = page
            framed.formUnion(stack.assets)
        }
        return items.compactMap { item in pages[item.asset] ?? (framed.contains(item.asset) ? nil : photos[item.asset]) }
    }

    func remove(photoID id: String) async throws -> String {
        guard let raw = id.split(separator: "/").first, let asset = AssetID(String(raw)) else { return "not a photo of \(name)" }
        try await store.remove(asset, from: name)
        return "removed from \(name)"
    }

    func save(_ orientation: ImageOrientation, ofPhotoID id: String) async throws -> String {
        guard let raw = id.split(separator: "/").first, let asset = AssetID(String(raw)) else { return "not a photo of \(name)" }
        // The turn that shows the picture as it is seen now: the one that would undo it as a stored orientation.
        guard let operation = JPEGTransform.operation(undoing: orientation) else { return "not turned: nothing to save" }
        let item = try await store.rotate(asset, in: name, by: operation)
        return "turn saved into \(item.originalName.oneLine) (\(item.size.width)x\(item.size.height), no loss)"
    }

    func add(fileAt path: String) async throws -> String {
        switch try await store.importFile(at: path, into: name) {
        case .added(let item): return "added to \(name) (\(item.asset.shortForm))"
        case .alreadyInAlbum: return "already in \(name)"
        }
    }
}

/// The album's photos as a collection the browser pages through, read
/// again after each change.
actor AlbumPhotos: PhotoCollection {
    let album: any BrowsableAlbum
    private var photos: [BrowserPhoto]

    init(album: any BrowsableAlbum) async throws {
        self.album = album
        photos = try await album.photos()
    }

    var count: Int { photos.count }

    func photo(at index: Int) async throws -> BrowserPhoto {
        guard photos.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: photos.count) }
        return photos[index]
    }

    /// Saves the turn `photo` is shown in into its file and reloads the list.
    func save(_ orientation: ImageOrientation, of photo: BrowserPhoto) async -> String {
        do {
            let message = try await album.save(orientation, ofPhotoID: photo.id)
            photos = try await album.photos()
            return message
        } catch {
            return "cannot save the turn: \(error)"
        }
    }

    /// Removes `photo` from the album and reloads the list.
    func remove(_ photo: BrowserPhoto) async -> String {
        do {
            let message = try await album.remove(photoID: photo.id)
            photos = try await album.photos()
            return photos.isEmpty ? "\(message); the album is now empty" : message
        } catch {
            return "cannot remove: \(error)"
        }
    }
}
