public import ServiceKit

extension MultipartForm {
    /// Adds a prepared image as a file named `photo.<extension>` with its
    /// format's media type (`image/jpeg`, `image/png`).
    public mutating func addImage(_ name: String, _ image: PreparedContent.Image) {
        let fileExtension = image.format.fileExtensions.first ?? image.format.identifier
        addFile(name, filename: "photo.\(fileExtension)", contentType: image.format.mediaType, data: image.bytes)
    }
}
