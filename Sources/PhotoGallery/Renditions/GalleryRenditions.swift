import Foundation
import ImageCodecs
import SystemSupport

/// One picture file of a gallery.
struct GalleryRendition: Hashable, Sendable {
    let width: Int
    let height: Int
    /// Its path inside the gallery: `r/<photo>-<width>-<settings>.<ext>`.
    let path: String
}

/// A photo as the pages show it: its renditions (ascending widths), the
/// placeholder shown before them, and its caption.
struct PhotoRenditions: Sendable {
    let id: String
    let shortID: String
    let caption: String?
    /// WebP renditions; empty for a photo whose JPEGs carry an HDR gain
    /// map (WebP cannot carry one, so the page offers the JPEGs alone).
    let webp: [GalleryRendition]
    let jpeg: [GalleryRendition]
    /// A `data:image/png;base64,` URI of the photo's ThumbHash, about 24 pixels across.
    let placeholder: String

    /// The largest rendition's size (the photo's shape).
    var size: PixelSize { PixelSize(width: jpeg.last?.width ?? 1, height: jpeg.last?.height ?? 1) }
    /// The page of the photo, inside the gallery.
    var pagePath: String { "p/\(shortID).html" }
    /// The link cards' picture: the JPEG nearest 1,200 pixels wide (at least 300 when the photo is).
    var cardPicture: GalleryRendition {
        jpeg.first { $0.width >= 1_200 } ?? jpeg.last!
    }
}

/// Makes a photo's renditions into a gallery being written.
enum GalleryRenditionMaker {
    /// The widths a photo `width` pixels wide gets: the ladder's widths
    /// under it, and its own width (capped by the ladder's largest).
    static func widths(forPhotoWidth width: Int, ladder: [Int]) -> [Int] {
        let top = min(width, ladder.last ?? width)
        return ladder.filter { $0 < top } + [top]
    }

    /// The height of a rendition `width` pixels wide of a photo of `size`.
    static func height(forWidth width: Int, of size: PixelSize) -> Int {
        max(1, Int((Double(size.height) * Double(width) / Double(size.width)).rounded()))
    }

    /// A rendition's path in the gallery.
    static func path(shortID: String, width: Int, settings: String, fileExtension: String) -> String {
        "r/\(shortID)-\(width)-\(settings).\(fileExtension)"
    }

    /// The renditions of `photo` as a manifest entry describes them, when
    /// every file is in the previous gallery at `previous` (a regular
    /// file whose header says that width): nothing is decoded.
    static func kept(_ photo: GalleryPhoto, entry: GalleryManifest.Photo, settings: String, previous: String) -> PhotoRenditions? {
        func renditions(_ fileExtension: String, format: ImageFormat) -> [GalleryRendition]? {
            var made: [GalleryRendition] = []
            for (width, height) in zip(entry.widths, entry.heights) {
                let path = path(shortID: photo.shortID, width: width, settings: settings, fileExtension: fileExtension)
                guard FileSystem.kind(of: "\(previous)/\(path)", followingSymlinks: false) == .regular,
                    let info = try? ImageInfo(probingFileAt: "\(previous)/\(path)"), info.format == format, info.orientedSize.width == width
                else { return nil }
                made.append(GalleryRendition(width: width, height: height, path: path))
            }
            return made
        }
        guard let jpeg = renditions("jpg", format: .jpeg) else { return nil }
        let webp = entry.hasGainMap ? [] : renditions("webp", format: .webp)
        guard let webp else { return nil }
        return PhotoRenditions(
            id: photo.id, shortID: photo.shortID, caption: photo.caption, webp: webp, jpeg: jpeg, placeholder: entry.placeholder)
    }

    /// Decodes `photo` once and writes its renditions under `folder`
    /// (the gallery being written): WebP and JPEG at each width, upright
    /// and in sRGB, the widest ones with the metadata the options keep
    /// (an HDR gain map too, in the JPEGs; the photo is then offered as
    /// JPEG alone). Blocking: call it off the cooperative pool.
    static func make(
        _ photo: GalleryPhoto, options: GalleryOptions, settings: String, into folder: String
    ) throws(GalleryError) -> (renditions: PhotoRenditions, bytes: Int) {
        let bytes: [UInt8]
        do { bytes = try photo.bytes() } catch { throw .unreadablePhoto(id: photo.id, reason: "\(error)") }
        let files: [(path: String, bytes: [UInt8])]
        let renditions: PhotoRenditions
        do throws(ImageCodecError) {
            (renditions, files) = try encode(photo, bytes: bytes, options: options, settings: settings)
        } catch {
            throw .unreadablePhoto(id: photo.id, reason: error.description)
        }
        var written = 0
        for file in files {
            do {
                try DurableFile.write(file.bytes, to: "\(folder)/\(file.path)", durably: false)
            } catch {
                throw .writeFailed(path: "\(folder)/\(file.path)", reason: error.reason)
            }
            written += file.bytes.count
        }
        return (renditions, written)
    }

