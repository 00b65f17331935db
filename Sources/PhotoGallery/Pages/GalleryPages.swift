import Foundation
import ImageCodecs
import SafeText

/// The gallery's HTML: the index (a grid of tiles, each a link to its
/// photo's page) and a page per photo. Pictures are `<picture>`s: WebP
/// with a JPEG fallback, `srcset` by width and `sizes` from the layout,
/// width and height set, the ThumbHash placeholder as the tile's
/// background (so it shows before the picture, with or without script).
/// Everything works without JavaScript; `gallery.js` adds the in-page
/// viewer, keys and swipes. Nothing is loaded from anywhere else (the
/// pages' Content-Security-Policy says so too).
enum GalleryPages {
    /// What `sizes` says of a tile, per layout (the grid's columns, its
    /// 8-pixel padding and gaps), inflated by 1.23: a browser may take the
    /// rendition just under what `sizes` asks (Chromium does when the
    /// screen's density is under the geometric mean of two candidates'),
    /// and with neighbours 1.5x apart the one it takes is still at least
    /// the tile's real size on the screen.
    static let tileSizes =
        "(min-width: 1400px) calc((100vw - 48px) * 0.246), (min-width: 900px) calc((100vw - 40px) * 0.3075), "
        + "(min-width: 600px) calc((100vw - 32px) * 0.41), calc((100vw - 24px) * 0.615)"

    /// `sizes` for a photo shown whole on the screen (its page, the viewer),
    /// `reserved` CSS pixels of the height taken by the bars around it.
    static func fullSizes(of size: PixelSize, reserved: Int) -> String {
        let ratio = String(format: "%.4f", Double(size.width) / Double(size.height))
        return "(min-aspect-ratio: \(size.width)/\(size.height)) calc((100vh - \(reserved)px) * \(ratio) * 1.23), calc(100vw * 1.23)"
    }

    /// The most of a caption a page shows (it is in the index twice per
    /// photo): a caption is a claim (EXIF can hold 64 KB of it).
    static let captionCharacters = 300

    /// `caption` as the pages show it: trimmed, at most
    /// ``captionCharacters`` (cut with "…"), escaped; `nil` when empty.
    static func shownCaption(_ caption: String?) -> String? {
        guard let trimmed = caption?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return MarkupText.escaped(CappedText.cut(trimmed, to: captionCharacters))
    }

    /// The height the photo page's bars take.
    static let pageBars = 104

