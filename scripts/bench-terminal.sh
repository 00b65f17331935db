#!/usr/bin/env bash
# A terminal frame's picture: how long photo-browser's encoders take for
# one frame of a 12 MP photo fitted to a 1920x1080-pixel terminal, in sixel
# and kitty graphics (zlib-compressed and raw), straight and through tmux (where a sixel picture over
# tmux's 1 MiB passthrough limit goes in strips), beside img2sixel
# (libsixel's own tool, the same library) and ImageMagick encoding the same
# fitted pixels to sixel, one process per frame. Writes the table to
# BENCHMARKS.md between the terminal markers.
#
# Environment: WORK (a folder for the generated photos), FRAMES (frames per
# mode, default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
FRAMES=${FRAMES:-15}
. scripts/bench-photos.sh
prepare_bench bench-terminal terminal-bench
json=$(.build/release/terminal-bench "$WORK/photos/photo-1.jpg" --size 1920x1080 --cell 10x20 --frames "$FRAMES" --png "$WORK/fitted.png")
hyperfine --warmup 2 --runs "$FRAMES" --export-json "$WORK/tools.json" \
    "img2sixel $WORK/fitted.png > /dev/null" "convert $WORK/fitted.png sixel:- > /dev/null" >/dev/null
table=$(python3 - "$json" "$WORK/tools.json" "$FRAMES" <<'PY'
import json, sys, datetime
r = json.loads(sys.argv[1]); tools = json.load(open(sys.argv[2]))["results"]; frames = sys.argv[3]
img2sixel, magick = (t["median"] * 1000 for t in tools)
found, kept = r["sixel_tmux_found_each_frame"], r["sixel_tmux_remembered"]
def row(name, m, note=""):
    return f"| {name} | {m['median_ms']:.1f} ms | {m['bytes'] / 1e6:.2f} MB | {note} |"
lines = [
    "<!-- terminal:begin -->",
    "## Terminal frames: encoding a picture for the terminal",
    "",
    f"Measured {datetime.date.today()} on 2 cores by `scripts/bench-terminal.sh` (`make bench-terminal`): a generated",
    f"12 MP JPEG fitted to a 1920x1080-pixel terminal ({r['canvas']} pixels, {r['cell']} cells), the median of {frames} frames",
    "per mode, release build. Through tmux a picture over its 1 MiB passthrough limit goes in strips of whole cell",
    "rows. Without a strip memory each frame is encoded whole, found too big and encoded again in strips; the viewer",
    "keeps a `TmuxStripMemory`, so from the second frame of a size it encodes the strips at once. img2sixel and",
    "ImageMagick encode the same fitted pixels from a PNG, one process per frame (PNG decode included).",
    "",
    "| mode | per frame, median | bytes | |",
    "|---|---|---|---|",
    row("sixel (libsixel, 256 colours)", r["sixel"]),
    row("sixel through tmux, strips found each frame", found),
    row("sixel through tmux, strips remembered (the viewer)", kept, f"{found['median_ms'] / kept['median_ms']:.2f}x faster; first frame {kept['first_ms']:.1f} ms"),
    row("kitty, zlib (`o=z`, for a terminal across SSH)", r["kitty_compressed"]),
    row("kitty, raw (the viewer, terminal on this machine)", r["kitty_raw"], f"{r['kitty_compressed']['median_ms'] / r['kitty_raw']['median_ms']:.1f}x faster than zlib"),
    row("kitty, raw, through tmux", r["kitty_raw_tmux"]),
    f"| img2sixel (process) | {img2sixel:.1f} ms | | sixel here: {img2sixel / r['sixel']['median_ms']:.2f}x faster |",
    f"| ImageMagick `convert … sixel:-` (process) | {magick:.1f} ms | | sixel here: {magick / r['sixel']['median_ms']:.2f}x faster |",
    "<!-- terminal:end -->",
]
print("\n".join(lines))
PY
)
printf '%s\n' "$table" | python3 scripts/update-benchmarks.py terminal
echo "$table"
