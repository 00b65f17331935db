// The placeholder samples of the doc comments (ImageCore, ImageCodecs,
// ImageLoading, PhotoAlbum, PhotoBrowser), compiled.

import Foundation
import ImageCodecs
import ImageLoading
import PhotoAlbum
import PhotoBrowser

enum PlaceholderSnippets {
    struct Attachment {
        var blurhash: String
        var url: URL
    }

    static func show(_ bitmap: Bitmap, scaledTo size: PixelSize = PixelSize(width: 1, height: 1)) {}
    static func draw(_ page: BrowserPage) {}

    static func thumbHash() throws {
        let hash = try ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI")
        let placeholder = hash.rendered()  // 32 pixels on the longer side
        _ = placeholder
    }

    static func blurHash() throws {
        let hash = try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        let placeholder = try hash.rendered(size: PixelSize(width: 32, height: 32))
        _ = placeholder
    }

    static func error() {
        do {
            _ = try BlurHash("LEHV6nWB2yk8")
        } catch {
            print(error)  // "the BlurHash is 12 characters; its first character promises 28"
        }
    }

    static func summarizing(decoded: DecodedImage, jpegBytes: [UInt8]) throws {
        do {
            let hash = ThumbHash(summarizing: decoded.bitmap)
            print(hash.base64)
        }
        do {
            let hash = try BlurHash(summarizingImage: jpegBytes)
            print(hash)  // 28 characters: 4x3 components
        }
    }

    static func request(attachment: Attachment, cell: PixelSize) throws {
        // Mastodon sends a BlurHash and the original's size with each attachment.
        let placeholder = ImagePlaceholder.blurHash(try BlurHash(attachment.blurhash), aspectRatio: 4.0 / 3.0)
        let request = ImageRequest(url: attachment.url, size: cell, placeholder: placeholder)
        _ = request
    }

    static func updates(loader: ImageLoader, url: URL, cell: PixelSize, hash: String) async throws {
        let request = ImageRequest(url: url, size: cell, placeholder: .thumbHash(try ThumbHash(base64: hash)))
        for try await update in loader.updates(for: request) {
            switch update {
            case .placeholder(let blurred): show(blurred, scaledTo: cell)
            case .preview(let preview): show(preview.bitmap)
            case .image(let loaded): show(loaded.bitmap)
            }
        }
    }

    static func album(store: AlbumStore, item: AlbumItem, path: String) async throws {
        let hash = try await store.placeholder(of: item.asset)
        let blurred = hash?.rendered()  // 32 pixels on the longer side
        _ = blurred
        let photo = BrowserPhoto(
            id: item.asset.rawValue, source: .file(path), displaySize: item.orientedSize,
            placeholder: item.placeholder.map(ImagePlaceholder.thumbHash))
        _ = photo
    }

    static func library(library: FolderPhotoLibrary) async throws {
        try await library.scan()
        while try await library.makePlaceholders(limit: 100) > 0 {}
    }

    struct Post {
        var thumbHash: String
        var pictureURL: URL
    }

    static func article(loader: ImageLoader, post: Post, cell: PixelSize) async throws {
        // The server sends a ThumbHash (base64) beside each picture's URL.
        let placeholder = ImagePlaceholder.thumbHash(try ThumbHash(base64: post.thumbHash))
        let request = ImageRequest(url: post.pictureURL, size: cell, placeholder: placeholder)
        for try await update in loader.updates(for: request) {
            if case .placeholder(let blurred) = update { show(blurred, scaledTo: cell) }
            if case .image(let loaded) = update { show(loaded.bitmap) }
        }
    }

    static func remembered(cache: DiskCache, loader: ImageLoader, url: URL, request: ImageRequest) async {
        if let hash = await cache.placeholder(for: url) { show(hash.rendered()) }
        let drawn = await loader.placeholder(for: request)?.rendered()
        _ = drawn
    }

    static func session(session: PhotoBrowserSession) async throws {
        if let interim = await session.placeholderPage() { draw(interim) }
        draw(try await session.currentPage())
    }

    static func signatures(original: Bitmap, fromWeChat: Bitmap, jpegBytes: [UInt8], signatures: [String: ImageSignature], newPhoto: ImageSignature) throws {
        let a = ImageSignature(summarizing: original)
        let b = ImageSignature(summarizing: fromWeChat)
        if a.match(b).isNearDuplicate { print("the same photo") }
        let signature = try ImageSignature(summarizingImage: jpegBytes)
        var index = SignatureIndex<String>()
        for (name, signature) in signatures { index.insert(signature, for: name) }
        let copies = index.nearDuplicates(of: newPhoto)  // verified
        let groups = index.groups()  // [[name]], two or more each
        _ = (signature, copies, groups)
    }
}
