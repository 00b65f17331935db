import Foundation
import ImageCodecs

extension FolderPhotoLibrary: PickableSource {
    /// Rescans, then offers the matching assets in library order, each
    /// with its file's path and what moves in it (a video's bytes are never
    /// read into memory: ``AlbumStore/add(_:to:)`` copies the file).
    public func candidates(matching filter: AssetFilter) async throws -> [PickedAsset] {
        try scan()
        return try assets(matching: filter).map { asset in
            let path = asset.path
            return PickedAsset(id: asset.id, info: asset.info, media: asset.media, path: path) { () throws(ImageCodecError) -> [UInt8] in
                let file = try FileByteSource(path: path)
                return try file.bytes(at: 0, length: file.count)
            }
        }
    }
}

extension CameraSource: PickableSource {
    /// Captures one still from the preferred camera and offers it (when it
    /// matches the filter).
    public func candidates(matching filter: AssetFilter) async throws -> [PickedAsset] {
        guard let device = provider.preferredDevice() else { throw CameraError.unavailable(reason: "no camera can capture") }
        let bytes = try await provider.captureStill(from: device.id, near: 1920, 1080)
        let info = try ImageInfo(probing: bytes)
        guard filter.matches(info) else { return [] }
        let name = "capture-\(Int(Date().timeIntervalSince1970)).jpg"
        return [PickedAsset(id: name, info: info) { () throws(ImageCodecError) -> [UInt8] in bytes }]
    }
}
