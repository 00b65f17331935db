// The samples of the stores' async openers (`open(...)`), compiled.

import ImageLoading
import PhotoAlbum
import ShareKit
import WeiboKit

enum OpeningSnippets {
    static func library() async throws {
        let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
        _ = library
    }

    static func timelineCache() async throws {
        let cache = try await WeiboTimelineCache.open(path: "timeline.sqlite")
        _ = cache
    }

    static func diskCache() async throws {
        let cache = try await DiskCache.open(directory: "Caches/images", capacityBytes: 200 << 20)
        _ = cache
    }

    static func outbox(center: ShareCenter) async throws {
        let outbox = try await Outbox.open(path: "outbox.sqlite", center: center)
        _ = outbox
    }
}
