import Foundation
import ImageCodecs

extension FolderPhotoLibrary: PickableSource {
    /// Rescans, then offers the matching photos in library order: stills
    /// only (a Live Photo or a Motion Photo offers its still), since a
    /// picked asset's bytes are handed over in memory.
    public func candidates(matching filter: AssetFilter) async throws -> [PickedAsset] {
        try scan()
        return try assets(matching: .all([filter, .not(.media([.video]))])).map { asset in
            let path = asset.path
            return PickedAsset(id: asset.id, info: asset.info) { () throws(ImageCodecError) -> [UInt8] in
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
