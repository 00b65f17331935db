import ExampleSupport
import ExampleViewing
import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer

/// The parsed command line of photo-browser.
struct Arguments {
    var viewport = CGSize(width: 390, height: 844)
    var scale = 3.0
    var cacheMB = 96
    var out: String?
    var paths: [String] = []
    /// Commands given after `--`.
    var scripted: [String]?
    /// Where the pictures go, and the window's options.
    var viewer = ViewerOptions()
    var stats = false
    var store: String?
    var album: String?
    /// The order photos from folders are shown in.
    var order = PhotoOrder.name
    /// How long the slideshow shows each photo.
    var slideshowDelay = Duration.seconds(4)
    /// Whether the slideshow starts when the viewer opens.
    var startsSlideshow = false
    /// Whether the viewer opens in the thumbnail grid.
    var startsInGrid = false
    /// How the grid's cells show their photos.
    var gridCells = GridCells.fill(.attention)
    /// Whether the information overlay is shown from the start.
    var startsWithInfo = false
    /// Whether the information overlay shows where photos were taken.
    var showsLocation = false

    static let defaultAlbum = "Favourites"

    static let usage = """
        usage: photo-browser [--display auto|window|kitty|iterm|sixel|ansi] [--window WxH] [--renderer R] [--once]
                             [--stats] [--store DIR [--album NAME]] [--cache-mb N] [--sort name|modified|date]
                             [--slideshow] [--slideshow-delay SECONDS] [--grid] [--grid-cells C] [--info [--show-location]] [PATH...]
               photo-browser [--viewport WxH] [--scale S] [--cache-mb N] [--out DIR] PATH... [-- COMMAND...]

        Shows the photos in PATH (files, folders or http(s) URLs, or the album NAME of the photo-album
        store DIR) in a window (SDL2) or in the terminal (kitty, iTerm2, sixel or ANSI colour blocks). `auto`, the default
        when standard input and output are terminals, opens a window when a display answers, else the best
        the terminal can do. Keys: Left/Right, Space/BackSpace, Home/End, +/- and the wheel zoom, 0 fits,
        double click zooms, drag swipes or pans, f full screen, a click shows the status, i the photo's
        information (size, camera, lens, exposure, date; where it was taken only with --show-location), s starts or
        stops the slideshow, o sorts by the next order (name, modified, date), r/R turn the photo and h/v
        flip it (for viewing; files are not changed), g or Enter switches between
        the photo and the thumbnail grid (arrows move, a click selects, a double click opens), q quits.
        Videos (MP4, MOV, WebM, MKV, AVI, MTS) show their first frame: Space or k plays and pauses them (silent),
        . and , step a frame; l plays a Live Photo's motion. Late frames are dropped, never fallen behind on.
        --grid opens in the grid (with --once, once its thumbnails are made); --grid-cells attention (the default),
        centre or entropy crops each photo to fill its square cell, choosing what it keeps that way; fit shows it whole. --info opens with the information shown. Keys can be rebound in
        $XDG_CONFIG_HOME/photodeck/keys.conf, one `KEY = ACTION` per line (see ViewerKeymap.parse). Thumbnails are read from and
        written to the desktop's shared cache, $XDG_CACHE_HOME/thumbnails (the freedesktop standard).
        With --store: d removes the shown photo from the album, w saves its turn (r, R, h, v) into the file (a JPEG,
        without loss: the album then holds the turned photo in its place); with PATHs and --store, a adds it.
        --window WxH sizes the window (default 1280x800); --renderer automatic|accelerated|software picks
        how it draws (automatic: the GPU, or the software renderer where OpenGL would run on the CPU);
        --once draws the first screen and exits; --stats prints key-to-frame times, decode counts and
        the output used on exit. A folder opens at once: its names are listed and each photo's header is
        read when its page is first shown; --sort modified|date re-sorts once the times or capture dates
        are read, keeping the shown photo (with --once, the screen waits for the order); --slideshow starts
        the slideshow, one photo every --slideshow-delay seconds (default 4). Photos from URLs are downloaded six at a time per host (the next ones
        ahead of time) and kept in $XDG_CACHE_HOME/photodeck/images (at most 256 MB).

        Scripted mode (commands after `--`, or one per line on a standard input that is not a terminal,
        when no --display is given) pages in a WxH-point viewport (default 390x844) at S pixels per
        point (default 3) and prints what the engine does; --out DIR writes each screen as DIR/NN-COMMAND.png.

        """ + BrowserCommand.help

