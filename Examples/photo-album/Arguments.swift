import ExampleSupport
import Foundation
import ImageCodecs
import PhotoAlbum

/// The parsed command line of photo-album.
struct Arguments {
    enum Command {
        case importFiles(album: String, paths: [String], json: Bool)
        case list(album: String?, json: Bool, filter: AssetFilter)
        case mark(ids: [String], change: MarkChange)
        case remove(album: String?, ids: [String])
        case check
        case pick(source: PhotoSourceKind?, limit: Int, from: String, album: String, videos: Bool)
        case export(ids: [String], album: String?, stacks: StackOffering, to: String, policy: MetadataPolicy, rotation: JPEGTransform.Operation?, trims: Bool)
        case dupes(album: String?, json: Bool)
        case resolve(group: String, album: String?, keep: String?)
        case stacks(album: String?, json: Bool)
        case cover(id: String)
        case publish(album: String, to: String, title: String?, baseURL: URL?, json: Bool)
    }

    static let usage = """
        usage: photo-album --store DIR import [--album NAME] [--json] PATH...
               photo-album --store DIR list [--album NAME] [--json] [--min-rating N] [--with-label NAME] [--with-tag TAG]
               photo-album --store DIR mark [--rating N] [--label NAME] [--tag TAG]... [--untag TAG]... ID...
               photo-album --store DIR remove [--album NAME] ID...
               photo-album --store DIR check
               photo-album --store DIR dupes [--album NAME] [--json]
               photo-album --store DIR resolve [--album NAME] [--keep ID] GROUP
               photo-album --store DIR stacks [--album NAME] [--json]
               photo-album --store DIR cover ID
               photo-album --store DIR publish --album NAME --out DIR [--title T] [--base-url URL] [--json]
               photo-album --store DIR pick [--source camera|library] [--limit N] [--album NAME] [--videos] --from DIR
               photo-album --store DIR export --to DIR [--rotate 90|180|270|flip-h|flip-v] [--trim]
                                              [--keep-location] [--keep-marks] [--keep-metadata] ID... | --album NAME [--every-frame]

        export writes copies without GPS, serial numbers, owner names, XMP or IPTC (the stored
        originals are never changed); --rotate turns a JPEG losslessly, --trim lets it drop edge
        pixels that are not whole blocks (otherwise such a rotation is refused); --keep-marks writes the
        photo's rating, label and tags into the copy; --album exports the album, each burst or pair
        as its cover alone unless --every-frame.
        mark changes a photo's rating, label and tags in the store (every album that holds it)
        dupes lists the groups of photos that are one picture (resized, recompressed, cropped a
        little), each with the copy to keep; resolve GROUP (its number in dupes, or a photo's id)
        keeps that copy (or --keep ID), gives it the others' albums, best rating, labels and tags,
        and moves the others to the album "\(AlbumStore.setAsideAlbumName)"
        stacks lists bursts (one camera's frames within 2 s, or a phone's burst names) and pairs
        (HEIC and JPEG of one shot) with their cover, the sharpest frame; cover ID makes ID its stack's cover
        publish writes the album as a static web gallery in DIR (index.html, a page per photo, WebP
        and JPEG renditions, no location or serial numbers), each burst or pair by its cover; --base-url
        is where DIR will be served (link cards need it); republishing rewrites only what changed
        """ + "\n" + MarkChange.help.split(separator: "\n").map { "        (" + $0 + ")" }.joined(separator: "\n")

    static let defaultAlbum = "Favourites"

    let store: String
    let command: Command

