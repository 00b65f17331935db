// terminal-bench: how long one frame's picture takes to encode for the
// terminal, straight and through tmux, for a photo fitted to a terminal's
// pixels (what photo-browser does for every frame it draws).
//
//   terminal-bench PHOTO [--size WxH] [--cell WxH] [--frames N] [--png OUT] [--sixels DIR]
//
// Modes: sixel (PhotoDeck's writer, 256 colours, no dithering; the same
// through libchafa, the writer before; libchafa's ordered and diffusion
// dithering too); sixel through tmux's passthrough
// without a strip memory (a picture over tmux's 1 MiB limit is encoded
// whole, found too big, then encoded again in strips) and with one (the
// viewer's: strips at once from the second frame); kitty with zlib (for a
// terminal across a network) and raw (the viewer's for a terminal on this
// machine), raw through tmux too. Each mode encodes the same fitted picture `frames` times,
// on ImageCodecs' image workers as the terminal viewer does.
// `--png OUT` writes the fitted picture, for other tools to encode the same
// pixels; `--sixels DIR` writes each sixel mode's picture (DIR/NAME.six),
// for its PSNR. Prints one JSON object: per mode, the median ms per frame and the
// bytes per frame.

import ExampleSupport
import Foundation
import ImageCodecs
import PhotoViewer
import SystemSupport

@main
struct TerminalBench {
    static func main() async {
        await runCommandLineTool { arguments in
            try await run(arguments)
            return 0
        }
    }

    static func run(_ arguments: [String]) async throws {
        var photo: String?
        var size = PixelSize(width: 1920, height: 1080)
        var cell = PixelSize(width: 10, height: 20)
        var frames = 9
        var png: String?
        var sixels: String?
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--size":
                let read = try SizeArgument(reader.value(for: argument), what: argument, wholeNumbers: true)
                size = PixelSize(width: read.pixelWidth, height: read.pixelHeight)
            case "--cell":
                let read = try SizeArgument(reader.value(for: argument), what: argument, range: 1...256, wholeNumbers: true)
                cell = PixelSize(width: read.pixelWidth, height: read.pixelHeight)
            case "--frames": frames = try reader.number(for: argument, in: 1...1_000)
            case "--png": png = try reader.value(for: argument)
            case "--sixels": sixels = try reader.value(for: argument)
            default: photo = argument
            }
        }
        guard let photo else { throw CLIError("usage: terminal-bench PHOTO [--size WxH] [--cell WxH] [--frames N] [--png OUT] [--sixels DIR]") }
        let canvas = try DecodedImage(renderingFileAt: photo, in: size, mode: .fit).bitmap
        if let png { try Data(PNGCodec().encode(canvas, options: .default)).write(to: URL(fileURLWithPath: png)) }

        var raw = KittyImageEncoder()
        raw.compresses = false
        let memory = TmuxStripMemory()
        var remembering = TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1)
        remembering.stripMemory = memory
        var libchafa = SixelImageEncoder()
        libchafa.writesWithLibchafa = true
        let modes: [(String, any TerminalImageEncoder)] = [
            ("sixel", SixelImageEncoder()),
            ("sixel_libchafa", libchafa),
            ("sixel_ordered", SixelImageEncoder(dithering: .ordered)),
            ("sixel_diffusion", SixelImageEncoder(dithering: .diffusion)),
            ("sixel_tmux_found_each_frame", TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1)),
            ("sixel_tmux_remembered", remembering),
            ("kitty_compressed", KittyImageEncoder()),
            ("kitty_raw", raw),
            ("kitty_raw_tmux", TmuxPassthroughEncoder(raw, row: 1, column: 1)),
        ]
        var results: [String: Any] = ["canvas": "\(canvas.width)x\(canvas.height)", "cell": "\(cell.width)x\(cell.height)", "frames": frames]
        for (name, encoder) in modes {
            var times: [Double] = []
            var bytes: [UInt8] = []
            for _ in 0..<frames {
                // On the image workers, as the terminal viewer encodes its frames (where an encoder may use both cores).
                let (picture, cells) = (canvas, cell)
                let start = ContinuousClock.now
                bytes = try await ImageWorkers.shared.run { () throws(TerminalError) -> [UInt8] in try encoder.encode(picture, cellSize: cells) }
                times.append((ContinuousClock.now - start).inMilliseconds)
            }
            if let sixels, name.hasPrefix("sixel"), !name.contains("tmux") {
                try Data(bytes).write(to: URL(fileURLWithPath: sixels).appendingPathComponent("\(name).six"))
            }
            // The first frame of the remembering mode finds the strips; the rest use them.
            let steady = name == "sixel_tmux_remembered" && times.count > 1 ? Array(times.dropFirst()) : times
            results[name] = ["median_ms": steady.sorted()[steady.count / 2], "first_ms": times[0], "bytes": bytes.count]
        }
        let data = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
