#!/usr/bin/env bash
# A terminal frame's picture: how long photo-browser's encoders take for
# one frame of a 12 MP photo fitted to a 1920x1080-pixel terminal, in sixel
# (PhotoDeck's writer without dithering; libchafa's ordered and diffusion
# dithering) and kitty graphics (zlib-compressed and raw),
# straight and through tmux (where a sixel picture over tmux's 1 MiB
# passthrough limit goes in strips), beside img2sixel (libsixel, the
# encoder before), chafa (libchafa's own tool) and ImageMagick encoding the
# same fitted pixels to sixel, one process per frame; each sixel picture's
# PSNR against the fitted pixels (decoded back by ImageMagick). Writes the
# table to BENCHMARKS.md between the terminal markers.
#
# Environment: WORK (a folder for the generated photos), FRAMES (frames per
# mode, default 15).
set -euo pipefail
cd "$(dirname "$0")/../.."
FRAMES=${FRAMES:-15}
. Benchmarks/Scripts/photos.sh
prepare_bench bench-terminal terminal-bench
mkdir -p "$WORK/sixels"
json=$(.build/release/terminal-bench "$WORK/photos/photo-1.jpg" --size 1920x1080 --cell 10x20 --frames "$FRAMES" --png "$WORK/fitted.png" --sixels "$WORK/sixels")
size=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['canvas'])" "$json")
# chafa's tool sizes in cells of its own guess: 8x8 cells at a 1:1 font ratio give the fitted size.
cells=$(python3 -c "import sys; w, h = map(int, sys.argv[1].split('x')); print(f'{w // 8}x{h // 8}')" "$size")
img2sixel "$WORK/fitted.png" > "$WORK/sixels/img2sixel.six"
chafa -f sixel --font-ratio 1/1 --size "$cells" "$WORK/fitted.png" > "$WORK/sixels/chafa.six"
hyperfine --warmup 2 --runs "$FRAMES" --export-json "$WORK/tools.json" \
    "img2sixel $WORK/fitted.png > /dev/null" "convert $WORK/fitted.png sixel:- > /dev/null" \
    "chafa -f sixel --font-ratio 1/1 --size $cells $WORK/fitted.png > /dev/null" >/dev/null
psnr() {
    convert "sixel:$1" -alpha off "$1.png" 2>/dev/null
    # compare exits 1 when the pictures differ, which they do.
    { compare -metric PSNR "$WORK/fitted.png" "$1.png" null: 2>&1 || true; } | cut -d' ' -f1
}
psnrs=""
for name in sixel sixel_libchafa sixel_ordered sixel_diffusion img2sixel chafa; do psnrs="$psnrs $name=$(psnr "$WORK/sixels/$name.six")"; done
table=$(python3 - "$json" "$WORK/tools.json" "$FRAMES" $psnrs <<'PY'
import json, sys, datetime
r = json.loads(sys.argv[1]); tools = json.load(open(sys.argv[2]))["results"]; frames = sys.argv[3]
psnr = dict(item.split("=") for item in sys.argv[4:])
img2sixel, magick, chafa = (t["median"] * 1000 for t in tools)
found, kept = r["sixel_tmux_found_each_frame"], r["sixel_tmux_remembered"]
def row(name, m, note="", quality=""):
    return f"| {name} | {m['median_ms']:.1f} ms | {m['bytes'] / 1e6:.2f} MB | {quality} | {note} |"
lines = [
    "<!-- terminal:begin -->",
    "## Terminal frames: encoding a picture for the terminal",
    "",
    f"Measured {datetime.date.today()} on 2 cores by `Benchmarks/Scripts/terminal.sh` (`make bench NAME=terminal`): a generated",
    f"12 MP JPEG fitted to a 1920x1080-pixel terminal ({r['canvas']} pixels, {r['cell']} cells), the median of {frames} frames",
    "per mode, release build. Through tmux a picture over its 1 MiB passthrough limit goes in strips of whole cell",
    "rows. Without a strip memory each frame is encoded whole, found too big and encoded again in strips; the viewer",
    "keeps a `TmuxStripMemory`, so from the second frame of a size it encodes the strips at once. img2sixel and",
    "ImageMagick encode the same fitted pixels from a PNG, one process per frame (PNG decode included); so does",
    "chafa, libchafa's own tool. PSNR: each sixel picture decoded back by ImageMagick against the fitted pixels.",
    "",
    "| mode | per frame, median | bytes | PSNR | |",
    "|---|---|---|---|---|",
    row("sixel (PhotoDeck's writer, 256 colours, no dithering: the viewer)", r["sixel"], f"{r['sixel']['median_ms'] / 100:.2f}x the 100 ms target", f"{psnr['sixel']} dB"),
    row("sixel, libchafa, no dithering (the writer before)", r["sixel_libchafa"], f"PhotoDeck's writer: {r['sixel_libchafa']['median_ms'] / r['sixel']['median_ms']:.2f}x faster", f"{psnr['sixel_libchafa']} dB"),
    row("sixel, ordered dithering (libchafa)", r["sixel_ordered"], "", f"{psnr['sixel_ordered']} dB"),
    row("sixel, diffusion (libchafa)", r["sixel_diffusion"], "", f"{psnr['sixel_diffusion']} dB"),
    row("sixel through tmux, strips found each frame", found),
    row("sixel through tmux, strips remembered (the viewer)", kept, f"{found['median_ms'] / kept['median_ms']:.2f}x faster; first frame {kept['first_ms']:.1f} ms"),
    row("kitty, zlib (`o=z`, for a terminal across SSH)", r["kitty_compressed"]),
    row("kitty, raw (the viewer, terminal on this machine)", r["kitty_raw"], f"{r['kitty_compressed']['median_ms'] / r['kitty_raw']['median_ms']:.1f}x faster than zlib"),
    row("kitty, raw, through tmux", r["kitty_raw_tmux"]),
    f"| img2sixel (process; libsixel, the encoder before) | {img2sixel:.1f} ms | | {psnr['img2sixel']} dB | sixel here: {img2sixel / r['sixel']['median_ms']:.2f}x faster |",
    f"| chafa (process) | {chafa:.1f} ms | | {psnr['chafa']} dB | sixel here: {chafa / r['sixel']['median_ms']:.2f}x faster |",
    f"| ImageMagick `convert … sixel:-` (process) | {magick:.1f} ms | | | sixel here: {magick / r['sixel']['median_ms']:.2f}x faster |",
    "<!-- terminal:end -->",
]
print("\n".join(lines))
PY
)
printf '%s\n' "$table" | python3 Benchmarks/Scripts/update-benchmarks.py terminal
echo "$table"