    init(_ arguments: [String]) throws(CLIError) {
        var iterator = ArgumentReader(arguments)
        func value(_ flag: String) throws(CLIError) -> String { try iterator.value(for: flag) }
        while let argument = iterator.next() {
            switch argument {
            case "--viewport": viewport = try BrowserCommand.size(try value(argument))
            case "--scale":
                let text = try value(argument)
                guard let number = Double(text), number >= 1, number <= 4 else { throw CLIError("--scale takes 1 to 4, got '\(text)'") }
                scale = number
            case "--cache-mb":
                let text = try value(argument)
                guard let number = Int(text), number >= 1 else { throw CLIError("--cache-mb takes a whole number of megabytes, got '\(text)'") }
                cacheMB = number
            case "--display", "--window", "--renderer", "--once": _ = try viewer.read(argument, from: &iterator)
            case "--stats": stats = true
            case "--sort":
                let text = try value(argument)
                guard let chosen = PhotoOrder(rawValue: text) else { throw CLIError("--sort takes name, modified or date, got '\(text)'") }
                order = chosen
            case "--slideshow": startsSlideshow = true
            case "--grid": startsInGrid = true
            case "--grid-cells":
                let text = try value(argument)
                if text == "fit" {
                    gridCells = .fit
                } else if let strategy = CropStrategy(rawValue: text) {
                    gridCells = .fill(strategy)
                } else {
                    throw CLIError("--grid-cells takes fit, centre, attention or entropy, got '\(text)'")
                }
            case "--info": startsWithInfo = true
            case "--show-location": showsLocation = true
            case "--slideshow-delay":
                let text = try value(argument)
                guard let seconds = Double(text), seconds >= 0.05, seconds <= 86_400 else {
                    throw CLIError("--slideshow-delay takes 0.05 to 86400 seconds, got '\(text)'")
                }
                slideshowDelay = .milliseconds(Int((seconds * 1000).rounded()))
            case "--store": store = try value(argument)
            case "--album": album = try value(argument)
            case "--out": out = try value(argument)
            case "--help", "-h": throw CLIError(Self.usage, isUsage: true)
            case "--":
                // "double-tap 200,400" arrives as two arguments: a verb that takes a value takes the next one.
                var commands: [String] = []
                while let verb = iterator.next() {
                    let takesValue = ["swipe", "double-tap", "pinch", "pan", "resize", "goto"].contains(verb)
                    commands.append(takesValue ? "\(verb) \(iterator.next() ?? "")" : verb)
                }
                scripted = commands
            default:
                if argument.hasPrefix("-") { throw CLIError("unknown option \(argument)\n\(Self.usage)") }
                paths.append(argument)
            }
        }
        if album != nil && store == nil { throw CLIError("--album needs --store DIR") }
        guard !paths.isEmpty || store != nil else { throw CLIError(Self.usage, isUsage: true) }
    }

    /// Whether to open a viewer (not the scripted mode): an explicit
    /// --display always does; otherwise only when no commands came after
    /// `--` and both standard input and output are terminals.
    func opensViewer(inputIsTerminal: Bool, outputIsTerminal: Bool) -> Bool {
        if viewer.display != nil { return true }
        return scripted == nil && inputIsTerminal && outputIsTerminal
    }
}
