// photo-meta: what a photo says of when and where it was taken, and
// changes to it that leave every pixel as it was.
//
//   photo-meta show [--json] FILE...
//   photo-meta set FILE... [--date DATE] [--shift ±DURATION] [--zone IANA --keep-instant|--keep-clock]
//                          [--gps LAT,LON[,ALT] | --no-gps | --gpx TRACK [--max-gap SECONDS]]
//                          [--rating N] [--label NAME] [--tag TAG]... [--untag TAG]... [--sidecar]
//
// show prints each file's capture date (DateTimeOriginal with its offset),
// place, rating, label and tags (its own XMP's, a sidecar's winning); --json prints one JSON object per file, one per line.
// set rewrites JPEG, PNG, WebP, HEIC and AVIF files in place (a temporary file, flushed,
// renamed over the old one): --date sets the three EXIF dates
// (2024-05-01T12:20:30+09:00, or without the offset to keep the one
// recorded); --shift moves them by a signed duration (+1h, -30m, -1d2h,
// -0:30:00); --zone moves them to a time zone keeping the instant
// (--keep-instant: the clock changes) or the clock (--keep-clock: the
// instant changes), one of the two said explicitly (--zone place takes
// each file's zone from the place it records, after any place change:
// tzdata's nearest principal city); --gps sets the place
// and --no-gps removes it; --gpx places each file where a GPX track was
// when it was taken (interpolated between the points around that moment,
// none across a gap longer than --max-gap seconds, 1800 by default).
// --rating, --label, --tag and --untag change the marks photo apps share
// (xmp:Rating, xmp:Label, dc:subject, lr:hierarchicalSubject; digiKam's
// and darktable's where the file has them), in the file or, with
// --sidecar (and always for a movie), in FILE.xmp. Each file gets one line saying what it says now.
// A file that cannot be changed is named with the reason and left as it
// was; the others are still changed, and the status is then 1.

import ExampleSupport
import Foundation
import ImageCodecs

await runCommandLineTool { arguments in
    var reader = ArgumentReader(arguments)
    switch reader.next() {
    case "show": return try await MetaCommand.show(&reader)
    case "set": return try await MetaCommand.set(&reader)
    case "--help", "-h": throw CLIError(MetaCommand.usage, isUsage: true)
    case let other?: throw CLIError("unknown command '\(other)' (show or set)\n\(MetaCommand.usage)")
    case nil: throw CLIError(MetaCommand.usage, isUsage: true)
    }
}
