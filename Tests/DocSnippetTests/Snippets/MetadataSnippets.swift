// The doc-comment samples of metadata policies, lossless JPEG transforms,
// album exports and the picker's hand-off, compiled.

import ImageCodecs
import PhotoAlbum
import ShareKit

enum MetadataSnippets {
    static func upload(_ bytes: [UInt8]) {}

    static func policy(jpegBytes: [UInt8]) throws {
        let shared = try MetadataPolicy.default.rewriting(jpegBytes)
        print(shared.removed)  // [.location, .identifying, .xmp, .iptc]
        upload(shared.bytes)  // the same pixels, no GPS, no serial numbers
    }

    static func readme(photo: [UInt8]) throws {
        let shared = try MetadataPolicy.default.rewriting(photo)  // same pixels; GPS, serials, XMP, IPTC gone
        let upright = try JPEGTransform.applyingOrientation(of: photo)  // EXIF orientation applied by moving blocks, tag reset to 1
        let turned = try JPEGTransform.apply(.rotate90, to: photo, edges: .trim, metadata: .default)
        _ = (shared, upright, turned)
    }

    static func transform(photo: [UInt8]) throws {
        // A portrait phone photo (EXIF orientation 6) made upright, its tag reset to 1:
        let upright = try JPEGTransform.applyingOrientation(of: photo)
        // Rotated a quarter turn clockwise, GPS and serial numbers taken out:
        let turned = try JPEGTransform.apply(.rotate90, to: photo, edges: .trim, metadata: .default)
        _ = (upright, turned)
    }

    static func export(store: AlbumStore, item: AlbumItem) async throws {
        let bytes = try await store.exportedData(of: item.asset)  // GPS and serial numbers gone
        let turned = try await store.exportedData(of: item.asset, rotatedBy: .rotate90)  // a quarter turn, no loss
        _ = (bytes, turned)
    }

    static func picked(_ picked: PickedAsset) throws {
        let bytes = try picked.encodedData(keeping: .default)  // GPS and serial numbers gone
        _ = bytes
    }

    static func shareSheet(photo: [UInt8], userWantsLocation: Bool) {
        var content = ShareContent(images: [.encoded(photo)])
        content.metadata.keepsLocation = userWantsLocation
        _ = content
    }

    static func shareVideo() {
        let content = ShareContent(text: "The waves", video: ShareVideo(path: "/videos/IMG_0001.MOV"))
        _ = content
    }
}
