import ExampleSupport
import ImageCodecs
import VideoCodecs

/// What a file given to photo-share where photos go turns out to be, by
/// its first bytes (never its name): a photo, a video (shared as one, as
/// `--video` does), or something else, said in words with what to use
/// instead.
enum InputKind: Equatable {
    /// A photo some decoder reads.
    case image
    /// A video FFmpeg opens, with a video stream.
    case video
    /// Neither: what it is, and what to use for it.
    case other(what: String, advice: String)

    /// How many leading bytes are looked at.
    static let sniffLength = 512

    /// The kind of the file at `path`. A video is confirmed by FFmpeg's
    /// probe, on the video worker threads.
    static func of(fileAt path: String) async throws(CLIError) -> InputKind {
        let leading = try readInputFilePrefix(path, length: sniffLength)
        if ImageFormat(sniffing: leading) != nil { return .image }
        if VideoInfo.mightBeVideo(leadingBytes: leading) {
            do {
                _ = try await VideoInfo.probe(fileAt: path)
                return .video
            } catch .noVideoStream {
                return .other(what: "sound without pictures", advice: "a music card goes with --music URL (to wechat/... or qq/...)")
            } catch {
                return .other(what: "a video container FFmpeg cannot open (\(error.description.oneLine))", advice: "convert it to MP4 first")
            }
        }
        return described(leading)
    }

    /// Words for a file that is neither a photo nor a video.
    static func described(_ leading: [UInt8]) -> InputKind {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            leading.count >= offset + text.utf8.count && leading[offset..<(offset + text.utf8.count)].elementsEqual(text.utf8)
        }
        let asFile = "a file goes with --file PATH (to wechat/session, wechat/favorite or qq/...)"
        if leading.isEmpty { return .other(what: "empty", advice: "give a photo or a video") }
        if starts("%PDF-") { return .other(what: "a PDF document", advice: asFile) }
        if starts("PK\u{3}\u{4}") { return .other(what: "a ZIP archive (or an Office document)", advice: asFile) }
        if leading.starts(with: [0x1F, 0x8B]) { return .other(what: "a gzip archive", advice: asFile) }
        if starts("\u{7F}ELF") { return .other(what: "a program (ELF)", advice: asFile) }
        if starts("ID3") || starts("fLaC") || starts("OggS") || (starts("RIFF") && starts("WAVE", at: 8))
            || (leading.count >= 2 && leading[0] == 0xFF && leading[1] & 0xE0 == 0xE0)
        {
            return .other(what: "sound (an audio file)", advice: "a music card goes with --music URL (to wechat/... or qq/...)")
        }
        if starts("II*\u{0}") || starts("MM\u{0}*") {
            return .other(what: "a TIFF picture (or a camera's raw file), which PhotoDeck does not decode", advice: "convert it to JPEG or PNG first")
        }
        if starts("BM") { return .other(what: "a BMP picture, which PhotoDeck does not decode", advice: "convert it to JPEG or PNG first") }
        // Text, allowing for a character cut at the end of what was read.
        let text = (0...3).lazy.compactMap { String(validating: leading.dropLast($0), as: UTF8.self) }.first
        if let text, !text.unicodeScalars.contains(where: { $0.value < 0x20 && !"\n\r\t".unicodeScalars.contains($0) }) {
            return .other(what: "text", advice: "text goes with --text TEXT")
        }
        let shown = leading.prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
        return .other(what: "not a photo or a video PhotoDeck reads (it starts with \(shown))", advice: asFile)
    }
}

extension String {
    /// The text with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
