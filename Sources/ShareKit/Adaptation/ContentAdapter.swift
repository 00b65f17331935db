import Foundation
import ImageCodecs

/// Fits content to a destination's ``ShareConstraints`` before any provider
/// sees it: images re-encoded to an accepted format and quality-searched
/// under the byte cap (downscaled when even low quality is too large), a
/// thumbnail made under its cap, text counted and trimmed the provider's
/// way, a link moved into the text when the destination takes no link
/// object. What cannot be fixed is reported, every violation at once.
public struct ContentAdapter: Sendable {
    /// The lowest JPEG/WebP quality the byte-cap search tries before
    /// downscaling instead.
    public var minimumQuality: Int
    /// The quality tried first.
    public var preferredQuality: Int

    /// Creates an adapter.
    public init(minimumQuality: Int = 40, preferredQuality: Int = 90) {
        self.minimumQuality = minimumQuality
        self.preferredQuality = preferredQuality
    }

    /// The content, prepared; or ``ShareError/invalidContent(_:)`` listing
    /// every violation adaptation cannot fix.
    public func prepare(_ content: ShareContent, for constraints: ShareConstraints) throws(ShareError) -> PreparedContent {
        var violations: [ConstraintViolation] = []
        var adjustments: [String] = []
        var encodes = 0
        if content.isEmpty { violations.append(ConstraintViolation(code: "content.empty", message: "there is nothing to share")) }
        if !constraints.allowsMixedContent, content.link != nil, !content.images.isEmpty {
            violations.append(ConstraintViolation(code: "content.mixed", message: "a link and images cannot be shared together here; share them separately"))
        }

        // Links.
        var text = content.text ?? ""
        var link: ShareLink?
        var linkSuffix = ""
        if let contentLink = content.link {
            switch constraints.links {
            case .object(let maxTitle, let maxSummary):
                let counter = TextCounter(.characters)
                var trimmed = contentLink
                trimmed.title = contentLink.title.map { counter.truncate($0, to: maxTitle) }
                trimmed.summary = contentLink.summary.map { counter.truncate($0, to: maxSummary) }
                if trimmed != contentLink { adjustments.append("trimmed the link's title or summary") }
                link = trimmed
            case .inText:
                linkSuffix = contentLink.url.absoluteString
                adjustments.append("moved the link into the text")
            case .unsupported:
                violations.append(ConstraintViolation(code: "link.unsupported", message: "links cannot be shared here"))
            }
        }

        // Text.
        var finalText: String?
        if let rule = constraints.text {
            let counter = TextCounter(rule.counting)
            let separator = text.isEmpty || linkSuffix.isEmpty ? "" : " "
            let reserved = linkSuffix.isEmpty ? 0 : counter.length(of: separator + linkSuffix)
            if reserved > rule.maxLength {
                violations.append(ConstraintViolation(code: "text.link", message: "the link alone is longer than the \(rule.maxLength) characters allowed"))
            } else {
                let trimmed = counter.truncate(text, to: rule.maxLength - reserved)
                if trimmed != text { adjustments.append("shortened the text to fit \(rule.maxLength) characters") }
                text = trimmed + (linkSuffix.isEmpty ? "" : separator + linkSuffix)
            }
            if rule.isRequired && text.isEmpty {
                violations.append(ConstraintViolation(code: "text.required", message: "this destination needs some text"))
            }
            finalText = text.isEmpty ? nil : text
        } else if !text.isEmpty || !linkSuffix.isEmpty {
            violations.append(ConstraintViolation(code: "text.unsupported", message: "this destination takes no text"))
        }

        // Images.
        var images: [PreparedContent.Image] = []
        if !content.images.isEmpty {
            if let rule = constraints.images {
                if content.images.count > rule.maxCount {
                    violations.append(
                        ConstraintViolation(
                            code: "images.count", message: "\(content.images.count) images were given; at most \(rule.maxCount) can be shared here"
                        ))
                } else {
                    for (index, image) in content.images.enumerated() {
                        do {
                            let (prepared, changed) = try fit(
                                image, formats: rule.formats, maxBytes: rule.maxBytes,
                                box: rule.maxDimension.map { PixelSize(width: $0, height: $0) }, encodes: &encodes)
                            if changed {
                                adjustments.append("re-encoded image \(index + 1) as \(prepared.format) \(prepared.size), \(prepared.bytes.count) bytes")
                            }
                            images.append(prepared)
                        } catch let error as ShareError {
                            if case .invalidContent(let found) = error { violations += found } else { throw error }
                        } catch {
                            throw .adaptationFailed("\(error)")
                        }
                    }
                }
            } else {
                violations.append(ConstraintViolation(code: "images.unsupported", message: "this destination takes no images"))
            }
        }

        // Thumbnail.
        var thumbnail: PreparedContent.Image?
        if let rule = constraints.thumbnail, let source = content.link?.thumbnail ?? content.images.first {
            do {
                thumbnail = try fit(source, formats: [rule.format], maxBytes: rule.maxBytes, box: rule.maxSize, forceEncode: true, encodes: &encodes).0
            } catch let error as ShareError {
                if case .invalidContent(let found) = error { violations += found } else { throw error }
            } catch {
                throw .adaptationFailed("\(error)")
            }
        }

        guard violations.isEmpty else {
            // The thumbnail is made from the first image: report a bad image once.
            var seen = Set<ConstraintViolation>()
            throw .invalidContent(violations.filter { seen.insert($0).inserted })
        }
        return PreparedContent(text: finalText, images: images, link: link, thumbnail: thumbnail, adjustments: adjustments, encodeCount: encodes)
    }

