public import ServiceKit

extension MultipartForm {
    /// Adds a prepared image as a file named `photo.<extension>` with its
    /// format's media type (`image/jpeg`, `image/png`).
    public mutating func addImage(_ name: String, _ image: PreparedContent.Image) {
        let fileExtension = image.format.fileExtensions.first ?? image.format.identifier
        addFile(name, filename: "photo.\(fileExtension)", contentType: image.format.mediaType, data: image.bytes)
    }
}

extension MultipartForm {
    /// Adds a prepared video as a file named `video.mp4` (`video/mp4`),
    /// read from its file with a bound of `maxBytes` (the destination's cap).
    ///
    /// - Throws: ``ShareKit/ShareError/invalidContent(_:)`` when the file cannot be
    ///   read or has grown past the cap since it was prepared.
    public mutating func addVideo(_ name: String, _ video: PreparedContent.Video, maxBytes: Int) throws(ShareError) {
        addFile(name, filename: "video.mp4", contentType: "video/mp4", data: try video.bytes(limit: maxBytes))
    }
}