    /// The renditions' files, encoded (what ``make(_:options:settings:into:)`` writes).
    static func encode(
        _ photo: GalleryPhoto, bytes: [UInt8], options: GalleryOptions, settings: String
    ) throws(ImageCodecError) -> (PhotoRenditions, [(path: String, bytes: [UInt8])]) {
        let info = try ImageInfo(probing: bytes)
        let oriented = info.orientedSize
        let widths = widths(forPhotoWidth: oriented.width, ladder: options.widths)
        let top = PixelSize(width: widths.last!, height: height(forWidth: widths.last!, of: oriented))
        let rendition = try DecodedImage(rendering: bytes, in: top, mode: .fit)
        let source = rendition.bitmap
        // What the widest renditions carry: the source's EXIF under the policy, upright.
        let exif = rendition.exif?.rewritten(under: options.metadata).exif?.settingOrientation(.up)
        var gainMap: GainMapImage?
        if options.metadata.keepsGainMap, case .present(let map, let photoSize) = GainMapImage.read(from: bytes) {
            gainMap = try? map.shaped(as: rendition, photoSize: photoSize)
        }
        var webp: [GalleryRendition] = []
        var jpeg: [GalleryRendition] = []
        var files: [(path: String, bytes: [UInt8])] = []
        for width in widths {
            let size = width == source.width ? source.size : PixelSize(width: width, height: height(forWidth: width, of: source.size))
            let bitmap = size == source.size ? source : source.resized(to: size)
            let carried = width >= options.metadataMinimumWidth ? exif : nil
            let jpegOptions = EncodeOptions(quality: options.jpegQuality, isProgressive: true, exif: carried)
            let jpegPath = path(shortID: photo.shortID, width: width, settings: settings, fileExtension: "jpg")
            if let gainMap {
                let map = gainMap.resized(toMatch: bitmap.size, from: source.size)
                files.append((jpegPath, try UltraHDRJPEG.encode(bitmap, map: map, options: jpegOptions)))
            } else {
                files.append((jpegPath, try bitmap.encoded(as: .jpeg, options: jpegOptions)))
                let webpPath = path(shortID: photo.shortID, width: width, settings: settings, fileExtension: "webp")
                files.append((webpPath, try bitmap.encoded(as: .webp, options: EncodeOptions(quality: options.webpQuality, exif: carried))))
                webp.append(GalleryRendition(width: bitmap.width, height: bitmap.height, path: webpPath))
            }
            jpeg.append(GalleryRendition(width: bitmap.width, height: bitmap.height, path: jpegPath))
        }
        let renditions = PhotoRenditions(
            id: photo.id, shortID: photo.shortID, caption: photo.caption, webp: webp, jpeg: jpeg, placeholder: try placeholder(of: source))
        return (renditions, files)
    }

    /// The photo's ThumbHash, rendered about 24 pixels across, as a PNG data URI.
    static func placeholder(of bitmap: Bitmap) throws(ImageCodecError) -> String {
        let small = bitmap.resized(to: bitmap.size.fitting(in: PixelSize(width: ThumbHash.maxEncodedDimension, height: ThumbHash.maxEncodedDimension)))
        let hash: ThumbHash
        do { hash = try ThumbHash(pixels: small) } catch { throw .invalidArgument("no placeholder: \(error)") }
        var picture = hash.rendered()
        let fitted = picture.size.fitting(in: PixelSize(width: 24, height: 24))
        if fitted != picture.size { picture = picture.resized(to: fitted) }
        let png = try picture.converted(to: .rgb8).encoded(as: .png, options: EncodeOptions(compressionLevel: 9))
        return "data:image/png;base64," + Data(png).base64EncodedString()
    }
}