    /// An image in one of `formats`, inside `box`, under `maxBytes`; the
    /// original bytes when they already qualify.
    func fit(
        _ image: ShareImage, formats: [ImageFormat], maxBytes: Int, box: PixelSize?, forceEncode: Bool = false, encodes: inout Int
    ) throws -> (PreparedContent.Image, Bool) {
        guard let format = formats.first(where: { ImageCodecRegistry.shared.encodableFormats.contains($0) }) else {
            throw ShareError.invalidContent([ConstraintViolation(code: "images.format", message: "none of the accepted formats can be written")])
        }
        var bitmap: Bitmap
        switch image {
        case .encoded(let bytes):
            let info: ImageInfo
            do { info = try ImageInfo(probing: bytes) } catch {
                throw ShareError.invalidContent([ConstraintViolation(code: "images.unreadable", message: "an image cannot be read: \(error)")])
            }
            let fitsBox = box.map { info.orientedSize.width <= $0.width && info.orientedSize.height <= $0.height } ?? true
            if !forceEncode, formats.contains(info.format), bytes.count <= maxBytes, fitsBox, info.orientation == .up {
                return (PreparedContent.Image(bytes: bytes, format: info.format, size: info.size), false)
            }
            let target = box ?? info.orientedSize
            bitmap = try DecodedImage(rendering: bytes, in: target).bitmap
        case .bitmap(let pixels):
            bitmap = pixels
            if let box, !box.covers(pixels.size) { bitmap = pixels.resized(to: pixels.size.fitting(in: box)) }
        }
        let lossy = format == .jpeg || format == .webp
        for _ in 0..<6 {
            // The preferred quality first (most images fit at once), then
            // the highest quality that fits, by binary search.
            var best: [UInt8]?
            if lossy {
                let first = try bitmap.encoded(as: format, options: EncodeOptions(quality: preferredQuality))
                encodes += 1
                if first.count <= maxBytes {
                    best = first
                } else {
                    var low = minimumQuality
                    var high = preferredQuality - 1
                    while low <= high {
                        let quality = (low + high) / 2
                        let encoded = try bitmap.encoded(as: format, options: EncodeOptions(quality: quality))
                        encodes += 1
                        if encoded.count <= maxBytes {
                            best = encoded
                            low = quality + 1
                        } else {
                            high = quality - 1
                        }
                    }
                }
            } else {
                let encoded = try bitmap.encoded(as: format, options: EncodeOptions(compressionLevel: 9))
                encodes += 1
                if encoded.count <= maxBytes { best = encoded }
            }
            if let best { return (PreparedContent.Image(bytes: best, format: format, size: bitmap.size), true) }
            // Too large even at the lowest quality: shrink and try again.
            guard bitmap.width > 16 || bitmap.height > 16 else { break }
            bitmap = bitmap.resized(to: bitmap.size.scaled(by: 0.7))
        }
        throw ShareError.invalidContent([ConstraintViolation(code: "images.bytes", message: "an image cannot be made smaller than \(maxBytes) bytes")])
    }
}
