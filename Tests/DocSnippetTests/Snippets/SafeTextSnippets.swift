// The doc-comment samples of SafeText and ConsoleIO, compiled.

import ConsoleIO
import Foundation
import SafeText

enum SafeTextSnippets {
    struct Post { var text: String }

    static func json(rows: [[String: String]]) throws {
        let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys])
        print(JSONText.escapingControls(String(decoding: data, as: UTF8.self)))
    }

    static func terminal(post: Post, fileName: String, size: Int) {
        print(TerminalText.safe(post.text))  // lines kept
        print("\(TerminalText.safeLine(fileName))  \(size)")  // one line: \n and \t escaped too
    }

    static func capped() -> String {
        CappedText.cut("The tram up to Graça", to: 8)  // "The tra…"
    }

    static func inputFile(path: String) throws {
        let picture = try InputFile.contents(of: path, limit: 64 << 20)  // a photo to share: 64 MiB
        let leading = try InputFile.prefix(of: path, length: 64)  // enough to tell what it is
        _ = (picture, leading)
    }

    static func streams(showProgressBar: () -> Void) {
        if StandardStream.error.isTerminal { showProgressBar() }
        let interactive = StandardStream.input.isTerminal && StandardStream.output.isTerminal
        _ = interactive
    }

    static func overview(path: String, showProgressBar: () -> Void) throws {
        let picture = try InputFile.contents(of: path, limit: 64 << 20)  // a photo to share: 64 MiB
        if StandardStream.error.isTerminal { showProgressBar() }
        _ = picture
    }

    struct Photo {
        var name: String
        var caption: String
    }

    static func overview(album: (photos: [Photo], title: String)) {
        for photo in album.photos {
            print("\(TerminalText.safeLine(photo.name))  \(TerminalText.safeLine(photo.caption))")
        }
    }
}
