#!/usr/bin/env bash
# JPEG XL decode: PhotoDeck (libjxl in-process, its parallel steps on the
# execution floor's threads)
# beside djxl (libjxl-tools), one thread and all, on the same 12 MP files:
# a lossy one (cjxl -d 1) and a JPEG recompressed losslessly (cjxl from a
# JPEG, decoded to pixels). Writes the section between the jxl markers of
# BENCHMARKS.md and prints it.
#
# Usage: Benchmarks/Scripts/jxl.sh   (make bench NAME=jxl)     Environment: RUNS (default 15).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=Benchmarks/Scripts/common.sh
. Benchmarks/Scripts/common.sh
build_codec_bench

[ -f "$WORK/12mp.png" ] || convert "$SOURCE" -resize '4000x3000!' -attenuate 0.2 +noise Gaussian "$WORK/12mp.png"
[ -f "$WORK/12mp.jpg" ] || convert "$WORK/12mp.png" -quality 90 "$WORK/12mp.jpg"
[ -f "$WORK/lossy.jxl" ] || cjxl -d 1 "$WORK/12mp.png" "$WORK/lossy.jxl" >/dev/null 2>&1
[ -f "$WORK/recompressed.jxl" ] || cjxl "$WORK/12mp.jpg" "$WORK/recompressed.jxl" >/dev/null 2>&1

rows=()
for name in lossy recompressed; do
    file="$WORK/$name.jxl"
    ours=$($BENCH "$file" --runs "$RUNS" | cut -f1)
    one=$(tool_ms "djxl $file --num_threads=1 --quiet")
    all=$(tool_ms "djxl $file --quiet")
    label=$([ "$name" = lossy ] && echo "12 MP JPEG XL, lossy (cjxl -d 1)" || echo "12 MP JPEG recompressed as JPEG XL, to pixels")
    rows+=("| $label | $ours ms | $one ms | $(ratio "$ours" "$one") | $all ms ($(nproc) threads) | $(ratio "$ours" "$all") |")
done

table=$(cat <<TABLE
<!-- jxl:begin -->
## JPEG XL decode

Measured $(date -u +%Y-%m-%d) by \`Benchmarks/Scripts/jxl.sh\`, medians of $RUNS runs, libjxl 0.7.
PhotoDeck is timed in-process (decode to 8-bit sRGB pixels; libjxl's parallel steps on the calling
thread and ParallelWork's helpers, up to $(nproc) threads); djxl as a whole process with hyperfine (start-up
included, no output file).

| image | PhotoDeck | djxl, 1 thread | ratio | djxl, default threads | ratio |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
<!-- jxl:end -->
TABLE
)
printf '%s\n' "$table" | $PY Benchmarks/Scripts/update-benchmarks.py jxl
echo "$table"
