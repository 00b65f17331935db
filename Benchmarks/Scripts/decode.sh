#!/usr/bin/env bash
# Decode throughput of PhotoDeck's ImageCodecs beside djpeg, dwebp and Pillow,
# measured in one run on the same generated images. Writes the table to
# BENCHMARKS.md (between the decode markers) and prints it.
#
# Usage: Benchmarks/Scripts/decode.sh        (make bench NAME=decode installs the tools)
# Environment: RUNS (default 15) repetitions per measurement.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=Benchmarks/Scripts/common.sh
. Benchmarks/Scripts/common.sh
build_codec_bench

# Realistic large images: a real photo upscaled, with sensor-like noise.
[ -f "$WORK/24mp.jpg" ] || convert "$SOURCE" -resize '6000x4000!' -attenuate 0.4 +noise Gaussian -quality 90 -sampling-factor 2x2 "$WORK/24mp.jpg"
[ -f "$WORK/12mp.png" ] || convert "$SOURCE" -resize '4000x3000!' -attenuate 0.2 +noise Gaussian "$WORK/12mp.png"
[ -f "$WORK/12mp.webp" ] || convert "$SOURCE" -resize '4000x3000!' -attenuate 0.2 +noise Gaussian -quality 85 "$WORK/12mp.webp"


# Median in-process Pillow decode time in ms. $1 file, $2 draft scale (1 = none).
pillow_ms() {
    $PY - "$1" "$2" "$RUNS" <<'PY'
import sys, time, statistics
from PIL import Image
path, scale, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def once():
    im = Image.open(path)
    if scale > 1:
        im.draft("RGB", (im.width // scale, im.height // scale))
    im.load()
once()
times = []
for _ in range(runs):
    t = time.perf_counter(); once(); times.append((time.perf_counter() - t) * 1000)
print("%.2f" % statistics.median(times))
PY
}

mp() { $PY -c "print('%.1f' % ($1 / ($2 / 1000.0)))"; }

rows=()
add_row() { # label megapixels ours_ms tool tool_ms pillow_ms
    rows+=("| $1 | $3 ms ($(mp "$2" "$3") MP/s) | $4: $5 ms ($(mp "$2" "$5") MP/s) | $(ratio "$3" "$5") | $6 ms ($(mp "$2" "$6") MP/s) | $(ratio "$3" "$6") |")
}

ours=$($BENCH "$WORK/24mp.jpg" --runs "$RUNS" | cut -f1)
add_row "24 MP JPEG, full size" 24 "$ours" djpeg "$(tool_ms "djpeg -outfile /dev/null $WORK/24mp.jpg")" "$(pillow_ms "$WORK/24mp.jpg" 1)"
ours=$($BENCH "$WORK/24mp.jpg" --fit 1500x1000 --runs "$RUNS" | cut -f1)
add_row "24 MP JPEG, 1/4 scale (DCT)" 24 "$ours" "djpeg -scale 1/4" "$(tool_ms "djpeg -scale 1/4 -outfile /dev/null $WORK/24mp.jpg")" "$(pillow_ms "$WORK/24mp.jpg" 4)"
ours=$($BENCH "$WORK/12mp.png" --runs "$RUNS" | cut -f1)
add_row "12 MP PNG (RGB, 8-bit)" 12 "$ours" "pngtopnm" "$(tool_ms "convert $WORK/12mp.png ppm:/dev/null")" "$(pillow_ms "$WORK/12mp.png" 1)"
ours=$($BENCH "$WORK/12mp.webp" --runs "$RUNS" | cut -f1)
add_row "12 MP WebP (lossy q85)" 12 "$ours" "dwebp -mt" "$(tool_ms "dwebp -quiet -mt $WORK/12mp.webp -ppm -o /dev/null")" "$(pillow_ms "$WORK/12mp.webp" 1)"

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
table=$(cat <<TABLE
<!-- decode:begin -->
## Decode throughput

Measured $(date -u +%Y-%m-%d) on $(nproc) cores ($cpu) by \`Benchmarks/Scripts/decode.sh\`,
medians of $RUNS runs. PhotoDeck and Pillow are timed in-process (decode
only); the command-line tools are timed as whole processes with hyperfine
(start-up of about 1 ms included, output to /dev/null; PhotoDeck fills a 72 MB bitmap in
memory for the full-size JPEG, which djpeg, writing row by row, does not). WebP decodes
use libwebp's threaded filter on both sides. MP/s counts source
megapixels. Ratio = PhotoDeck time / other time (below 1 is faster).

| image | PhotoDeck | command-line tool | ratio | Pillow | ratio |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
<!-- decode:end -->
TABLE
)
table=${table//pngtopnm:/ImageMagick convert:}

printf '%s\n' "$table" | $PY Benchmarks/Scripts/update-benchmarks.py decode
echo "$table"
