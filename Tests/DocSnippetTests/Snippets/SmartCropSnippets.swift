// The smart crop samples of the doc comments (ImageCore, ImageCodecs,
// PhotoViewer) and of Documentation/Articles/SmartCrop.md, compiled.

import ImageCodecs
import PhotoViewer

enum SmartCropSnippets {
    static func strategy(jpegBytes: [UInt8]) throws {
        let options = RenditionOptions(crop: .attention)
        let cell = try DecodedImage(rendering: jpegBytes, in: PixelSize(width: 256, height: 256), mode: .fill, options: options)
        // cell.crop is the part of the upright photo the square shows.
        _ = cell
    }

    static func article(jpegBytes: [UInt8]) throws {
        let options = RenditionOptions(crop: .attention)
        let cell = try DecodedImage(rendering: jpegBytes, in: PixelSize(width: 256, height: 256), mode: .fill, options: options)
        // cell.bitmap is 256x256; cell.crop is the part of the upright photo it shows.
        _ = cell
    }

    static func cropRect(filled: Bitmap) {
        let square = PixelSize(width: filled.height, height: filled.height)
        let rect = filled.cropRect(square, strategy: .attention)
        _ = rect
    }

    static func filling(thumbnail: Bitmap) {
        let cell = thumbnail.filling(PixelSize(width: 128, height: 128), crop: .attention)
        _ = cell
    }

    static func inMemory(thumbnail: Bitmap) {
        let square = thumbnail.filling(PixelSize(width: 128, height: 128), crop: .attention)
        let kept = thumbnail.cropRect(PixelSize(width: thumbnail.height, height: thumbnail.height), strategy: .attention)
        _ = (square, kept)
    }

    static func grid(controller: ViewerController) async {
        await controller.setGridCells(.fill(.attention))  // the default
        await controller.setGridCells(.fit)  // whole photos, letterboxed
    }
}
