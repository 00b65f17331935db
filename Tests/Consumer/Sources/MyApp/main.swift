// The smallest app over every PhotoDeck product: it fits the photos given
// on the command line into an album and lists the share targets for them.

import Foundation
import ImageCodecs
import PhotoAlbum
import PhotoBrowser
import PhotoGallery
import ShareKit
import WeChatShare
import WeiboKit
import WeiboShare

/// Shares a caption; what the app's tests exercise with a mock provider.
public struct CaptionSharer: Sendable {
    let center: ShareCenter

    /// Creates a sharer over `center`.
    public init(center: ShareCenter) { self.center = center }

    /// Shares `text` to the first target; `true` when it was posted.
    public func share(_ text: String) async -> Bool {
        let content = ShareContent(text: text)
        guard let target = await center.targets(for: content).first else { return false }
        return (try? await center.share(content, to: target)).map { if case .posted = $0 { true } else { false } } ?? false
    }
}

let paths = Array(CommandLine.arguments.dropFirst())
let store = try await AlbumStore.open(directory: FileManager.default.temporaryDirectory.appendingPathComponent("MyApp-albums").path)
if try await !store.albums().contains(where: { $0.name == "Inbox" }) { try await store.createAlbum(named: "Inbox") }
var photos: [BrowserPhoto] = []
for path in paths {
    let page = try DecodedImage(renderingFileAt: path, in: PixelSize(width: 1170, height: 2532), mode: .fit)
    print(path, page.bitmap.size, try await store.importFile(at: path, into: "Inbox").isNew ? "added" : "already in album")
    photos.append(try BrowserPhoto(fileAt: path))
}
if !photos.isEmpty {
    let session = try await PhotoBrowserSession(collection: photos, settings: .init(viewportSize: CGSize(width: 390, height: 844), screenScale: 3))
    print("first page", try await session.currentPage().rendition.size)
    let gallery = FileManager.default.temporaryDirectory.appendingPathComponent("MyApp-gallery").path
    let published = try await GalleryPublisher(options: GalleryOptions(title: "Inbox")).publish(
        try await GalleryPhoto.photos(of: "Inbox", in: store), to: gallery)
    print("gallery", published.photoCount, "photos in", gallery)
}
let center = ShareCenter()
await center.register(WeComWebhookProvider(configuration: .init(webhookKey: "KEY")))
await center.register(WeiboProvider(configuration: .init(appKey: "123", safeDomainLink: URL(string: "https://example.com/app")!)))
print(await center.targets(for: ShareContent(text: "hello")).map(\.description))

// The Weibo client's values, seen from outside.
print("weibo", WeiboUserReference(parsing: "1404376560"), WeiboRateLimits.documented.posts.count, "posts an hour")
