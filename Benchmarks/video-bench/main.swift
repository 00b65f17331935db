// video-bench: one poster frame per process, as a file manager's
// thumbnailer makes them, for scripts/bench-video.py.
//
//   video-bench SECONDS SIZE VIDEO OUT.jpg
//
// Writes the frame shown at SECONDS of VIDEO, fitted into SIZE x SIZE,
// as a JPEG (quality 85). Any failure prints one line and exits 1.

import ExampleSupport
import Foundation
import ImageCodecs
import VideoCodecs

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let seconds = Double(arguments[0]), seconds >= 0, seconds <= 86_400, let side = Int(arguments[1]), (1...8_192).contains(side)
else {
    Console.error("usage: video-bench SECONDS SIZE VIDEO OUT.jpg")
    exit(1)
}
do {
    let poster = try VideoPosterFrame(
        ofFileAt: arguments[2], at: .milliseconds(Int64((seconds * 1_000).rounded())), fitting: PixelSize(width: side, height: side))
    let jpeg = try poster.bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 85))
    try Data(jpeg).write(to: URL(fileURLWithPath: arguments[3]))
} catch {
    Console.error("error: \(error)")
    exit(1)
}
