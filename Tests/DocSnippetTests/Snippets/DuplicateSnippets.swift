// Compiled copies of the doc-comment samples for near-duplicates, resolving and stacks.

import Foundation
import ImageCodecs
import PhotoAlbum

enum DuplicateSnippets {
    static func lookups(store: AlbumStore, item: AlbumItem) async throws {
        let copies = try await store.nearDuplicates(of: item.asset)
        let signature = try ImageSignature(summarizingImageAt: "/tmp/received.jpg")
        if let copy = try await store.nearDuplicates(of: signature).first { print("already stored as \(copy)") }
        for group in try await store.duplicateGroups(in: "Trip") {
            print("keep \(group.suggestedKeeper), \(group.assets.count - 1) copies")
        }
        _ = copies
    }

    static func resolving(store: AlbumStore) async throws {
        let group = try await store.duplicateGroups().first!
        let resolution = try await store.resolve(group)
        // changed their mind:
        try await store.undo(resolution)
    }

    static func merging(keeper: PhotoAnnotations, copy1: PhotoAnnotations, copy2: PhotoAnnotations) {
        let kept = keeper.merging([copy1, copy2])
        _ = kept
    }

    static func sharing(store: AlbumStore, outbox: String) async throws {
        for item in try await store.itemsToShare(in: "Trip") {  // twelve burst frames: their cover
            try await store.export(item.asset, to: "\(outbox)/\(item.originalName)")
        }
        var configuration = PickerConfiguration(selectionLimit: 0)
        configuration.stacks = .everyFrame  // a burst's twelve frames, each on offer
        _ = configuration
    }

    static func stacks(store: AlbumStore) async throws {
        for stack in try await store.stacks(in: "Trip") {
            print(stack.kind, stack.assets.count, "frames, cover", stack.cover)
        }
    }

    static func sharpness(bitmaps: [Bitmap], paths: [String]) throws {
        let frames = bitmaps.map(ImageSharpness.init(measuring:))
        let cover = frames.indices.max { frames[$1].isBetterCover(than: frames[$0]) }
        let sharpest = try paths.max { try ImageSharpness(measuringImageAt: $1).isBetterCover(than: ImageSharpness(measuringImageAt: $0)) }
        _ = (cover, sharpest)
    }
}
