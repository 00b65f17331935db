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
            return Self.firstChannel(of: try picture(handle, threads: 1).bitmap())
        }
        return nil
    }

    /// The ISO 21496-1 gain map of the primary image, as a `tmap` item
    /// declares it (ISO/IEC 23008-12:2024 Amd 1): the item's metadata and
    /// its second `dimg` reference decoded (one channel or three, the
    /// container's transforms applied); `nil` when no `tmap` item has the
    /// primary image as its base.
    func toneMapGainMap() throws(ImageCodecError) -> (parameters: GainMapParameters, map: Bitmap)? {
        guard let declared else { return nil }
        guard let primaryID = declared.primary else { return nil }
        for (id, data) in declared.toneMaps.sorted(by: { $0.key < $1.key }) {
            let inputs = declared.references["dimg"]?[id] ?? []
            guard inputs.count == 2, inputs[0] == primaryID else { continue }
            guard data.first == 0 else { throw .unsupportedFeature(format: format, feature: "tmap version \(data[0])") }
            let parameters: GainMapParameters
            do {
                parameters = try GainMapParameters(iso21496: Array(data.dropFirst()))
            } catch {
                throw .corrupt(format: format, message: "tmap item \(id): \(error)")
            }
            var handle: OpaquePointer?
            let found = heif_context_get_image_handle(context, inputs[1], &handle)
            guard found.code == heif_error_Ok, let handle else { throw Self.error(found, format: format, while: "finding the tmap's gain map") }
            defer { heif_image_handle_release(handle) }
            let declaredSize = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            guard declaredSize.width <= size.width, declaredSize.height <= size.height else {
                throw .corrupt(format: format, message: "the gain map (\(declaredSize)) is larger than the photo (\(size))")
            }
            let rgb = try picture(handle, threads: 1).bitmap()
            return (parameters, parameters.channels.count == 1 ? Self.firstChannel(of: rgb) : rgb.converted(to: .rgb8))
        }
        return nil
    }

    /// The first channel of an RGB(A) bitmap, as grey.
    static func firstChannel(of rgb: Bitmap) -> Bitmap {
        let channels = rgb.pixelFormat.bytesPerPixel
        var grey = [UInt8](repeating: 0, count: rgb.width * rgb.height)
        rgb.withUnsafeBytes { pixels in
            for row in 0..<rgb.height {
                for column in 0..<rgb.width { grey[row * rgb.width + column] = pixels[row * rgb.bytesPerRow + column * channels] }
            }
        }
        return Bitmap(uncheckedWidth: rgb.width, height: rgb.height, bytesPerRow: rgb.width, pixelFormat: .gray8, pixels: grey)
    }

    /// A gain map computed for a PQ or HLG primary image that carries none:
    /// the picture decoded again, its HDR rendition over the SDR one
    /// PhotoDeck shows, averaged over 4x4 blocks (libultrahdr's default
    /// map scale); `nil` for an SDR picture.
    func computedGainMap() throws(ImageCodecError) -> (parameters: GainMapParameters, map: Bitmap)? {
        guard Self.hdrCodePoints(of: primary) != nil else { return nil }
        return try picture(primary, threads: 1).gainMap(blocks: 4)
    }
}