    /// The index page.
    static func index(_ photos: [PhotoRenditions], options: GalleryOptions) -> String {
        let title = MarkupText.escaped(options.title)
        var tiles = ""
        for (position, photo) in photos.enumerated() {
            let eager = position < options.eagerTiles
            let caption = shownCaption(photo.caption)
            tiles += """
                <a class="tile" id="\(photo.shortID)" href="\(photo.pagePath)" style="background-image:url(\(photo.placeholder))" \
                data-large="\(fullSizes(of: photo.size, reserved: 0))"\(caption.map { " data-caption=\"\($0)\"" } ?? "")>\
                \(picture(photo, sizes: tileSizes, fallbackWidth: 540, alt: caption ?? "Photo \(position + 1) of \(photos.count)", eager: eager, prefix: ""))</a>

                """
        }
        let description = options.description.map { "<p>\(MarkupText.escaped($0))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            \(head(title: title, description: cardDescription(options, count: photos.count), card: photos.first, url: "", options: options, prefix: ""))
            </head>
            <body class="index">
            <header><h1>\(title)</h1>\(description)<p class="count">\(photos.count == 1 ? "1 photo" : "\(photos.count) photos")</p></header>
            <main class="grid">
            \(tiles)</main>
            <script src="gallery.js" defer></script>
            </body>
            </html>

            """
    }

    /// The page of `photos[position]`: the photo fitted to the screen, its
    /// caption, and links to the one before, the one after and the index.
    static func photoPage(_ photos: [PhotoRenditions], at position: Int, options: GalleryOptions) -> String {
        let photo = photos[position]
        let title = MarkupText.escaped(options.title)
        let caption = shownCaption(photo.caption)
        let previous = position > 0 ? photos[position - 1] : nil
        let next = position + 1 < photos.count ? photos[position + 1] : nil
        func link(_ other: PhotoRenditions?, rel: String, text: String) -> String {
            guard let other else { return "<span class=\"\(rel) none\">\(text)</span>" }
            return "<a rel=\"\(rel)\" href=\"\(other.shortID).html\">\(text)</a>"
        }
        let pageTitle = caption.map { "\($0) · \(title)" } ?? "\(position + 1)/\(photos.count) · \(title)"
        let alt = caption ?? "Photo \(position + 1) of \(photos.count)"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            \(head(title: pageTitle, description: caption ?? cardDescription(options, count: photos.count), card: photo, url: photo.pagePath, options: options, prefix: "../"))
            \(previous.map { "<link rel=\"prev\" href=\"\($0.shortID).html\">" } ?? "")
            \(next.map { "<link rel=\"next\" href=\"\($0.shortID).html\">" } ?? "")
            </head>
            <body class="photo-page">
            <nav class="bar"><a rel="up" href="../index.html#\(photo.shortID)">\(title)</a><span class="position">\(position + 1) / \(photos.count)</span></nav>
            <figure class="photo"><div class="frame" style="background-image:url(\(photo.placeholder))">\
            \(picture(photo, sizes: fullSizes(of: photo.size, reserved: pageBars), fallbackWidth: 1215, alt: alt, eager: true, prefix: "../"))</div>\
            \(caption.map { "<figcaption>\($0)</figcaption>" } ?? "")</figure>
            <nav class="bar steps">\(link(previous, rel: "prev", text: "← Previous"))\(link(next, rel: "next", text: "Next →"))</nav>
            <script src="../gallery.js" defer></script>
            </body>
            </html>

            """
    }

    /// A photo's `<picture>`: its WebP renditions (none for an HDR photo,
    /// whose JPEGs carry its gain map), the JPEGs as the fallback `<img>`.
    static func picture(_ photo: PhotoRenditions, sizes: String, fallbackWidth: Int, alt: String, eager: Bool, prefix: String) -> String {
        func srcset(_ renditions: [GalleryRendition]) -> String {
            renditions.map { "\(prefix)\($0.path) \($0.width)w" }.joined(separator: ", ")
        }
        let fallback = photo.jpeg.last { $0.width <= fallbackWidth } ?? photo.jpeg[0]
        let size = photo.size
        let source = photo.webp.isEmpty ? "" : "<source type=\"image/webp\" srcset=\"\(srcset(photo.webp))\" sizes=\"\(sizes)\">"
        return """
            <picture>\(source)<img src="\(prefix)\(fallback.path)" srcset="\(srcset(photo.jpeg))" sizes="\(sizes)" \
            width="\(size.width)" height="\(size.height)" alt="\(alt)" decoding="async"\(eager ? "" : " loading=\"lazy\"")></picture>
            """
    }

    /// The `<head>` of a page: the words, the link cards' tags (their
    /// picture and URL absolute under the base URL, when there is one),
    /// the style sheet, and the policy that nothing loads from elsewhere.
    static func head(title: String, description: String, card: PhotoRenditions?, url: String, options: GalleryOptions, prefix: String) -> String {
        var lines = [
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; base-uri 'none'; form-action 'none'\">",
            "<meta name=\"referrer\" content=\"no-referrer\">",
            "<title>\(title)</title>",
            "<meta name=\"description\" content=\"\(description)\">",
            "<meta property=\"og:type\" content=\"website\">",
            "<meta property=\"og:title\" content=\"\(title)\">",
            "<meta property=\"og:description\" content=\"\(description)\">",
        ]
        if let base = options.baseURL.map(baseString) {
            lines.append("<meta property=\"og:url\" content=\"\(MarkupText.escaped(base + url))\">")
            if let picture = card?.cardPicture {
                lines += [
                    "<meta property=\"og:image\" content=\"\(MarkupText.escaped(base + picture.path))\">",
                    "<meta property=\"og:image:type\" content=\"image/jpeg\">",
                    "<meta property=\"og:image:width\" content=\"\(picture.width)\">",
                    "<meta property=\"og:image:height\" content=\"\(picture.height)\">",
                    "<meta name=\"twitter:card\" content=\"summary_large_image\">",
                ]
            }
        }
        // No favicon.ico to ask for (a 404 in every browser's console).
        lines.append("<link rel=\"icon\" href=\"data:,\">")
        lines.append("<link rel=\"stylesheet\" href=\"\(prefix)gallery.css\">")
        return lines.joined(separator: "\n")
    }

    /// The base URL as text ending in one `/`.
    static func baseString(_ url: URL) -> String {
        let text = url.absoluteString
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// The link cards' description: the gallery's, or how many photos it has.
    static func cardDescription(_ options: GalleryOptions, count: Int) -> String {
        options.description.map(MarkupText.escaped) ?? (count == 1 ? "1 photo" : "\(count) photos")
    }
}