    init(_ arguments: [String]) throws(CLIError) {
        var store: String?
        var album: String?
        var json = false
        var source: PhotoSourceKind?
        var limit = 1
        var from: String?
        var to: String?
        var policy = MetadataPolicy.default
        var rotation: JPEGTransform.Operation?
        var trims = false
        var videos = false
        var stacks = StackOffering.cover
        var keep: String?
        var out: String?
        var title: String?
        var baseURL: URL?
        var marks = MarkChange()
        var filters: [AssetFilter] = []
        var positional: [String] = []
        var iterator = ArgumentReader(arguments)
        func value(_ flag: String) throws(CLIError) -> String { try iterator.value(for: flag) }
        while let argument = iterator.next() {
            switch argument {
            case "--store": store = try value(argument)
            case "--album": album = try value(argument)
            case "--json": json = true
            case "--keep": keep = try value(argument)
            case "--from": from = try value(argument)
            case "--to": to = try value(argument)
            case "--out": out = try value(argument)
            case "--title": title = try value(argument)
            case "--base-url":
                let raw = try value(argument)
                guard let url = URL(string: raw), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                    throw CLIError("--base-url needs an absolute http(s) URL, got '\(raw.oneLine)'")
                }
                baseURL = url
            case "--trim": trims = true
            case "--videos": videos = true
            case "--every-frame": stacks = .everyFrame
            case "--keep-location": policy.keepsLocation = true
            case "--keep-marks": policy.keepsAnnotations = true
            case "--min-rating": filters.append(.rated(atLeast: try iterator.number(for: argument, in: -1...5)))
            case "--with-label":
                let name = try value(argument)
                filters.append(PhotoAnnotations.ColorLabel(name: name).map { .colorLabels([$0]) } ?? .label(name))
            case "--with-tag": filters.append(.tagged(try value(argument)))
            case _ where try marks.read(argument, from: &iterator): break
            case "--keep-metadata": policy = .keepAll
            case "--rotate":
                let operations: [String: JPEGTransform.Operation] = [
                    "90": .rotate90, "180": .rotate180, "270": .rotate270, "flip-h": .flipHorizontal, "flip-v": .flipVertical,
                ]
                let text = try value(argument)
                guard let operation = operations[text] else { throw CLIError("--rotate takes 90, 180, 270, flip-h or flip-v, got '\(text)'") }
                rotation = operation
            case "--limit":
                let text = try value(argument)
                guard let number = Int(text), number >= 0 else { throw CLIError("--limit must be a whole number (0 for no limit), got '\(text)'") }
                limit = number
            case "--source":
                switch try value(argument) {
                case "camera": source = .camera
                case "library": source = .photoLibrary
                case let other: throw CLIError("--source must be camera or library, got '\(other)'")
                }
            case "-h", "--help": throw CLIError(Self.usage, isUsage: true)
            case _ where argument.hasPrefix("--"): throw CLIError("unknown option \(argument)")
            default: positional.append(argument)
            }
        }
        guard let store else { throw CLIError("--store DIR is required") }
        guard let verb = positional.first else { throw CLIError("no command given; try --help") }
        let rest = Array(positional.dropFirst())
        self.store = store
        switch verb {
        case "import":
            guard !rest.isEmpty else { throw CLIError("import needs at least one file or folder") }
            command = .importFiles(album: album ?? Self.defaultAlbum, paths: rest, json: json)
        case "list": command = .list(album: album, json: json, filter: .all(filters))
        case "mark":
            guard !rest.isEmpty else { throw CLIError("mark needs at least one asset id") }
            guard !marks.isEmpty else { throw CLIError("mark needs a change (--rating, --label, --tag or --untag)") }
            command = .mark(ids: rest, change: marks)
        case "remove":
            guard !rest.isEmpty else { throw CLIError("remove needs at least one asset id") }
            command = .remove(album: album, ids: rest)
        case "check": command = .check
        case "dupes": command = .dupes(album: album, json: json)
        case "stacks": command = .stacks(album: album, json: json)
        case "cover":
            guard rest.count == 1 else { throw CLIError("cover needs one photo's id") }
            command = .cover(id: rest[0])
        case "resolve":
            guard rest.count == 1 else { throw CLIError("resolve needs one GROUP (a number from dupes, or a photo's id)") }
            command = .resolve(group: rest[0], album: album, keep: keep)
        case "pick":
            guard let from else { throw CLIError("pick needs --from DIR (the library folder)") }
            command = .pick(source: source, limit: limit, from: from, album: album ?? Self.defaultAlbum, videos: videos)
        case "export":
            guard let to else { throw CLIError("export needs --to DIR") }
            guard rest.isEmpty != (album == nil) else { throw CLIError("export needs asset ids or --album NAME (one of the two)") }
            // --keep-location after --keep-metadata changes nothing; before it, keepAll wins.
            command = .export(ids: rest, album: album, stacks: stacks, to: to, policy: policy, rotation: rotation, trims: trims)
        case "publish":
            guard let album else { throw CLIError("publish needs --album NAME") }
            guard let out else { throw CLIError("publish needs --out DIR (the gallery's folder)") }
            command = .publish(album: album, to: out, title: title, baseURL: baseURL, json: json)
        default: throw CLIError("unknown command '\(verb)'; try --help")
        }
    }
}
