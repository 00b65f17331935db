import CHeif

extension HEIFFile {
    /// The auxiliary type of Apple's HDR gain map.
    static let appleGainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// Apple's auxiliary HDR gain map of the primary image, decoded to one
    /// grey channel with the container's transforms applied; `nil` when
    /// there is none. The map's declared size was checked against the
    /// limits with every other image when the file was opened
    /// (``HEIFItems``); one larger than the photo is refused here.
    func appleGainMap() throws(ImageCodecError) -> Bitmap? {
        let filter = Int32(LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH)
        let count = Int(heif_image_handle_get_number_of_auxiliary_images(primary, filter))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let listed = Int(heif_image_handle_get_list_of_auxiliary_image_IDs(primary, filter, &ids, Int32(ids.count)))
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_auxiliary_image_handle(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            defer { heif_image_handle_release(handle) }
            var type: UnsafePointer<CChar>?
            guard heif_image_handle_get_auxiliary_type(handle, &type).code == heif_error_Ok, let text = type else { continue }
            let name = String(cString: text)
            heif_image_handle_free_auxiliary_types(handle, &type)
            guard name == Self.appleGainMapType else { continue }
            let declared = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            guard declared.width <= size.width, declared.height <= size.height else {
                throw .corrupt(format: format, message: "the gain map (\(declared)) is larger than the photo (\(size))")
            }
            let rgb = try picture(handle, threads: 1).bitmap()
            let channels = rgb.pixelFormat.bytesPerPixel
            var grey = [UInt8](repeating: 0, count: rgb.width * rgb.height)
            rgb.withUnsafeBytes { pixels in
                for row in 0..<rgb.height {
                    for column in 0..<rgb.width { grey[row * rgb.width + column] = pixels[row * rgb.bytesPerRow + column * channels] }
                }
            }
            return Bitmap(uncheckedWidth: rgb.width, height: rgb.height, bytesPerRow: rgb.width, pixelFormat: .gray8, pixels: grey)
        }
        return nil
    }
}
